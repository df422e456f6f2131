// Bad rule sets and extracts over REST, as a tool posts them: a rule set is
// refused with 400 before anything is stored; an extract with 400 when it can
// be told at once (a table or column missing), else it ends 'failed' naming
// the table, line (the header is line 1) and column, and no run uses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { PAY_ROLE, POST_ROLE, act, assign, estate, fn, pairRules, perm, risk, rf, tcode, user } from './support/fixtures.js';
import { postZip, settle } from './support/edge.js';
import type { Row } from '../../../scripts/access-estate.js';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
}, 60_000);
afterAll(async () => server?.close());

const GOOD = { USR02: [user('ALICE')], AGR_USERS: [assign('ALICE', 'Z_POST'), assign('ALICE', 'Z_PAY')], AGR_1251: [...POST_ROLE, ...PAY_ROLE] };

describe('a rule set is refused with 400, naming file, line and column, and nothing is stored', () => {
  const without = (file: string) => Object.fromEntries(Object.entries(pairRules()).filter(([f]) => f !== file));
  it.each<[string, Record<string, Row[] | string>, string]>([
    ['a missing file', without('functions'), "The rule set has no file 'functions'"],
    [
      'a missing column',
      { ...pairRules(), functions: 'Function ID,Function Description\r\nF1,Post\r\nF2,Pay\r\n' },
      "functions.csv, line 1: the column 'Analysis Scope' is missing",
    ],
    [
      'an unknown function in risk_functions',
      pairRules({ risk_functions: [rf('R1', 'F1'), rf('R1', 'F2'), rf('R1', 'F7')] }),
      "risk_functions.csv, line 4, column 'Function ID': the function 'F7' is not in functions.csv.",
    ],
    [
      'a risk with no function',
      pairRules({ risks: [risk('R1'), risk('R2')] }),
      "risks.csv, line 3, column 'Access Risk ID': the risk 'R2' has no function in risk_functions.csv.",
    ],
    [
      'two risks with one Access Risk ID',
      pairRules({ risks: [risk('R1'), risk('R1', 'A')] }),
      "risks.csv, line 3, column 'Access Risk ID': a duplicate of line 2 (R1).",
    ],
    [
      'a function twice',
      pairRules({ functions: [fn('F1'), fn('F2'), fn('F2', 'Cross')] }),
      "functions.csv, line 4, column 'Function ID': a duplicate of line 3 (F2).",
    ],
    [
      'a duplicate risk_functions pair',
      pairRules({ risk_functions: [rf('R1', 'F1'), rf('R1', 'F2'), rf('R1', 'F1')] }),
      "risk_functions.csv, line 4, column 'Function ID': a duplicate of line 2 (R1 / F1).",
    ],
    [
      'an action twice in a function',
      pairRules({ function_actions: [act('F1', 'FB01'), act('F2', 'F-53'), act('F1', 'FB01')] }),
      "function_actions.csv, line 4, column 'Action': a duplicate of line 2 (F1 / FB01).",
    ],
    [
      'a permission row twice',
      pairRules({ function_permissions: [perm('F1', 'FB01', 'F_BKPF_BUK', 'BUKRS', '1000'), perm('F1', 'FB01', 'F_BKPF_BUK', 'BUKRS', '1000')] }),
      "function_permissions.csv, line 3, column 'Value From': a duplicate of line 2",
    ],
    [
      'a bad Risk Level',
      pairRules({ risks: [{ ...risk('R1'), 'Risk Level': 'Severe' }] }),
      "risks.csv, line 2, column 'Risk Level': 'Severe' is not one of Critical, High, Medium, Low.",
    ],
    ['a bad Risk Type', pairRules({ risks: [risk('R1', 'X')] }), "risks.csv, line 2, column 'Risk Type': 'X' is not one of S, A, P."],
    ['a bad risk Status', pairRules({ risks: [risk('R1', 'S', 'On')] }), "risks.csv, line 2, column 'Status': 'On' is not one of Enabled, Disabled."],
    [
      'a bad action Status',
      pairRules({ function_actions: [act('F1', 'FB01'), act('F2', 'F-53', '', 'Maybe')] }),
      "function_actions.csv, line 3, column 'Status': 'Maybe' is not one of Enabled, Disabled.",
    ],
    [
      'a bad Analysis Scope',
      pairRules({ functions: [fn('F1'), fn('F2', 'Global')] }),
      "functions.csv, line 3, column 'Analysis Scope': 'Global' is not one of Single, Cross.",
    ],
  ])('%s', async (_what, files, message) => {
    const before = (await admin.get('/api/rule-sets')).body.length;
    const r = await postZip(server, admin, '/api/rule-sets', files, { name: 'Refused' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'file' });
    expect(r.body.message).toContain(message);
    expect((await admin.get('/api/rule-sets')).body.length).toBe(before);
  });
});

