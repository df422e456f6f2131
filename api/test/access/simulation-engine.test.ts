// Risk Simulation answered by the engine: when a system's current extract
// holds the user, adding or removing roles shows the conflicts that would
// appear or go, with their paths, exactly as a real run finds them once the
// extract is changed the same way. A user no extract holds is simulated on
// the imported rows, as before (adding a role there is refused).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { PAY_ROLE, POST_ROLE, assign, estate, pairRules, user } from './support/fixtures.js';
import { postZip, settle } from './support/edge.js';
import { analysisStatements } from '../../src/services/access/analysis-sql.js';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
}, 60_000);
afterAll(async () => server?.close());

const SYSTEM = 'SIM-ECC';
/** ALICE can post (Z_POST); BOB can post and pay (R1); C_FIN is a composite holding Z_PAY. */
const tables = (extra: ReturnType<typeof assign>[] = [], without: string[] = []) =>
  estate({
    USR02: [user('ALICE'), user('BOB')],
    AGR_USERS: [assign('ALICE', 'Z_POST'), assign('BOB', 'Z_POST'), assign('BOB', 'Z_PAY'), ...extra].filter(
      (a) => !without.includes(`${a.UNAME}/${a.AGR_NAME}`),
    ),
    AGR_AGRS: [{ AGR_NAME: 'C_FIN', CHILD_AGR: 'Z_PAY' }],
    AGR_1251: [...POST_ROLE, ...PAY_ROLE],
  });

async function load(t: ReturnType<typeof tables>) {
  const x = await postZip(server, admin, `/api/systems/${SYSTEM}/extracts`, t);
  expect((await settle(admin, `/api/systems/${SYSTEM}/extracts/${x.body.id}`)).status).toBe('completed');
}

const simulate = (userId: string, roleScenarios: { roleProfile: string; action: string; system?: string }[]) =>
  admin.post('/api/simulation/run', { userId, riskId: 'R1', roleScenarios });

type Path = Record<string, string>;
const pathText = (p: Path) =>
  [p.riskId, p.ruleId, p.functionId, p.system, p.action, p.role, p.composite || '-', p.resource, p.resourceExtn, p.valueFrom, p.valueTo].join(' ');

