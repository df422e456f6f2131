// The analysis contract, rule by rule, each on a small hand-made estate with
// the case that breaks a naive reading.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, rowText, type Engine } from './helpers.js';
import { PAY_ROLE, POST_ROLE, act, assign, auth, estate, fn, pairRules, perm, risk, rf, rules, tcode, user } from './fixtures.js';

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
});
