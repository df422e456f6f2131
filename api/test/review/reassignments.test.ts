// Delegation and reassignment: an administrator, or a
// reviewer for their own work, moves an assignment criterion to another
// reviewer with a note; the new reviewer is told; decisions already made stay
// with their author; an item's history shows who held it when; a deactivated
// reviewer's open work is listed. Over REST and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { Client, adminClient, startServer, userClient, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { NOT_YOUR_WORK, ONE_HOLDER, REASSIGNED_TITLE } from '../../src/services/review/reassignments.js';

let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let c: UserClient;
let rows: bigint[];
let sapId: string;
let workdayId: string;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  [a, b, c] = (await userClients(server, admin, 3)) as [UserClient, UserClient, UserClient];
  rows = await seedRows(server.app.deps.prisma, [
    { userId: 'U1', accessRiskId: 'R01', system: 'SAP ERP', roleProfile: 'Z_AP' },
    { userId: 'U2', accessRiskId: 'R02', system: 'SAP ERP', roleProfile: 'Z_GL' },
    { userId: 'U3', accessRiskId: 'R03', system: 'Workday', roleProfile: 'HR_ADMIN' },
  ]);
  sapId = (await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).body.id;
  workdayId = (await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'Workday' })).body.id;
  expect((await admin.post('/api/review-periods', { name: 'Delegation period' })).status).toBe(201);
});
afterAll(async () => server?.close());

const assignedIds = async (cl: Client) => ((await cl.get('/api/assigned-risks?limit=100')).body.risks as any[]).map((r) => String(r.id)).sort();