describe('Risk Simulation from the engine', () => {
  it('adding and removing roles shows the conflicts that would appear or go, with the paths a real run finds after the same change', async () => {
    expect((await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Simulation SoD' })).status).toBe(201);
    await load(tables());

    // ALICE given the composite C_FIN (Z_PAY inside) would post and pay: R1 appears, through the composite.
    const add = await simulate('ALICE', [{ roleProfile: 'C_FIN', action: 'add' }]);
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(add.body).toMatchObject({
      userId: 'ALICE',
      riskId: 'R1',
      match: false,
      originalCount: 0,
      simulatedCount: 3,
      riskResolved: false,
      neededFunctions: ['F1', 'F2'],
      missingFunctions: [],
    });
    expect(add.body.engine).toMatchObject({ ruleSetName: 'Simulation SoD', ruleSetVersion: 1, systems: [SYSTEM], go: [], remain: [] });
    expect(add.body.engine.appear.map((c: { riskId: string }) => c.riskId)).toEqual(['R1']);
    const simulated = add.body.engine.appear[0].paths.map(pathText);
    expect(simulated).toEqual([
      `R1 R10001 F1 ${SYSTEM} FB01 Z_POST - F_BKPF_BUK ACTVT 01 `,
      `R1 R10001 F1 ${SYSTEM} FB01 Z_POST - F_BKPF_BUK BUKRS 1000 `,
      `R1 R10001 F2 ${SYSTEM} F-53 Z_PAY C_FIN    `,
    ]);
    expect(
      add.body.tableComparison.simulationData.map((i: { roleProfile: string; compositeBusinessRole: string }) => `${i.roleProfile}/${i.compositeBusinessRole}`),
    ).toEqual(['Z_POST/', 'Z_POST/', 'Z_PAY/C_FIN']);

    // BOB without Z_PAY loses R1: it goes, shown with the paths he holds today; nothing appears.
    const remove = await simulate('BOB', [
      { roleProfile: 'Z_PAY', action: 'remove' },
      { roleProfile: 'Z_POST', action: 'retain' },
    ]);
    expect(remove.status, JSON.stringify(remove.body)).toBe(200);
    expect(remove.body).toMatchObject({
      match: false,
      originalCount: 3,
      simulatedCount: 0,
      riskResolved: true,
      missingFunctions: ['F2'],
      removedRoles: ['Z_PAY'],
    });
    expect(remove.body.engine.appear).toEqual([]);
    expect(remove.body.engine.go[0].paths.map((p: Path) => `${p.functionId} ${p.action} ${p.role}`)).toEqual([
      'F1 FB01 Z_POST',
      'F1 FB01 Z_POST',
      'F2 F-53 Z_PAY',
    ]);
    expect(remove.body.tableComparison.originalData.every((i: { removed: boolean }) => i.removed)).toBe(true);

    // Refusals name what is wrong: a role the user is not assigned, a role no extract has, a system not loaded.
    for (const [scenario, message] of [
      [{ roleProfile: 'Z_PAY', action: 'remove' }, 'ALICE is assigned no role Z_PAY'],
      [{ roleProfile: 'Z_NOPE', action: 'add' }, `no role Z_NOPE on ${SYSTEM}`],
      [{ roleProfile: 'Z_PAY', action: 'add', system: 'QAS' }, 'ALICE is not in the loaded extract of QAS'],
    ] as const) {
      const r = await simulate('ALICE', [scenario]);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ field: 'roleScenarios' });
      expect(r.body.message).toContain(message);
    }

    // GraphQL gives the same answer.
    const g = await admin.gql(
      `mutation { runSimulation(userId: "ALICE", riskId: "R1", roleScenarios: [{ roleProfile: "C_FIN", action: ADD }]) {
         __typename ... on MutationRunSimulationSuccess { data { simulatedCount engine { appear { riskId paths { functionId role composite } } go { riskId } } } } } }`,
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.runSimulation.data).toEqual({
      simulatedCount: 3,
      engine: {
        appear: [
          {
            riskId: 'R1',
            paths: [
              { functionId: 'F1', role: 'Z_POST', composite: '' },
              { functionId: 'F1', role: 'Z_POST', composite: '' },
              { functionId: 'F2', role: 'Z_PAY', composite: 'C_FIN' },
            ],
          },
        ],
        go: [],
      },
    });
    // Nothing of the simulations is kept as an analysis run.
    expect(await server.app.deps.prisma.accessAnalysisRun.count()).toBe(0);

    // The extract changed the same way (ALICE given C_FIN, BOB without Z_PAY): a real run finds what was simulated.
    await load(tables([assign('ALICE', 'C_FIN')], ['BOB/Z_PAY']));
    const rules = await admin.get('/api/rule-sets');
    const started = await admin.post('/api/analyses', { ruleSetId: rules.body[0].id });
    const run = await settle(admin, `/api/analyses/${started.body.id}`);
    expect(run).toMatchObject({ status: 'completed', conflicts: 1 });
    const rows = await server.app.deps.prisma.accessConflictRow.findMany({ where: { runId: run.id }, orderBy: { rowNo: 'asc' } });
    expect(
      rows
        .map((r) => ({ ...r, riskId: r.riskId }) as unknown as Path)
        .filter((r) => r.userId === 'ALICE')
        .map(pathText),
    ).toEqual(simulated);
    expect(rows.some((r) => r.userId === 'BOB')).toBe(false);
  });

  it('a user no extract holds is simulated on the imported rows, as before; adding a role there is refused', async () => {
    await seedRows(server.app.deps.prisma, [
      { userId: 'IMPORTED', accessRiskId: 'R9', function: 'AP01', roleProfile: 'Z_AP', compositeBusinessRole: 'C_AP', riskLevel: 'high' },
    ]);
    const r = await admin.post('/api/simulation/run', { userId: 'IMPORTED', riskId: 'R9', roleScenarios: [{ roleProfile: 'C_AP', action: 'remove' }] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ engine: null, originalCount: 1, simulatedCount: 0, riskResolved: true });
    const add = await admin.post('/api/simulation/run', { userId: 'IMPORTED', riskId: 'R9', roleScenarios: [{ roleProfile: 'Z_PAY', action: 'add' }] });
    expect(add.status).toBe(400);
    expect(add.body).toMatchObject({ field: 'roleScenarios', message: expect.stringContaining('Adding a role needs the user’s system data') });
  });

  it('a run on hypothetical assignments stages only their users and the authorizations of their single roles, composites’ included', async () => {
    // CAROL holds Z_OTHER, a role that also grants FB01: the whole estate's grants would be read with it.
    const other = estate({
      USR02: [user('ALICE'), user('CAROL')],
      AGR_USERS: [assign('ALICE', 'Z_POST'), assign('CAROL', 'Z_OTHER')],
      AGR_AGRS: [{ AGR_NAME: 'C_FIN', CHILD_AGR: 'Z_PAY' }],
      AGR_1251: [...POST_ROLE, ...PAY_ROLE, ...POST_ROLE.map((g) => ({ ...g, AGR_NAME: 'Z_OTHER' }))],
    });
    const x = await postZip(server, admin, '/api/systems/SIM-QAS/extracts', other);
    expect((await settle(admin, `/api/systems/SIM-QAS/extracts/${x.body.id}`)).status).toBe('completed');
    const ruleSetId = (await admin.get('/api/rule-sets')).body[0].id as string;
    const prisma = server.app.deps.prisma;
    // ALICE given C_FIN, as a simulation stages her; the run and its tables are rolled back.
    const staged = await prisma
      .$transaction(async (tx) => {
        const run = await tx.accessAnalysisRun.create({
          data: { ruleSetId, systems: ['SIM-QAS'], extractIds: [x.body.id], asOf: new Date('2026-06-30'), test: true, startedBy: 'test' },
        });
        await tx.$executeRawUnsafe(
          `CREATE TEMP TABLE access_t_test_agr_users ON COMMIT DROP AS
           SELECT extract_id, agr_name, uname, from_dat, to_dat, col_flag FROM access_x_agr_users WHERE extract_id = $1::uuid AND uname = 'ALICE'
           UNION ALL SELECT $1::uuid, 'C_FIN', 'ALICE', NULL::date, NULL::date, ''`,
          x.body.id,
        );
        for (const s of analysisStatements({ runId: run.id, ruleSetId, extractIds: [x.body.id], asOf: '2026-06-30', assignments: 'access_t_test_agr_users' }))
          await tx.$executeRawUnsafe(s);
        const users = await tx.$queryRawUnsafe<{ bname: string }[]>('SELECT DISTINCT bname FROM access_t_usr ORDER BY 1');
        const roles = await tx.$queryRawUnsafe<{ role: string }[]>('SELECT DISTINCT role FROM access_t_grants ORDER BY 1');
        const rows = await tx.accessConflictRow.count({ where: { runId: run.id } });
        throw Object.assign(new Error('rolled back'), { staged: { users: users.map((u) => u.bname), roles: roles.map((r) => r.role), rows } });
      })
      .catch((e: { staged?: unknown }) => e.staged);
    expect(staged).toEqual({ users: ['ALICE'], roles: ['Z_PAY', 'Z_POST'], rows: 3 });
  });
});
