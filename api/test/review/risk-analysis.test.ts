// Risk analysis and risk simulation on real rows, over REST and
// GraphQL: the analysis rule (a kept role with a 02NN/03NN rule makes the
// user red; removed counts green; given decisions over saved ones), stored
// and read back per user; a simulation gives MATCH when an unrelated role is
// removed and NO MATCH when the only role granting one side of an SoD
// conflict goes (risk resolved), or a role granting part of one side
// (lower count, risk kept); the role-wide what-if; who may call what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows, type SeedRow } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
let reviewer: Client;

const sod = { accessRiskId: 'R_SOD', riskDescription: 'Create vendor and pay vendor', riskLevel: 'high' } as const;
const ROWS: SeedRow[] = [
  // S1: one side of the conflict (AP01) only through COMP_AP, the other (AP02) only through COMP_PAY.
  { userId: 'S1', userName: 'Sam One', ...sod, function: 'AP01', ruleId: '0301', roleProfile: 'Z_AP', compositeBusinessRole: 'COMP_AP' },
  { userId: 'S1', userName: 'Sam One', ...sod, function: 'AP02', ruleId: '0102', roleProfile: 'Z_PAY', compositeBusinessRole: 'COMP_PAY' },
  { userId: 'S1', userName: 'Sam One', ...sod, function: 'AP02', ruleId: '0102', roleProfile: 'Z_PAY2', compositeBusinessRole: 'COMP_PAY' },
  {
    userId: 'S1',
    userName: 'Sam One',
    accessRiskId: 'R_LOW',
    riskLevel: 'low',
    function: 'GL01',
    ruleId: '0101',
    roleProfile: 'Z_GL',
    compositeBusinessRole: 'COMP_OTHER',
  },
  // S2: both sides also granted directly (no composite role); a 0201 rule on a direct role.
  { userId: 'S2', userName: 'Sue Two', ...sod, function: 'AP01', ruleId: '0301', roleProfile: 'Z_AP', compositeBusinessRole: 'COMP_AP' },
  { userId: 'S2', userName: 'Sue Two', ...sod, function: 'AP01', ruleId: '0201', roleProfile: 'Z_DIRECT', compositeBusinessRole: '' },
  { userId: 'S2', userName: 'Sue Two', ...sod, function: 'AP02', ruleId: '0102', roleProfile: 'Z_PAY', compositeBusinessRole: 'COMP_PAY' },
  { userId: 'S2', userName: 'Sue Two', ...sod, function: 'AP02', ruleId: '0103', roleProfile: 'Z_DIRECT2', compositeBusinessRole: '' },
  // S3: nothing high-risk.
  {
    userId: 'S3',
    userName: 'Sid Three',
    accessRiskId: 'R_LOW',
    riskLevel: 'low',
    function: 'GL01',
    ruleId: '0101',
    roleProfile: 'Z_GL',
    compositeBusinessRole: 'COMP_OTHER',
  },
];

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  reviewer = (await userClient(server, admin)).client;
  await seedRows(server.app.deps.prisma, ROWS);
});
afterAll(async () => server?.close());

const analyse = (c: Client, userId: string, roleDecisions: unknown[] = []) => c.post('/api/risk-analysis/baseline-vs-simulation', { userId, roleDecisions });
const simulate = (body: Record<string, unknown>) => admin.post('/api/simulation/run', body);
const remove = (...roles: string[]) => roles.map((roleProfile) => ({ riskId: 'R_SOD', roleProfile, action: 'remove' }));

