// A reviewer's submitted set reaches every open page of that reviewer live
// (viewerSubmissionChanged): their own submit and recall, and an
// administrator's approval or return, whichever surface (REST or GraphQL)
// acted. Another reviewer never hears of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { collect, listening, until, wsClient } from '../helpers/ws.js';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

const QUERY = 'subscription { viewerSubmissionChanged { status submission { id status decisionCount } } }';
const statuses = (c: ReturnType<typeof collect>) => c.items.map((i) => i.data?.viewerSubmissionChanged?.status ?? JSON.stringify(i));
const sgid = (id: string) => Buffer.from(`Submission:${id}`).toString('base64');

describe('viewerSubmissionChanged', () => {
  it("delivers submit, recall, return and approval to each of the reviewer's open pages, and nothing to another reviewer", async () => {
    const a = await userClient(server, admin);
    const b = await userClient(server, admin);
    const [ra, rb] = await seedRows(server.app.deps.prisma, [
      { userId: 'L1', accessRiskId: 'LR1', system: 'Live ERP' },
      { userId: 'L2', accessRiskId: 'LR2', system: 'Live HR' },
    ]);
    expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'Live ERP' })).status).toBe(201);
    expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'system', criteriaValue: 'Live HR' })).status).toBe(201);
    expect((await admin.post('/api/review-periods', { name: 'Live submission period' })).status).toBe(201);
    expect((await a.client.post('/api/reviews/decision', { riskDefinitionId: Number(ra), decision: 'retain' })).status).toBe(200);
    expect((await b.client.post('/api/reviews/decision', { riskDefinitionId: Number(rb), decision: 'retain' })).status).toBe(200);

    // Two pages of reviewer A (the same session), one of reviewer B.
    const sockets = [wsClient(server.url, a.client.cookieHeader), wsClient(server.url, a.client.cookieHeader), wsClient(server.url, b.client.cookieHeader)];
    const before = server.app.deps.pubsub.listening('review:submission-changed');
    const [a1, a2, b1] = sockets.map((ws) => collect(ws, QUERY));
    await listening(server, 'review:submission-changed', before + 3);
    const pagesOfA = [a1!, a2!];
    /** Both of A's pages have heard `n` changes, the last being `status`. */
    const heard = async (n: number, status: string) => {
      await until(() => pagesOfA.every((p) => p.items.length >= n), 10_000);
      for (const p of pagesOfA) expect(statuses(p).at(-1)).toBe(status);
    };
    const submitted = async () =>
      (await admin.get('/api/submissions?status=submitted')).body.find((s: { reviewer: { id: string } }) => s.reviewer.id === a.user.id) as { id: string };

    // A submits (REST) and recalls (GraphQL) in one page; both pages hear it.
    expect((await a.client.post('/api/reviews/submit')).status).toBe(200);
    await heard(1, 'SUBMITTED');
    const recall = await a.client.gql('mutation { recallDecisions { __typename } }');
    expect(recall.body.data.recallDecisions.__typename).toBe('MutationRecallDecisionsSuccess');
    await heard(2, 'RECALLED');

    // The administrator returns it (REST) and, once submitted again, approves it (GraphQL).
    expect((await a.client.gql('mutation { submitDecisions { __typename } }')).body.data.submitDecisions.__typename).toBe('MutationSubmitDecisionsSuccess');
    await heard(3, 'SUBMITTED');
    expect((await admin.put(`/api/submissions/${(await submitted()).id}/return`, { comment: 'Check L1 again' })).status).toBe(200);
    await heard(4, 'RETURNED');
    expect((await a.client.post('/api/reviews/submit')).status).toBe(200);
    await heard(5, 'SUBMITTED');
    const sub = await submitted();
    const approve = await admin.gql(`mutation($id: ID!) { approveSubmission(id: $id) { __typename } }`, { id: sgid(sub.id) });
    expect(approve.body.data.approveSubmission.__typename).toBe('MutationApproveSubmissionSuccess');
    await heard(6, 'APPROVED');

    for (const p of pagesOfA) {
      expect(p.errors).toEqual([]);
      expect(statuses(p)).toEqual(['SUBMITTED', 'RECALLED', 'SUBMITTED', 'RETURNED', 'SUBMITTED', 'APPROVED']);
      // The submission as it is now, readable by its reviewer.
      expect(p.items.at(-1).data.viewerSubmissionChanged.submission).toEqual({ id: sgid(sub.id), status: 'APPROVED', decisionCount: 1 });
    }
    // B heard none of A's changes; B's own submit reaches B only.
    expect(b1!.errors).toEqual([]);
    expect(b1!.items).toEqual([]);
    expect((await b.client.post('/api/reviews/submit')).status).toBe(200);
    await until(() => b1!.items.length === 1, 10_000);
    expect(statuses(b1!)).toEqual(['SUBMITTED']);
    await new Promise((r) => setTimeout(r, 300));
    for (const p of pagesOfA) expect(p.items).toHaveLength(6);
    await Promise.all(sockets.map((ws) => ws.dispose()));
  });
});