describe('an extract', () => {
  it.each<[string, Record<string, Row[] | string>, string]>([
    ['a missing table', { USR02: GOOD.USR02, AGR_USERS: GOOD.AGR_USERS, AGR_AGRS: [] }, 'The extract has no AGR_1251'],
    ['a missing column', { ...estate(GOOD), USR02: 'MANDT,BNAME,CLASS\r\n100,ALICE,FIN\r\n' }, "USR02.csv, line 1: the column 'UFLAG' is missing"],
    [
      'a missing column of an optional table',
      { ...estate(GOOD), USAGE: 'BNAME,TCODE,LAST_USED\r\nALICE,FB01,20260601\r\n' },
      "USAGE.csv, line 1: the column 'COUNT' is missing",
    ],
  ])('with %s is refused at once with 400', async (_what, tables, message) => {
    const r = await postZip(server, admin, '/api/systems/NOW/extracts', tables);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'file' });
    expect(r.body.message).toContain(message);
    expect(await server.app.deps.prisma.accessExtract.count({ where: { system: 'NOW' } })).toBe(0);
  });

  let ruleSetId: string;
  beforeAll(async () => {
    ruleSetId = (await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Good' })).body.id;
    const x = await postZip(server, admin, '/api/systems/PRD/extracts', estate(GOOD));
    expect((await settle(admin, `/api/systems/PRD/extracts/${x.body.id}`)).status).toBe('completed');
  });

  it.each<[string, Record<string, Row[]>, string]>([
    ['a non-date GLTGV', { USR02: [user('ALICE'), user('BOB', { GLTGV: '2026-13-01' })] }, "USR02.csv, line 3, column 'GLTGV': '2026-13-01' is not a date"],
    ['a non-date GLTGB', { USR02: [user('ALICE', { GLTGB: 'never' })] }, "USR02.csv, line 2, column 'GLTGB': 'never' is not a date"],
    [
      'a non-date FROM_DAT',
      { AGR_USERS: [...GOOD.AGR_USERS, assign('ALICE', 'Z_X', { FROM_DAT: '20260230' })] },
      "AGR_USERS.csv, line 4, column 'FROM_DAT': '20260230' is not a date",
    ],
    [
      'a non-date TO_DAT',
      { AGR_USERS: [assign('ALICE', 'Z_POST', { TO_DAT: '9999' }), GOOD.AGR_USERS[1]!] },
      "AGR_USERS.csv, line 2, column 'TO_DAT': '9999' is not a date",
    ],
    [
      'a non-date LAST_USED',
      { USAGE: [{ BNAME: 'ALICE', TCODE: 'FB01', COUNT: '1', LAST_USED: 'yesterday' }] },
      "USAGE.csv, line 2, column 'LAST_USED': 'yesterday' is not a date",
    ],
    [
      'a non-number COUNT',
      {
        USAGE: [
          { BNAME: 'ALICE', TCODE: 'FB01', COUNT: '1', LAST_USED: '' },
          { BNAME: 'ALICE', TCODE: 'F-53', COUNT: '2.5', LAST_USED: '' },
        ],
      },
      "USAGE.csv, line 3, column 'COUNT': '2.5' is not a whole number.",
    ],
    [
      'a user twice in USR02',
      { USR02: [user('ALICE'), user('BOB'), user('ALICE', { CLASS: 'HR' })] },
      "USR02.csv, line 4, column 'BNAME': the user 'ALICE' is already on line 2.",
    ],
  ])('with %s ends failed, naming table, line and column, with none of its rows kept', async (_what, change, message) => {
    // Were this extract used, BOB would hold R1 too.
    const bad = { ...GOOD, AGR_USERS: [...GOOD.AGR_USERS, assign('BOB', 'Z_POST'), assign('BOB', 'Z_PAY')], ...change };
    const x = await postZip(server, admin, '/api/systems/PRD/extracts', estate(bad));
    expect(x.status).toBe(202);
    const done = await settle(admin, `/api/systems/PRD/extracts/${x.body.id}`);
    expect(done).toMatchObject({ status: 'failed', users: 0, assignments: 0 });
    expect(done.errorMessage).toContain(message);
    const rows = (await server.app.deps.db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM access_x_usr02 WHERE extract_id = $1', [x.body.id]))[0]!.n;
    expect(rows).toBe(0);
  });

  it('that failed is used by no run: the system is analysed on its last completed extract', async () => {
    // Each failed extract above would have given BOB R1 too.
    const run = await admin.post('/api/analyses', { ruleSetId, asOf: '2026-06-30', systems: ['PRD'] });
    expect(await settle(admin, `/api/analyses/${run.body.id}`)).toMatchObject({ status: 'completed', conflicts: 1, users: 1 });
  });

  it('with the same AGR_1251 row twice loads: the authorization counts once', async () => {
    const x = await postZip(server, admin, '/api/systems/DUP/extracts', estate({ ...GOOD, AGR_1251: [...POST_ROLE, ...PAY_ROLE, tcode('Z_PAY', 'F-53')] }));
    expect(await settle(admin, `/api/systems/DUP/extracts/${x.body.id}`)).toMatchObject({
      status: 'completed',
      errorMessage: null,
      users: 1,
      authorizations: 3,
    });
  });
});