describe('risk analysis', () => {
  it('is red while a kept role carries a 02NN/03NN rule, green when that role is set to remove', async () => {
    const before = await analyse(admin, 'S1');
    expect(before.status).toBe(200);
    expect(before.body.analysis).toMatchObject({
      userId: 'S1',
      userStatus: 'red',
      redCount: 1,
      totalRisks: 2,
      riskBreakdown: [
        { riskId: 'R_LOW', status: 'green' },
        { riskId: 'R_SOD', status: 'red' },
      ],
    });
    const after = await analyse(admin, 'S1', [{ userId: 'S1', compositeBusinessRole: 'COMP_AP', decision: 'remove' }]);
    expect(after.body.analysis.userStatus).toBe('green');
    expect(after.body.analysis.redCount).toBe(0);
    // Removing a role without a high-risk rule changes nothing.
    expect((await analyse(admin, 'S1', [{ userId: 'S1', compositeBusinessRole: 'COMP_PAY', decision: 'remove' }])).body.analysis.userStatus).toBe('red');
    expect((await analyse(admin, 'S3')).body.analysis.userStatus).toBe('green');
  });

  it('applies the saved decisions, with the given ones over them', async () => {
    expect((await admin.post('/api/review-periods', { name: 'Analysis period' })).status).toBe(201);
    const saved = await admin.post('/api/reviews/decisions', { decisions: [{ userId: 'S2', compositeBusinessRole: '', decision: 'remove' }] });
    expect(saved.status).toBe(200);
    // The direct 0201 is removed (saved); COMP_AP's 0301 still makes S2 red, until it too is removed.
    expect((await analyse(admin, 'S2')).body.analysis.userStatus).toBe('red');
    expect((await analyse(admin, 'S2', [{ compositeBusinessRole: 'COMP_AP', decision: 'remove' }])).body.analysis.userStatus).toBe('green');
    // A given 'retain' over the saved 'remove' brings the direct 0201 back.
    const back = await analyse(admin, 'S2', [
      { compositeBusinessRole: 'COMP_AP', decision: 'remove' },
      { compositeBusinessRole: '', decision: 'retain' },
    ]);
    expect(back.body.analysis.userStatus).toBe('red');
  });

  it('stores the results and answers the latest per user, keyed by user id', async () => {
    const latest = await admin.get('/api/risk-analysis/latest-results');
    expect(latest.status).toBe(200);
    expect(Object.keys(latest.body).sort()).toEqual(['S1', 'S2', 'S3']);
    expect(latest.body.S2.status).toBe('red');
    // S1's last run removed COMP_PAY only: still red.
    expect(latest.body.S1.status).toBe('red');
    expect(latest.body.S1.riskBreakdown).toHaveLength(2);
    expect(Number.isNaN(Date.parse(latest.body.S1.timestamp))).toBe(false);
    // Another viewer has their own results.
    expect((await reviewer.get('/api/risk-analysis/latest-results')).body).toEqual({});
  });

  it('refuses users outside the viewer’s rows and malformed input', async () => {
    expect((await analyse(reviewer, 'S1')).status).toBe(404);
    expect((await analyse(admin, 'NOBODY')).status).toBe(404);
    expect(
      (await admin.post('/api/risk-analysis/baseline-vs-simulation', { userId: 'S1', roleDecisions: [{ compositeBusinessRole: 'X', decision: 'maybe' }] }))
        .status,
    ).toBe(400);
    expect((await analyse(admin, 'S1', [{ userId: 'S2', compositeBusinessRole: 'COMP_AP', decision: 'remove' }])).status).toBe(400);
  });

  it('answers the same over GraphQL', async () => {
    const run = await admin.gql(
      `mutation($userId: String!, $d: [AnalysisRoleDecisionInput!]) { runRiskAnalysis(userId: $userId, roleDecisions: $d) {
        __typename ... on Error { message } ... on MutationRunRiskAnalysisSuccess { data { userId userStatus redCount totalRisks riskBreakdown { riskId status } } } } }`,
      { userId: 'S1', d: [{ compositeBusinessRole: 'COMP_AP', decision: 'RETAIN' }] },
    );
    expect(run.body.data.runRiskAnalysis.data).toMatchObject({ userId: 'S1', userStatus: 'RED', redCount: 1, totalRisks: 2 });
    const latest = await admin.gql(`{ latestRiskAnalyses(userIds: ["S1"]) { userId userStatus timestamp } }`);
    expect(latest.body.data.latestRiskAnalyses).toEqual([expect.objectContaining({ userId: 'S1', userStatus: 'RED' })]);
    // The composite-role view shows each user's latest analysis (none yet for a user never analysed by this viewer).
    const view = await admin.gql(`{ compositeUsers(first: 10) { edges { node { userId latestAnalysis { userStatus redCount totalRisks } } } } }`);
    const byUser = Object.fromEntries(
      view.body.data.compositeUsers.edges.map((e: { node: { userId: string; latestAnalysis: unknown } }) => [e.node.userId, e.node.latestAnalysis]),
    );
    expect(byUser.S1).toEqual({ userStatus: 'RED', redCount: 1, totalRisks: 2 });
    expect(byUser.S3).toEqual({ userStatus: 'GREEN', redCount: 0, totalRisks: 1 });
    const mine = await reviewer.gql(`{ latestRiskAnalyses { userId } }`);
    expect(mine.body.data.latestRiskAnalyses).toEqual([]);
  });
});