describe('reassigning work', () => {
  it('refuses what it cannot do, with clear messages', async () => {
    const cases: [Client, Record<string, unknown>, number, string][] = [
      [admin, { criteriaId: sapId }, 400, 'Please choose the reviewer to reassign to'],
      [admin, { toReviewerId: b.user.id }, 400, 'Please choose the assignment to reassign (criteriaId)'],
      [admin, { riskDefinitionIds: ['abc'], toReviewerId: b.user.id }, 400, "riskDefinitionIds must be risk ids (numbers): 'abc' is not"],
      [admin, { riskDefinitionIds: [999999999], toReviewerId: b.user.id }, 404, 'Risk not found: 999999999'],
      // Nobody holds the items yet: not this reviewer's to give away.
      [b.client, { riskDefinitionIds: [Number(rows[0])], toReviewerId: c.user.id }, 403, NOT_YOUR_WORK],
      [admin, { criteriaId: '00000000-0000-4000-8000-000000000000', toReviewerId: b.user.id }, 404, 'Assignment not found'],
      [admin, { criteriaId: sapId, toReviewerId: '00000000-0000-4000-8000-000000000000' }, 400, 'The chosen reviewer does not exist'],
      [admin, { criteriaId: sapId, toReviewerId: a.user.id }, 400, 'This work is already assigned to that reviewer'],
      // A reviewer cannot move someone else's work.
      [b.client, { criteriaId: sapId, toReviewerId: b.user.id, note: 'mine now' }, 403, NOT_YOUR_WORK],
    ];
    for (const [cl, body, status, message] of cases) {
      const r = await cl.post('/api/reassignments', body);
      expect(r.body.message, JSON.stringify(body)).toBe(message);
      expect(r.status).toBe(status);
    }
    const adminUser = await server.app.deps.prisma.user.findFirstOrThrow({ where: { role: 'admin' } });
    const toAdmin = await admin.post('/api/reassignments', { criteriaId: sapId, toReviewerId: adminUser.id });
    expect(toAdmin.body.message).toBe('Work can only be reassigned to reviewers');
    expect((await admin.get('/api/reassignments')).body).toEqual([]);
  });

  it('a reviewer delegates their own criterion with a note: the new reviewer sees the items and is told; decisions made stay with their author', async () => {
    // A decides one SAP ERP item before handing the work over.
    expect((await a.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[0]), decision: 'retain' })).status).toBe(200);
    expect(await assignedIds(b.client)).toEqual([]);

    const r = await a.client.post('/api/reassignments', { criteriaId: sapId, toReviewerId: b.user.id, note: 'On leave until March' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      criteriaId: sapId,
      criteriaType: 'system',
      criteriaValue: 'SAP ERP',
      fromReviewerId: a.user.id,
      toReviewerId: b.user.id,
      note: 'On leave until March',
    });

    expect(await assignedIds(b.client)).toEqual([String(rows[0]), String(rows[1])].sort());
    expect(await assignedIds(a.client)).toEqual([String(rows[2])]);
    const told = ((await b.client.get('/api/notifications')).body.notifications as any[]).find((n) => n.title === REASSIGNED_TITLE);
    expect(told.message).toContain('Note: On leave until March');
    expect(told.message).toContain(a.email);

    const decisions = await server.app.deps.prisma.decision.findMany({ where: { riskRowId: rows[0]! } });
    expect(decisions.map((d) => d.reviewerId)).toEqual([a.user.id]);
    const audit = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'assignment.reassigned', entityId: sapId } });
    expect(audit?.before).toMatchObject({ reviewerId: a.user.id });
    expect(audit?.after).toMatchObject({ reviewerId: b.user.id, note: 'On leave until March' });

    // A no longer holds it: moving it again is B's (or an administrator's) call.
    expect((await a.client.post('/api/reassignments', { criteriaId: sapId, toReviewerId: c.user.id })).status).toBe(403);
  });

  it("an administrator moves it on; the item's history shows who held it when; each reviewer lists only their own moves", async () => {
    const r = await admin.post('/api/reassignments', { criteriaId: sapId, toReviewerId: c.user.id, note: 'Rebalancing' });
    expect(r.status).toBe(201);
    const history = (await admin.get(`/api/reassignments?riskDefinitionId=${rows[1]}`)).body as any[];
    expect(history.map((h) => [h.fromReviewerId, h.toReviewerId, h.note])).toEqual([
      [a.user.id, b.user.id, 'On leave until March'],
      [b.user.id, c.user.id, 'Rebalancing'],
    ]);
    expect(new Date(history[0].createdAt) <= new Date(history[1].createdAt)).toBe(true);
    // The Workday item was never moved.
    expect((await admin.get(`/api/reassignments?riskDefinitionId=${rows[2]}`)).body).toEqual([]);
    expect((await admin.get('/api/reassignments?riskDefinitionId=abc')).status).toBe(400);
    expect((await admin.get('/api/reassignments')).body).toHaveLength(2);
    expect((await c.client.get('/api/reassignments')).body).toHaveLength(1);
    expect((await a.client.get('/api/reassignments')).body).toHaveLength(1);
  });

  it("a deactivated reviewer's open work is listed for reassignment with its pending count", async () => {
    // A still holds Workday (one item, undecided).
    expect((await admin.put(`/api/users/${a.user.id}/deactivate`)).status).toBe(200);
    const open = (await admin.get('/api/reassignments/open-work')).body as any[];
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      reviewer: { id: a.user.id, isActive: false },
      pending: 1,
      criteria: [{ id: workdayId, criteriaType: 'system', criteriaValue: 'Workday' }],
    });
    // A reviewer sees their own.
    const mine = (await c.client.get('/api/reassignments/open-work')).body as any[];
    // Both SAP ERP items are pending for C: A's decision stays A's.
    expect(mine).toMatchObject([{ reviewer: { id: c.user.id }, pending: 2, criteria: [{ id: sapId }] }]);
    // Moving it empties the list; a deactivated reviewer cannot receive work.
    expect((await admin.post('/api/reassignments', { criteriaId: sapId, toReviewerId: a.user.id })).body.message).toBe('The chosen reviewer is deactivated');
    expect((await admin.post('/api/reassignments', { criteriaId: workdayId, toReviewerId: b.user.id })).status).toBe(201);
    expect((await admin.get('/api/reassignments/open-work')).body).toEqual([]);
  });

  it('the same over GraphQL', async () => {
    const gid = (type: string, id: string) => encodeGlobalID(type, id);
    const m = `mutation($input: ReassignWorkInput!) { reassignWork(input: $input) { __typename
      ... on MutationReassignWorkSuccess { data { criteriaName fromReviewer toReviewer note } } ... on Error { message } } }`;
    const refused = await a.client.gql(m, { input: { criteriaId: gid('AssignmentCriteria', workdayId), toReviewerId: gid('User', c.user.id) } });
    // A is deactivated: signed out.
    expect(refused.body.data?.reassignWork ?? null).toBeNull();
    const notMine = await c.client.gql(m, { input: { criteriaId: gid('AssignmentCriteria', workdayId), toReviewerId: gid('User', c.user.id) } });
    expect(notMine.body.data.reassignWork).toEqual({ __typename: 'BaseError', message: NOT_YOUR_WORK });
    const items = await admin.gql(m, { input: { riskRowIds: ['x1'], toReviewerId: gid('User', c.user.id) } });
    expect(items.body.data.reassignWork).toEqual({ __typename: 'ValidationError', message: "riskRowIds must be risk ids (numbers): 'x1' is not" });
    const ok = await c.client.gql(m, { input: { criteriaId: gid('AssignmentCriteria', sapId), toReviewerId: gid('User', b.user.id), note: 'Back to you' } });
    expect(ok.body.data.reassignWork).toMatchObject({
      __typename: 'MutationReassignWorkSuccess',
      data: { criteriaName: 'SYSTEM: SAP ERP', note: 'Back to you' },
    });
    expect(ok.body.data.reassignWork.data.toReviewer).toContain(b.email);

    const q = await admin.gql(
      `query($id: String) { reassignments(riskRowId: $id) { totalCount edges { node { id fromReviewer toReviewer note } } } reassignmentOpenWork { totalCount edges { node { pending } } } }`,
      { id: String(rows[0]) },
    );
    const moves = q.body.data.reassignments.edges.map((e: any) => e.node);
    expect(moves.map((r: any) => r.note)).toEqual(['On leave until March', 'Rebalancing', 'Back to you']);
    expect(q.body.data.reassignments.totalCount).toBe(3);
    expect(q.body.data.reassignmentOpenWork).toEqual({ totalCount: 0, edges: [] });
    // An item id that is not a number is refused under the argument's name.
    const bad = await admin.gql(`{ reassignments(riskRowId: "x1") { totalCount } }`);
    expect(bad.body.errors[0].message).toBe('riskRowId must be a number');
    // A move is a Node: its parties and administrators read it back by id; another reviewer gets null, as for no move.
    const node = `query($id: ID!) { node(id: $id) { ... on Reassignment { note } } }`;
    expect((await b.client.gql(node, { id: moves[2].id })).body.data.node).toEqual({ note: 'Back to you' });
    const stranger = await userClient(server, admin);
    expect((await stranger.client.gql(node, { id: moves[2].id })).body).toEqual({ data: { node: null } });
  });

  it('single items: a reviewer hands over an item they hold; the visibility rule, counts, history and audit follow; decisions stay', async () => {
    // B holds all three rows now (SAP ERP and Workday). B decides rows[2], then hands rows[1] and rows[2] to C.
    const totalOf = async (cl: Client) => (await cl.get('/api/assigned-risks?limit=100')).body.total;
    expect((await b.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[2]), decision: 'remove' })).status).toBe(200);
    const r = await b.client.post('/api/reassignments', { riskDefinitionIds: [Number(rows[1]), String(rows[2])], toReviewerId: c.user.id, note: 'Your team' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      criteriaId: null,
      riskDefinitionIds: [Number(rows[1]), Number(rows[2])],
      fromReviewerId: b.user.id,
      toReviewerId: c.user.id,
    });
    expect(await assignedIds(c.client)).toEqual([String(rows[1]), String(rows[2])].sort());
    expect(await assignedIds(b.client)).toEqual([String(rows[0])]);
    expect([await totalOf(b.client), await totalOf(c.client)]).toEqual([1, 2]);
    const told = ((await c.client.get('/api/notifications')).body.notifications as any[]).find((n) => n.message.includes('2 items'));
    expect(told.message).toContain('Note: Your team');
    // B no longer holds them; C's decision is C's own, B's stays B's.
    expect((await b.client.post('/api/reassignments', { riskDefinitionIds: [Number(rows[1])], toReviewerId: b.user.id })).body.message).toBe(NOT_YOUR_WORK);
    expect((await c.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[2]), decision: 'retain' })).status).toBe(200);
    const ds = await server.app.deps.prisma.decision.findMany({ where: { riskRowId: rows[2]! }, orderBy: { createdAt: 'asc' } });
    expect(ds.map((d) => [d.reviewerId, d.decision])).toEqual([
      [b.user.id, 'remove'],
      [c.user.id, 'retain'],
    ]);
    // The item's history: criterion moves, then the item's own.
    const history = (await admin.get(`/api/reassignments?riskDefinitionId=${rows[1]}`)).body as any[];
    expect(history.map((h) => h.note)).toEqual(['On leave until March', 'Rebalancing', 'Back to you', 'Your team']);
    expect(history[3].riskDefinitionIds).toEqual([Number(rows[1]), Number(rows[2])]);
    const audit = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'items.reassigned' } });
    expect(audit?.after).toMatchObject({ reviewerId: c.user.id, note: 'Your team' });
  });

  it("an administrator moves items from their one holder, must name whose when shared, and sees a deactivated holder's items as open work", async () => {
    expect((await admin.post('/api/reassignments', { riskDefinitionIds: [Number(rows[1])], toReviewerId: b.user.id })).status).toBe(201);
    expect(await assignedIds(b.client)).toEqual([String(rows[0]), String(rows[1])].sort());
    // C also gets U1 by a criterion: rows[0] is shared by B and C.
    expect((await admin.post('/api/assignment-criteria', { reviewerId: c.user.id, criteriaType: 'user_id', criteriaValue: 'U1' })).status).toBe(201);
    const shared = await admin.post('/api/reassignments', { riskDefinitionIds: [Number(rows[0])], toReviewerId: a.user.id });
    expect([shared.status, shared.body.message]).toEqual([400, ONE_HOLDER]);
    // Over GraphQL, naming whose: C's share of rows[2] goes to B (C is the only holder of rows[2]).
    const m = `mutation($input: ReassignWorkInput!) { reassignWork(input: $input) { __typename ... on MutationReassignWorkSuccess { data { riskRowIds fromReviewer } } } }`;
    const ok = await admin.gql(m, {
      input: {
        riskRowIds: [String(rows[0])],
        fromReviewerId: encodeGlobalID('User', c.user.id),
        toReviewerId: encodeGlobalID('User', b.user.id),
        note: 'One is enough',
      },
    });
    expect(ok.body.data.reassignWork.data).toMatchObject({ riskRowIds: [String(rows[0])] });
    expect(await assignedIds(c.client)).toEqual([String(rows[2])]);
    // C is deactivated holding rows[2] as a single item: listed as open work.
    expect((await admin.put(`/api/users/${c.user.id}/deactivate`)).status).toBe(200);
    const open = (await admin.get('/api/reassignments/open-work')).body as any[];
    expect(open.find((w) => w.reviewer.id === c.user.id)).toMatchObject({ items: [Number(rows[2])] });
    expect(
      (
        await admin.post('/api/reassignments', {
          riskDefinitionIds: open.find((w) => w.reviewer.id === c.user.id).items,
          fromReviewerId: c.user.id,
          toReviewerId: b.user.id,
        })
      ).status,
    ).toBe(201);
    expect(await assignedIds(b.client)).toEqual(rows.map(String).sort());
  });

  it('the evidence file of the period lists every move and its audit events', async () => {
    const period = await server.app.deps.prisma.reviewPeriod.findFirstOrThrow({ where: { status: 'active' } });
    const res = await fetch(`${server.url}/api/reports/evidence?periodId=${period.id}&format=csv`, { headers: { cookie: admin.cookieHeader } });
    const csv = await res.text();
    expect(csv.match(/Reassignment at /g)).toHaveLength(8);
    expect(csv).toContain("assignment 'SYSTEM: SAP ERP' from");
    expect(csv).toContain(`items ${rows[1]}, ${rows[2]} from`);
    expect(csv).toContain('(Your team)');
    expect(csv.match(/items\.reassigned/g)?.length).toBe(4);
    expect(csv.match(/assignment\.reassigned/g)?.length).toBe(4);
  });
});
