// The composite-role risk view over GraphQL: users, their risk groups and the
// composite roles under them, grouped and counted in SQL; Authorization
// Details capped; the reviewer visibility rule at every level (also when a
// level is asked for by id); decisions per user and composite role through the
// one decision path, shown back, and refused while no period is active.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows, type SeedRow } from '../helpers/seed.js';
import { NO_ACTIVE_PERIOD } from '../../src/services/review/periods.js';

let server: TestServer;
let admin: Client;
let a: Awaited<ReturnType<typeof userClient>>;
let b: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];

const BIG = 250;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  b = await userClient(server, admin);
  const sap = { system: 'SAP ERP', businessProcess: 'FI', businessProcessDescription: 'Finance' };
  rows = await seedRows(server.app.deps.prisma, [
    // U1: risk R01 under COMP_FIN (two rows) and a direct role; risk R02 (low) under COMP_FIN and COMP_OTHER.
    {
      userId: 'U1',
      userName: 'Alice Jones',
      userGroup: 'FIN',
      accessRiskId: 'R01',
      riskDescription: 'Vendor and payment',
      riskLevel: 'high',
      ruleId: '0301',
      roleProfile: 'Z_AP_CLERK',
      compositeBusinessRole: 'COMP_FIN',
      compositeRoleDescription: 'Finance composite',
      function: 'AP01',
      functionDescription: 'AP Payments',
      resource: 'S_TCODE',
      resourceDescription: 'Transaction Code Check',
      resourceExtn: 'TCD',
      resourceExtnDesc: 'Transaction code',
      action: 'FB60',
      valueFrom: 'FB60',
      valueTo: 'FB65',
      ...sap,
    },
    {
      userId: 'U1',
      userName: 'Alice Jones',
      userGroup: 'FIN',
      accessRiskId: 'R01',
      riskDescription: 'Vendor and payment',
      riskLevel: 'high',
      ruleId: '0102',
      roleProfile: 'Z_VENDOR_MAINT',
      compositeBusinessRole: 'COMP_FIN',
      compositeRoleDescription: 'Finance composite',
      function: 'VM01',
      functionDescription: 'Vendor Master Maintenance',
      resource: 'F_LFA1_BUK',
      action: 'XK01',
      actionDescription: 'Create Vendor',
      valueFrom: '1000',
      ...sap,
    },
    {
      userId: 'U1',
      userName: 'Alice Jones',
      userGroup: 'FIN',
      accessRiskId: 'R01',
      riskDescription: 'Vendor and payment',
      riskLevel: 'high',
      ruleId: '0105',
      roleProfile: 'Z_GL',
      roleProfileDescription: 'General ledger',
      compositeBusinessRole: '',
      ...sap,
    },
    {
      userId: 'U1',
      userName: 'Alice Jones',
      userGroup: 'FIN',
      accessRiskId: 'R02',
      riskDescription: 'Low thing',
      riskLevel: 'low',
      ruleId: '0101',
      roleProfile: 'Z_AP_CLERK',
      compositeBusinessRole: 'COMP_FIN',
      ...sap,
    },
    {
      userId: 'U1',
      userName: 'Alice Jones',
      userGroup: 'FIN',
      accessRiskId: 'R02',
      riskDescription: 'Low thing',
      riskLevel: 'low',
      ruleId: '0110',
      roleProfile: 'Z_OTHER',
      compositeBusinessRole: 'COMP_OTHER',
      ...sap,
    },
    // U2 on Workday (reviewer B's), U3 in IT (nobody's).
    {
      userId: 'U2',
      userName: 'Bob Smith',
      userGroup: 'HR',
      accessRiskId: 'R03',
      riskLevel: 'medium',
      ruleId: '0140',
      system: 'Workday',
      roleProfile: 'HR_ADMIN',
      compositeBusinessRole: 'COMP_HR',
    },
    {
      userId: 'U3',
      userName: 'Carol White',
      userGroup: 'IT',
      accessRiskId: 'R04',
      riskLevel: 'low',
      ruleId: '0188',
      system: 'Active Directory',
      roleProfile: 'DOMAIN_ADMIN',
      compositeBusinessRole: 'COMP:IT/Ädmin',
    },
    // U4: one big role.
    ...Array.from({ length: BIG }, (_, i): SeedRow => ({
      userId: 'U4',
      userName: 'Dan Big',
      accessRiskId: 'R05',
      riskLevel: 'low',
      ruleId: '0150',
      roleProfile: `P${i}`,
      compositeBusinessRole: 'COMP_BIG',
      valueFrom: String(i),
    })),
  ]);
  await server.app.deps.prisma.assignmentCriteria.createMany({
    data: [
      { name: 'USER ID: U1', reviewerId: a.user.id, criteriaType: 'user_id', criteriaValue: 'U1' },
      { name: 'SYSTEM: Workday', reviewerId: b.user.id, criteriaType: 'system', criteriaValue: 'Workday' },
    ],
  });
});
afterAll(async () => server?.close());