describe('risk simulation', () => {
  it('MATCH when an unrelated role is removed', async () => {
    const r = await simulate({ userId: 'S1', riskId: 'R_SOD', roleScenarios: remove('COMP_OTHER'), compositeRolesOnly: false });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ match: true, originalCount: 3, simulatedCount: 3, riskResolved: false, neededFunctions: ['AP01', 'AP02'] });
    expect(r.body.tableComparison.originalData).toHaveLength(3);
    expect(r.body.tableComparison.simulationData).toHaveLength(3);
  });

  it('NO MATCH, risk resolved, when the only role granting one side of the conflict is removed', async () => {
    const r = await simulate({ userId: 'S1', riskId: 'R_SOD', roleScenarios: remove('COMP_AP'), compositeRolesOnly: false });
    expect(r.body).toMatchObject({ match: false, originalCount: 3, simulatedCount: 0, riskResolved: true, missingFunctions: ['AP01'] });
    expect(r.body.tableComparison.simulationData).toEqual([]);
    expect(r.body.tableComparison.originalData.every((i: { removed: boolean }) => i.removed)).toBe(true);
  });

  it('a retain scenario removes nothing; a side still granted by another role keeps the risk with fewer items', async () => {
    const kept = await simulate({ userId: 'S1', riskId: 'R_SOD', roleScenarios: [{ roleProfile: 'COMP_AP', action: 'retain' }] });
    expect(kept.body).toMatchObject({ match: true, simulatedCount: 3 });
    const r = await simulate({ userId: 'S2', riskId: 'R_SOD', roleScenarios: remove('COMP_PAY') });
    expect(r.body).toMatchObject({ match: false, originalCount: 4, simulatedCount: 3, riskResolved: false, missingFunctions: [] });
    const gone = r.body.tableComparison.originalData.filter((i: { removed: boolean }) => i.removed).map((i: { roleProfile: string }) => i.roleProfile);
    expect(gone).toEqual(['Z_PAY']);
    // A role profile may be named too (not when limited to composite roles).
    expect((await simulate({ userId: 'S1', riskId: 'R_SOD', roleScenarios: remove('Z_AP') })).body).toMatchObject({ match: false, riskResolved: true });
    expect((await simulate({ userId: 'S1', riskId: 'R_SOD', roleScenarios: remove('Z_AP'), compositeRolesOnly: true })).body).toMatchObject({ match: true });
  });

  it('Filter by Composite Roles Only shows the items granted through composite roles', async () => {
    const r = await simulate({ userId: 'S2', riskId: 'R_SOD', roleScenarios: remove('COMP_PAY'), compositeRolesOnly: true });
    expect(r.body).toMatchObject({ match: false, originalCount: 2, simulatedCount: 1, riskResolved: false, compositeRolesOnly: true });
  });

  it('stores the runs with who ran them', async () => {
    const runs = await admin.get('/api/simulation/runs?limit=3');
    expect(runs.status).toBe(200);
    expect(runs.body).toHaveLength(3);
    expect(runs.body[0]).toMatchObject({ userId: 'S2', riskId: 'R_SOD', compositeRolesOnly: true, match: false, scenarioCount: 1 });
    expect(runs.body[0].runBy).not.toBe('Unknown');
  });

  it('answers the validation messages of SPEC §5 and 404 for access that does not exist', async () => {
    const missing = await simulate({ userId: 'S1', riskId: 'R_SOD', roleScenarios: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Please select user, risk, and configure scenarios');
    expect((await simulate({ userId: '', riskId: 'R_SOD', roleScenarios: remove('X') })).body.message).toBe(
      'Please select user, risk, and configure scenarios',
    );
    expect((await simulate({ userId: 'S3', riskId: 'R_SOD', roleScenarios: remove('X') })).status).toBe(404);
    expect((await reviewer.post('/api/simulation/run', { userId: 'S1', riskId: 'R_SOD', roleScenarios: remove('X') })).status).toBe(403);
  });

  it('answers over GraphQL, with the pickers filled from the loaded data', async () => {
    const r = await admin.gql(
      `mutation($s: [SimulationScenarioInput!]!) { runSimulation(userId: "S1", riskId: "R_SOD", roleScenarios: $s) {
        __typename ... on MutationRunSimulationSuccess { data { match originalCount simulatedCount riskResolved tableComparison { originalData { roleProfile removed } simulationData { rowId } } } } } }`,
      { s: remove('COMP_AP').map((s) => ({ ...s, action: 'REMOVE' })) },
    );
    expect(r.body.data.runSimulation.data).toMatchObject({ match: false, originalCount: 3, simulatedCount: 0, riskResolved: true });
    const pick = await admin.gql(`{
      users: compositeUsers(first: 5, search: "su") { edges { node { userId userName } } }
      risks: simulationRisks(userId: "S1", search: "vendor") { value label }
      roles: simulationRoles(userId: "S2") { value }
      composite: simulationRoles(userId: "S2", compositeRolesOnly: true) { value }
      names: compositeRoleNames(search: "comp_") { value }
    }`);
    expect(pick.body.data.users.edges.map((e: { node: { userId: string } }) => e.node.userId)).toEqual(['S2']);
    expect(pick.body.data.risks).toEqual([{ value: 'R_SOD', label: 'Create vendor and pay vendor' }]);
    expect(pick.body.data.roles.map((o: { value: string }) => o.value)).toEqual(['COMP_AP', 'COMP_PAY', 'Z_AP', 'Z_DIRECT', 'Z_DIRECT2', 'Z_PAY']);
    expect(pick.body.data.composite.map((o: { value: string }) => o.value)).toEqual(['COMP_AP', 'COMP_PAY']);
    expect(pick.body.data.names.map((o: { value: string }) => o.value)).toEqual(['COMP_AP', 'COMP_OTHER', 'COMP_PAY']);
  });
});

