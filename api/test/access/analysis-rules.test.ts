// The analysis contract, rule by rule, each on a small hand-made estate with
// the case that breaks a naive reading.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, rowText, type Engine } from './support/helpers.js';
import { PAY_ROLE, POST_ROLE, act, assign, auth, estate, fn, pairRules, perm, risk, rf, rules, tcode, user } from './support/fixtures.js';

let e: Engine;
beforeAll(async () => {
  e = await engine();
});
afterAll(async () => e?.close());

/** Loads the rule set and the estate of PRD (a new rule set name each time), analyses, gives rows as text and conflicts. */
let n = 0;
async function analyse(ruleFiles: ReturnType<typeof pairRules>, tables: Parameters<typeof estate>[0], asOf = '2026-06-30') {
  const set = await e.ruleSet(ruleFiles, `Rules ${++n}`);
  const x = await e.extract('PRD', estate(tables));
  expect(x.errorMessage).toBeNull();
  const result = await e.analyse(set.id, asOf, ['PRD']);
  expect(result.run.errorMessage).toBeNull();
  return { ...result, text: result.rows.map(rowText), pairs: result.conflicts.map((c) => `${c.userId} ${c.riskId}`) };
}

describe('the analysis', () => {
  it('finds a conflict when both functions are held, with one row per path and required field', async () => {
    const r = await analyse(pairRules(), {
      USR02: [user('ALICE'), user('BOB')],
      AGR_USERS: [assign('ALICE', 'Z_POST'), assign('ALICE', 'Z_PAY'), assign('BOB', 'Z_POST')],
      AGR_1251: [...POST_ROLE, ...PAY_ROLE],
    });
    expect(r.pairs).toEqual(['ALICE R1']);
    expect(r.text).toEqual([
      'ALICE R1 R10001 F1 PRD FB01 Z_POST - F_BKPF_BUK ACTVT 01',
      'ALICE R1 R10001 F1 PRD FB01 Z_POST - F_BKPF_BUK BUKRS 1000',
      'ALICE R1 R10001 F2 PRD F-53 Z_PAY -',
    ]);
    expect(r.run).toMatchObject({ status: 'completed', conflicts: 1, rows: 3, users: 1, exercised: 0, added: 1, removed: 0 });
  });

  it('combines authorizations across roles: the transaction from one role, the permission from another', async () => {
    const r = await analyse(pairRules(), {
      USR02: [user('CARL')],
      AGR_USERS: [assign('CARL', 'Z_TX'), assign('CARL', 'Z_ORG'), assign('CARL', 'Z_PAY')],
      AGR_1251: [tcode('Z_TX', 'FB01'), auth('Z_ORG', 'F_BKPF_BUK', 'B1', 'BUKRS', '1000'), auth('Z_ORG', 'F_BKPF_BUK', 'B1', 'ACTVT', '01'), ...PAY_ROLE],
    });
    expect(r.pairs).toEqual(['CARL R1']);
    // The row's role is the one granting the transaction; Z_ORG shows only through the values.
    expect(r.text.filter((t) => t.includes(' F1 '))).toEqual([
      'CARL R1 R10001 F1 PRD FB01 Z_TX - F_BKPF_BUK ACTVT 01',
      'CARL R1 R10001 F1 PRD FB01 Z_TX - F_BKPF_BUK BUKRS 1000',
    ]);
  });

  it('does not grant an object whose fields are met only by two different authorizations', async () => {
    const r = await analyse(pairRules(), {
      USR02: [user('DORA')],
      AGR_USERS: [assign('DORA', 'Z_SPLIT'), assign('DORA', 'Z_PAY')],
      AGR_1251: [
        tcode('Z_SPLIT', 'FB01'),
        auth('Z_SPLIT', 'F_BKPF_BUK', 'B1', 'BUKRS', '1000'),
        auth('Z_SPLIT', 'F_BKPF_BUK', 'B2', 'ACTVT', '01'),
        ...PAY_ROLE,
      ],
    });
    expect(r.pairs).toEqual([]);
  });

  it('shows a single role held directly and through a composite as two paths; COL_FLAG copies are not assignments', async () => {
    const r = await analyse(pairRules(), {
      USR02: [user('EVE'), user('FRED')],
      AGR_USERS: [
        assign('EVE', 'Z_PAY'),
        assign('EVE', 'Z_COMP'),
        assign('EVE', 'Z_POST'),
        assign('FRED', 'Z_PAY'),
        assign('FRED', 'Z_POST', { COL_FLAG: 'X' }),
      ],
      AGR_AGRS: [{ AGR_NAME: 'Z_COMP', CHILD_AGR: 'Z_POST' }],
      // A composite's own authorizations are ignored.
      AGR_1251: [...POST_ROLE, ...PAY_ROLE, tcode('Z_COMP', 'F-53')],
    });
    expect(r.pairs).toEqual(['EVE R1']);
    expect(r.text.filter((t) => t.includes('BUKRS'))).toEqual([
      'EVE R1 R10001 F1 PRD FB01 Z_POST - F_BKPF_BUK BUKRS 1000',
      'EVE R1 R10001 F1 PRD FB01 Z_POST Z_COMP F_BKPF_BUK BUKRS 1000',
    ]);
  });

  it('leaves out expired assignments, locked users, users valid later, and deleted authorization rows', async () => {
    const r = await analyse(pairRules(), {
      USR02: [user('GUS'), user('HAL', { UFLAG: '64' }), user('IDA', { GLTGV: '20260701' }), user('JO'), user('KIM', { GLTGB: '20260630' })],
      AGR_USERS: [
        assign('GUS', 'Z_POST', { TO_DAT: '20260629' }),
        assign('GUS', 'Z_PAY'),
        assign('HAL', 'Z_POST'),
        assign('HAL', 'Z_PAY'),
        assign('IDA', 'Z_POST'),
        assign('IDA', 'Z_PAY'),
        assign('JO', 'Z_DEL'),
        assign('JO', 'Z_PAY'),
        // Valid through the analysis date itself (bounds inclusive), unlimited start.
        assign('KIM', 'Z_POST', { FROM_DAT: '00000000', TO_DAT: '20260630' }),
        assign('KIM', 'Z_PAY', { FROM_DAT: '' }),
      ],
      AGR_1251: [
        ...POST_ROLE,
        ...PAY_ROLE,
        tcode('Z_DEL', 'FB01', '', { DELETED: 'X' }),
        auth('Z_DEL', 'F_BKPF_BUK', 'B1', 'BUKRS', '*'),
        auth('Z_DEL', 'F_BKPF_BUK', 'B1', 'ACTVT', '*'),
      ],
    });
    expect(r.pairs).toEqual(['KIM R1']);
  });

  it('reads prefix and range grants against range requirements in code point order, and ignores disabled actions', async () => {
    const rules = pairRules({
      function_actions: [act('F1', 'FB01'), act('F2', 'F-53'), act('F2', 'F0', '', 'Disabled')],
      function_permissions: [perm('F1', 'FB01', 'F_BKPF_BUK', 'BUKRS', '2000', '2999'), perm('F1', 'FB01', 'F_BKPF_BUK', 'ACTVT', '01')],
    });
    const post = (role: string, low: string, high = '') => [
      tcode(role, 'FB01'),
      auth(role, 'F_BKPF_BUK', 'B', 'BUKRS', low, high),
      auth(role, 'F_BKPF_BUK', 'B', 'ACTVT', '0*'),
    ];
    const r = await analyse(rules, {
      USR02: ['P1', 'P2', 'P3', 'P4', 'P5'].map((u) => user(u)),
      AGR_USERS: [
        ...['P1', 'P2', 'P3', 'P4'].map((u) => assign(u, 'Z_PAY')),
        assign('P1', 'Z_P1'),
        assign('P2', 'Z_P2'),
        assign('P3', 'Z_P3'),
        assign('P4', 'Z_P4'),
        assign('P5', 'Z_P1'),
        assign('P5', 'Z_F0'),
      ],
      AGR_1251: [
        ...PAY_ROLE,
        ...post('Z_P1', '2*'), // a prefix inside the range
        ...post('Z_P2', '1500', '2100'), // an overlapping range
        ...post('Z_P3', '1*'), // a prefix below the range: no
        ...post('Z_P4', '3000'), // an exact value outside: no
        // 'F-53' < 'F0' in code point order: a range F0..FZZZ does not grant F-53, and F0 is disabled.
        tcode('Z_F0', 'F0', 'FZZZ'),
      ],
    });
    expect(r.pairs).toEqual(['P1 R1', 'P2 R1']);
    expect(r.text).toContain('P1 R1 R10001 F1 PRD FB01 Z_P1 - F_BKPF_BUK BUKRS 2*');
  });

  it('finds a Cross risk held on two systems by the same user id, and a Single one only on one system', async () => {
    const crossRules = rules({
      risks: [risk('RX'), risk('RS')],
      functions: [fn('FX1', 'Cross'), fn('FX2'), fn('FS1'), fn('FS2')],
      risk_functions: [rf('RX', 'FX1'), rf('RX', 'FX2'), rf('RS', 'FS1'), rf('RS', 'FS2')],
      function_actions: [act('FX1', 'XK01'), act('FX2', 'F-53'), act('FS1', 'XK01'), act('FS2', 'F-53')],
    });
    const set = await e.ruleSet(crossRules, 'Cross rules');
    await e.extract(
      'ECC',
      estate({
        USR02: [user('MIA')],
        AGR_USERS: [assign('MIA', 'Z_VEND')],
        AGR_1251: [tcode('Z_VEND', 'XK01')],
        USAGE: [{ BNAME: 'MIA', TCODE: 'XK01', COUNT: '3', LAST_USED: '20260601' }],
      }),
    );
    await e.extract(
      'S4',
      estate({
        USR02: [user('MIA')],
        AGR_USERS: [assign('MIA', 'Z_PAY')],
        AGR_1251: [...PAY_ROLE],
        USAGE: [{ BNAME: 'MIA', TCODE: 'F-53', COUNT: '0', LAST_USED: '20260601' }],
      }),
    );
    const r = await e.analyse(set.id, '2026-06-30', ['ECC', 'S4']);
    expect(r.conflicts.map((c) => `${c.userId} ${c.riskId} ${c.exercised}`)).toEqual(['MIA RX false']);
    expect(r.rows.map(rowText)).toEqual(['MIA RX RX0001 FX1 ECC XK01 Z_VEND -', 'MIA RX RX0001 FX2 S4 F-53 Z_PAY -']);
    expect(r.rows.map((x) => x.executionCount)).toEqual([3n, 0n]);
  });
});