const gid = (type: string, ...key: string[]) => Buffer.from(`${type}:${key.length === 1 ? key[0] : JSON.stringify(key)}`).toString('base64');

const USERS = `query($first: Int, $after: String, $search: String) {
  compositeUsers(first: $first, after: $after, search: $search) {
    edges { cursor node { id userId userName userGroup totalRisks highRisks decidedRisks allDecided } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const ROLE_FIELDS = `id userId accessRiskId compositeBusinessRole isDirect name description roleProfiles isHigh conflictCount decidedCount allDecided decision
  ruleIds { ruleId isHighRisk } functions { function description }`;

// Page sizes as variables: the cost limit multiplies the sizes written into a query.
const GROUPS = `query($userId: String!, $n: Int) {
  compositeUser(userId: $userId) {
    id userId totalRisks decidedRisks allDecided
    riskGroups(first: $n) {
      edges { node { id accessRiskId riskDescription riskLevel isRisk totalRisks decidedRisks allDecided
        roles(first: $n) { edges { node { ${ROLE_FIELDS} } } } } }
    }
  }
}`;

const SAVE = `mutation($decisions: [CompositeRoleDecisionInput!]!) {
  saveCompositeRoleDecisions(decisions: $decisions) {
    __typename
    ... on Error { message }
    ... on MutationSaveCompositeRoleDecisionsSuccess { data {
      saved
      users { id userId decidedRisks allDecided }
      riskGroups { id accessRiskId decidedRisks allDecided }
      roles { id accessRiskId compositeBusinessRole decision decidedCount allDecided }
    } }
  }
}`;

async function users(c: Client, vars: Record<string, unknown> = {}) {
  const r = await c.gql(USERS, { first: 50, ...vars });
  expect(r.body.errors).toBeUndefined();
  return r.body.data.compositeUsers;
}

async function user(c: Client, userId: string) {
  const r = await c.gql(GROUPS, { userId, n: 50 });
  expect(r.body.errors).toBeUndefined();
  return r.body.data.compositeUser;
}

const groupsOf = (u: any) => u.riskGroups.edges.map((e: any) => e.node);
const rolesOf = (g: any) => g.roles.edges.map((e: any) => e.node);
const save = (c: Client, decisions: unknown[]) => c.gql(SAVE, { decisions });

describe('grouping', () => {
  it('lists the users with their totals, high risks (medium counts as high) and status, paged by user id', async () => {
    const all = await users(admin);
    expect(all.edges.map((e: any) => e.node)).toEqual([
      {
        id: gid('CompositeUser', 'U1'),
        userId: 'U1',
        userName: 'Alice Jones',
        userGroup: 'FIN',
        totalRisks: 5,
        highRisks: 3,
        decidedRisks: 0,
        allDecided: false,
      },
      expect.objectContaining({ userId: 'U2', userName: 'Bob Smith', totalRisks: 1, highRisks: 1 }),
      expect.objectContaining({ userId: 'U3', totalRisks: 1, highRisks: 0 }),
      expect.objectContaining({ userId: 'U4', userName: 'Dan Big', totalRisks: BIG, highRisks: 0 }),
    ]);
    expect(all.pageInfo.hasNextPage).toBe(false);

    const first = await users(admin, { first: 3 });
    expect(first.edges.map((e: any) => e.node.userId)).toEqual(['U1', 'U2', 'U3']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = await users(admin, { first: 3, after: first.pageInfo.endCursor });
    expect(next.edges.map((e: any) => e.node.userId)).toEqual(['U4']);
    expect(next.pageInfo.hasNextPage).toBe(false);

    const last = await admin.gql(`{ compositeUsers(last: 2) { edges { node { userId } } pageInfo { hasPreviousPage } } }`);
    expect(last.body.data.compositeUsers.edges.map((e: any) => e.node.userId)).toEqual(['U3', 'U4']);
    expect(last.body.data.compositeUsers.pageInfo.hasPreviousPage).toBe(true);
    const lastFound = await admin.gql(`{ compositeUsers(last: 1, search: "u") { edges { node { userId } } } }`);
    expect(lastFound.body.data.compositeUsers.edges.map((e: any) => e.node.userId)).toEqual(['U4']);

    expect((await users(admin, { search: 'alice' })).edges.map((e: any) => e.node.userId)).toEqual(['U1']);
    expect((await users(admin, { search: 'u3' })).edges.map((e: any) => e.node.userId)).toEqual(['U3']);
    expect((await users(admin, { search: '100%' })).edges).toEqual([]);
    const bad = await admin.gql(USERS, { first: 2, after: 'not-a-cursor' });
    expect(bad.body.errors[0].message).toBe('Invalid cursor');
  });

  it('groups a user’s rows per access risk (RISK for high/medium, NO RISK for low) and per composite role', async () => {
    const u1 = await user(admin, 'U1');
    const groups = groupsOf(u1);
    expect(groups.map((g: any) => [g.accessRiskId, g.riskDescription, g.riskLevel, g.isRisk, g.totalRisks, g.allDecided])).toEqual([
      ['R01', 'Vendor and payment', 'HIGH', true, 3, false],
      ['R02', 'Low thing', 'LOW', false, 2, false],
    ]);
    const r01 = rolesOf(groups[0]);
    expect(r01).toEqual([
      expect.objectContaining({
        compositeBusinessRole: '',
        isDirect: true,
        name: 'Z_GL',
        description: 'General ledger',
        roleProfiles: ['Z_GL'],
        conflictCount: 1,
        isHigh: true,
        decision: null,
      }),
      expect.objectContaining({
        compositeBusinessRole: 'COMP_FIN',
        isDirect: false,
        name: 'COMP_FIN',
        description: 'Finance composite',
        roleProfiles: ['Z_AP_CLERK', 'Z_VENDOR_MAINT'],
        conflictCount: 2,
        decidedCount: 0,
        allDecided: false,
        isHigh: true,
        decision: null,
        ruleIds: [
          { ruleId: '0102', isHighRisk: false },
          { ruleId: '0301', isHighRisk: true },
        ],
        functions: [
          { function: 'AP01', description: 'AP Payments' },
          { function: 'VM01', description: 'Vendor Master Maintenance' },
        ],
      }),
    ]);
    expect(r01[1].id).toBe(gid('CompositeRole', 'U1', 'R01', 'COMP_FIN'));
    // Low level and rules 01NN: no HIGH badge.
    expect(rolesOf(groups[1]).map((r: any) => [r.compositeBusinessRole, r.isHigh, r.conflictCount])).toEqual([
      ['COMP_FIN', false, 1],
      ['COMP_OTHER', false, 1],
    ]);
  });

  it('counts a user’s risk groups and a group’s roles over every page (totalCount), as the viewer may see them', async () => {
    const Q = `query($after: String) { compositeUsers(first: 10) { edges { node { userId
      riskGroups(first: 1) { totalCount pageInfo { hasNextPage } edges { node { accessRiskId roles(first: 1, after: $after) { totalCount edges { node { compositeBusinessRole } } } } } } } } } }`;
    const page = async (c: Client, after?: string) => {
      const r = await c.gql(Q, { after });
      expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
      return Object.fromEntries(r.body.data.compositeUsers.edges.map((e: any) => [e.node.userId, e.node.riskGroups]));
    };
    const all = await page(admin);
    // U1: R01 and R02 (one a page, still counted in full); R01 under a direct role and COMP_FIN.
    expect(all.U1.totalCount).toBe(2);
    expect(all.U1.pageInfo.hasNextPage).toBe(true);
    expect(all.U1.edges[0].node.roles.totalCount).toBe(2);
    expect(all.U1.edges[0].node.roles.edges).toHaveLength(1);
    expect(all.U4.totalCount).toBe(1);
    expect(all.U4.edges[0].node.roles.totalCount).toBe(1);
    // The count is the page's parent's, whatever the cursor.
    expect((await page(admin, Buffer.from('Key:').toString('base64'))).U1.edges[0].node.roles.totalCount).toBe(2);
    // A reviewer counts only their own rows' groups.
    expect(Object.keys(await page(b.client))).toEqual(['U2']);
    expect((await page(b.client)).U2.totalCount).toBe(1);
  });

  it('gives a role’s Authorization Details (Resource as Auth Object, Resource Extn or else Action as Field), capped with the total', async () => {
    const q = `query($id: ID!, $first: Int) { node(id: $id) { ... on CompositeRole { name authorizationDetailCount authorizationDetails(first: $first) {
      authObject authObjectDescription field fieldDescription valueFrom valueTo system businessProcess roleProfile ruleId function riskRowId } } } }`;
    const r = await admin.gql(q, { id: gid('CompositeRole', 'U1', 'R01', 'COMP_FIN') });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.node.authorizationDetailCount).toBe(2);
    expect(r.body.data.node.authorizationDetails).toEqual([
      {
        authObject: 'S_TCODE',
        authObjectDescription: 'Transaction Code Check',
        field: 'TCD',
        fieldDescription: 'Transaction code',
        valueFrom: 'FB60',
        valueTo: 'FB65',
        system: 'SAP ERP',
        businessProcess: 'FI',
        roleProfile: 'Z_AP_CLERK',
        ruleId: '0301',
        function: 'AP01',
        riskRowId: gid('RiskRow', String(rows[0])),
      },
      {
        authObject: 'F_LFA1_BUK',
        authObjectDescription: '',
        field: 'XK01',
        fieldDescription: 'Create Vendor',
        valueFrom: '1000',
        valueTo: '',
        system: 'SAP ERP',
        businessProcess: 'FI',
        roleProfile: 'Z_VENDOR_MAINT',
        ruleId: '0102',
        function: 'VM01',
        riskRowId: gid('RiskRow', String(rows[1])),
      },
    ]);
    const big = gid('CompositeRole', 'U4', 'R05', 'COMP_BIG');
    const capped = (await admin.gql(q, { id: big })).body.data.node;
    expect(capped.authorizationDetailCount).toBe(BIG);
    expect(capped.authorizationDetails).toHaveLength(200);
    expect(capped.authorizationDetails[0].valueFrom).toBe('0');
    expect((await admin.gql(q, { id: big, first: 5 })).body.data.node.authorizationDetails).toHaveLength(5);
    expect((await admin.gql(q, { id: big, first: 100_000 })).body.data.node.authorizationDetails).toHaveLength(BIG);
    const roles = (
      await admin.gql(
        `{ node(id: "${gid('CompositeRiskGroup', 'U4', 'R05')}") { ... on CompositeRiskGroup { totalRisks roles { edges { node { conflictCount roleProfiles } } } } } }`,
      )
    ).body.data.node;
    expect(roles.totalRisks).toBe(BIG);
    expect(roles.roles.edges[0].node.conflictCount).toBe(BIG);
    expect(roles.roles.edges[0].node.roleProfiles).toHaveLength(100);
    // Keys with colons and accents survive the global id.
    const odd = await admin.gql(`query($id: ID!) { node(id: $id) { id ... on CompositeRole { compositeBusinessRole conflictCount } } }`, {
      id: gid('CompositeRole', 'U3', 'R04', 'COMP:IT/Ädmin'),
    });
    expect(odd.body.data.node).toMatchObject({ compositeBusinessRole: 'COMP:IT/Ädmin', conflictCount: 1 });
  });
});

describe('visibility', () => {
  it('a reviewer sees only the users of their assigned rows, at every level and by id', async () => {
    expect((await users(a.client)).edges.map((e: any) => e.node.userId)).toEqual(['U1']);
    expect((await users(b.client)).edges.map((e: any) => e.node.userId)).toEqual(['U2']);
    expect((await users(b.client, { search: 'alice' })).edges).toEqual([]);
    expect(groupsOf(await user(a.client, 'U1')).map((g: any) => g.totalRisks)).toEqual([3, 2]);

    // Asking for another reviewer's user, group or role by id gives nothing.
    expect(await user(a.client, 'U2')).toBeNull();
    expect(await user(b.client, 'U1')).toBeNull();
    const byId = await b.client.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, {
      ids: [gid('CompositeUser', 'U1'), gid('CompositeRiskGroup', 'U1', 'R01'), gid('CompositeRole', 'U1', 'R01', 'COMP_FIN')],
    });
    expect(byId.body.data.nodes).toEqual([null, null, null]);
    const own = await b.client.gql(`query($id: ID!) { node(id: $id) { ... on CompositeRiskGroup { accessRiskId totalRisks } } }`, {
      id: gid('CompositeRiskGroup', 'U2', 'R03'),
    });
    expect(own.body.data.node).toEqual({ accessRiskId: 'R03', totalRisks: 1 });
    // Nor is anything there for nobody's user.
    expect(await user(a.client, 'U3')).toBeNull();
    // Signed out: no view at all.
    const anon = await new Client(server.url).gql('{ compositeUsers(first: 1) { edges { cursor } } }');
    expect(anon.body.data ?? null).toBeNull();
  });
});

describe('decisions', () => {
  it('are refused while no review period is active', async () => {
    const r = await save(admin, [{ userId: 'U1', compositeBusinessRole: 'COMP_FIN', decision: 'REMOVE' }]);
    expect(r.body.data.saveCompositeRoleDecisions).toEqual({ __typename: 'BaseError', message: NO_ACTIVE_PERIOD });
    expect(await server.app.deps.prisma.decision.count()).toBe(0);
  });

  it('are saved per user and composite role on every row under it, and shown back at every level', async () => {
    expect((await admin.post('/api/review-periods', { name: 'Composite view period' })).status).toBe(201);
    const r = await save(admin, [{ userId: 'U1', compositeBusinessRole: 'COMP_FIN', decision: 'REMOVE' }]);
    const res = r.body.data.saveCompositeRoleDecisions;
    expect(res.__typename).toBe('MutationSaveCompositeRoleDecisionsSuccess');
    // COMP_FIN holds two rows of R01 and one of R02.
    expect(res.data.saved).toBe(3);
    expect(res.data.users).toEqual([{ id: gid('CompositeUser', 'U1'), userId: 'U1', decidedRisks: 3, allDecided: false }]);
    expect(res.data.riskGroups).toEqual([
      { id: gid('CompositeRiskGroup', 'U1', 'R01'), accessRiskId: 'R01', decidedRisks: 2, allDecided: false },
      { id: gid('CompositeRiskGroup', 'U1', 'R02'), accessRiskId: 'R02', decidedRisks: 1, allDecided: false },
    ]);
    expect(res.data.roles).toEqual([
      {
        id: gid('CompositeRole', 'U1', 'R01', 'COMP_FIN'),
        accessRiskId: 'R01',
        compositeBusinessRole: 'COMP_FIN',
        decision: 'REMOVE',
        decidedCount: 2,
        allDecided: true,
      },
      {
        id: gid('CompositeRole', 'U1', 'R02', 'COMP_FIN'),
        accessRiskId: 'R02',
        compositeBusinessRole: 'COMP_FIN',
        decision: 'REMOVE',
        decidedCount: 1,
        allDecided: true,
      },
    ]);

    // Recorded per risk row, for this reviewer, as a composite-role decision.
    const prisma = server.app.deps.prisma;
    const saved = await prisma.decision.findMany({ where: { riskRowId: { in: [rows[0]!, rows[1]!, rows[3]!] } } });
    expect(saved).toHaveLength(3);
    const adminUser = await prisma.user.findUniqueOrThrow({ where: { email: 'admin@example.com' } });
    expect(saved.every((d) => d.decision === 'remove' && d.viaCompositeRole && d.reviewerId === adminUser.id)).toBe(true);
    const queue = (await admin.get('/api/risks?compositeRole=COMP_FIN&limit=10')).body;
    expect(queue.risks.map((x: any) => x.decision)).toEqual(['remove', 'remove', 'remove']);

    // A batch of pending changes in one call: the direct roles and COMP_OTHER; the user turns green.
    const batch = await save(admin, [
      { userId: 'U1', compositeBusinessRole: '', decision: 'RETAIN' },
      { userId: 'U1', compositeBusinessRole: 'COMP_OTHER', decision: 'RETAIN' },
    ]);
    expect(batch.body.data.saveCompositeRoleDecisions.data.saved).toBe(2);
    const u1 = await user(admin, 'U1');
    expect(u1).toMatchObject({ totalRisks: 5, decidedRisks: 5, allDecided: true });
    const groups = groupsOf(u1);
    expect(groups.map((g: any) => g.allDecided)).toEqual([true, true]);
    expect(rolesOf(groups[0]).map((x: any) => [x.name, x.decision, x.allDecided])).toEqual([
      ['Z_GL', 'RETAIN', true],
      ['COMP_FIN', 'REMOVE', true],
    ]);
    expect((await users(admin)).edges.map((e: any) => e.node.allDecided)).toEqual([true, false, false, false]);
  });

  it('are each viewer’s own: a reviewer’s decision does not show as the administrator’s, and a mixed role shows no single decision', async () => {
    const r = await save(a.client, [{ userId: 'U1', compositeBusinessRole: 'COMP_FIN', decision: 'RETAIN' }]);
    expect(r.body.data.saveCompositeRoleDecisions.data.roles.map((x: any) => x.decision)).toEqual(['RETAIN', 'RETAIN']);
    const mine = rolesOf(groupsOf(await user(a.client, 'U1'))[0]);
    expect(mine.find((x: any) => x.name === 'COMP_FIN').decision).toBe('RETAIN');
    expect(mine.find((x: any) => x.name === 'Z_GL')).toMatchObject({ decision: null, allDecided: false });
    const admins = rolesOf(groupsOf(await user(admin, 'U1'))[0]);
    expect(admins.find((x: any) => x.name === 'COMP_FIN').decision).toBe('REMOVE');

    // One row of the role changed from the queue: the role is decided but mixed.
    expect((await a.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[1]), decision: 'remove' })).status).toBe(200);
    const mixed = rolesOf(groupsOf(await user(a.client, 'U1'))[0]).find((x: any) => x.name === 'COMP_FIN');
    expect(mixed).toMatchObject({ decision: null, decidedCount: 2, allDecided: true });
  });

  it('refuses a role outside the reviewer’s rows, and a bad decision, saving nothing', async () => {
    const before = await server.app.deps.prisma.decision.count();
    const foreign = await save(a.client, [
      { userId: 'U1', compositeBusinessRole: 'COMP_OTHER', decision: 'REMOVE' },
      { userId: 'U2', compositeBusinessRole: 'COMP_HR', decision: 'REMOVE' },
    ]);
    expect(foreign.body.data.saveCompositeRoleDecisions).toEqual({
      __typename: 'BaseError',
      message: "No risks of user U2 under role 'COMP_HR' were found",
    });
    const empty = await save(a.client, []);
    expect(empty.body.data.saveCompositeRoleDecisions).toMatchObject({ __typename: 'ValidationError', message: 'Please select risks to make decisions on' });
    const mitigated = await save(a.client, [{ userId: 'U1', compositeBusinessRole: 'COMP_FIN', decision: 'RETAIN_MITIGATED' }]);
    expect(mitigated.body.data.saveCompositeRoleDecisions.__typename).toBe('ValidationError');
    expect(await server.app.deps.prisma.decision.count()).toBe(before);
  });

  it('are locked again when the period is closed', async () => {
    const active = (await admin.get('/api/review-periods/active')).body;
    const decided = (await user(admin, 'U1')).decidedRisks;
    expect(decided).toBeGreaterThan(0);
    await admin.put(`/api/review-periods/${active.id}/close`);
    const r = await save(admin, [{ userId: 'U2', compositeBusinessRole: 'COMP_HR', decision: 'REMOVE' }]);
    expect(r.body.data.saveCompositeRoleDecisions).toEqual({ __typename: 'BaseError', message: NO_ACTIVE_PERIOD });
    // The closed period's decisions stay visible, read-only.
    expect((await user(admin, 'U1')).decidedRisks).toBe(decided);
  });
});

describe('the web client', () => {
  it('sends operations for this view that fit the server’s depth and cost limits', async () => {
    // The operations the current artifacts send (the persisted file also keeps older ones).
    const web = path.resolve(import.meta.dirname, '../../../web');
    const persisted = JSON.parse(fs.readFileSync(path.join(web, 'persisted-queries.json'), 'utf8')) as Record<string, string>;
    const generated = path.join(web, 'src/__generated__');
    const ops = fs
      .readdirSync(generated)
      .filter((f) => /^CompositeView.*(Query|Mutation)\.graphql\.ts$/.test(f))
      .map((f) => persisted[/"id": "([0-9a-f]{64})"/.exec(fs.readFileSync(path.join(generated, f), 'utf8'))![1]!]!);
    expect(ops.length).toBeGreaterThanOrEqual(7);
    const variables = { count: 10, search: null, id: gid('CompositeRiskGroup', 'U1', 'R01'), expanded: true, decisions: [], userId: 'U1' };
    for (const op of ops) {
      const r = await admin.gqlPersisted(server.persist(op), variables);
      expect(r.body.errors, op.split('(')[0]).toBeUndefined();
    }
  });
});