describe('role-wide what-if', () => {
  it('counts the users losing risks and those turning green, in REST and GraphQL', async () => {
    const r = await admin.get('/api/simulation/role-what-if?compositeBusinessRole=COMP_AP');
    expect(r.status).toBe(200);
    // S1 loses R_SOD (AP01 only through COMP_AP) and turns green; S2 keeps it (AP01 direct) and stays red (0201).
    expect(r.body).toMatchObject({ compositeBusinessRole: 'COMP_AP', usersAffected: 2, risksLost: 1, usersLosingRisks: 1, usersTurningGreen: 1 });
    expect(r.body.users).toEqual([
      { userId: 'S1', userName: 'Sam One', risksHeld: 2, risksLost: 1, redBefore: true, redAfter: false },
      { userId: 'S2', userName: 'Sue Two', risksHeld: 1, risksLost: 0, redBefore: true, redAfter: true },
    ]);
    const other = await admin.gql(
      `{ roleWhatIf(compositeBusinessRole: "COMP_OTHER") { usersAffected risksLost usersTurningGreen users { userId risksLost } } }`,
    );
    expect(other.body.data.roleWhatIf).toEqual({
      usersAffected: 2,
      risksLost: 2,
      usersTurningGreen: 0,
      users: [
        { userId: 'S1', risksLost: 1 },
        { userId: 'S3', risksLost: 1 },
      ],
    });
    expect((await admin.get('/api/simulation/role-what-if?compositeBusinessRole=')).status).toBe(400);
  });
});
