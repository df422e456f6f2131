// Multi-stage review periods: a period created with up to 3 stages sends the
// rows whose stage-1 decision matches stage 2's passOn to stage 2 when the
// stage-1 reviewer submits, and so on; a later stage's reviewer reads the
// earlier decisions beside each row, confirms or overturns them (an
// overturn needs a comment) and submits; the row's final decision is the
// last stage's; the administrator approves after the last stage; the
// evidence lists one line per row and stage with 'Stage' and 'Final'. A
// period created without stages works as it always did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer, type UserClient } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { parseCsv } from '../helpers/csv.js';

let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let c: UserClient;
let gone: UserClient;
let periodId: string;
let r1: number;
let r2: number;
let r3: number;
let r4: number;

type Row = {
  id: number;
  stage: number;
  previousDecisions: { stage: number; reviewer: { id: string; email: string }; decision: string; comments: string | null }[];
};
const assigned = async (u: UserClient) => {
  const res = await u.client.get('/api/assigned-risks?limit=100');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { risks: Row[]; total: number; totalAssigned: number; pendingReview: number };
};
const decide = (u: UserClient, riskDefinitionId: number, decision: string, comments?: string) =>
  u.client.post('/api/reviews/decision', { riskDefinitionId, decision, ...(comments ? { comments } : {}) });
const THREE_STAGES = () => [
  { name: 'Reviewer', reviewers: { type: 'criteria' }, passOn: 'highRetentions' },
  { name: 'Risk owner', reviewers: { type: 'users', userIds: [b.user.id] }, passOn: 'removals' },
  { name: 'Compliance', reviewers: { type: 'processOwner' }, passOn: 'all' },
];

/** The Decisions part of the evidence CSV as records. */
async function evidenceDecisions(): Promise<Record<string, string>[]> {
  const res = await fetch(`${server.url}/api/reports/evidence?periodId=${periodId}&format=csv`, { headers: { cookie: admin.cookieHeader } });
  expect(res.status).toBe(200);
  const text = (await res.text()).replace(/^\uFEFF/, '');
  const part = text.split(/\r\n\r\n/).find((p) => p.startsWith('Decisions'))!;
  return parseCsv(part.slice(part.indexOf('\r\n') + 2));
}

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  b = await userClient(server, admin);
  c = await userClient(server, admin);
  gone = await userClient(server, admin);
  [r1, r2, r3, r4] = (
    await seedRows(server.app.deps.prisma, [
      { userId: 'U1', accessRiskId: 'R1', riskLevel: 'high', businessProcess: 'P2P' },
      { userId: 'U2', accessRiskId: 'R1', riskLevel: 'high', businessProcess: 'P2P' },
      { userId: 'U3', accessRiskId: 'R1', riskLevel: 'low', businessProcess: 'OTC' },
      { userId: 'U4', accessRiskId: 'R1', riskLevel: 'high', businessProcess: 'OTC' },
    ])
  ).map(Number) as [number, number, number, number];
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'risk_id', criteriaValue: 'R1' })).status).toBe(201);
  expect((await admin.put(`/api/users/${gone.user.id}/deactivate`)).status).toBe(200);
});
afterAll(async () => server?.close());

describe('bad stage configurations are refused, naming what is wrong', () => {
  const create = (stages: unknown) => admin.post('/api/review-periods', { name: 'Bad', stages });
  it('a users stage without users, with a deactivated or unknown user, or one who is not a reviewer', async () => {
    const none = await create([
      { name: 'R', reviewers: { type: 'criteria' } },
      { name: 'Owner', reviewers: { type: 'users', userIds: [] } },
    ]);
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/Stage 2 \('Owner'\) has no reviewers/);
    const deactivated = await create([
      { name: 'R', reviewers: { type: 'criteria' } },
      { name: 'Owner', reviewers: { type: 'users', userIds: [gone.user.id] } },
    ]);
    expect(deactivated.status).toBe(400);
    expect(deactivated.body.message).toMatch(/Stage 2 \('Owner'\).*deactivated/);
    const unknown = await create([
      { name: 'R', reviewers: { type: 'criteria' } },
      { name: 'Owner', reviewers: { type: 'users', userIds: ['00000000-0000-4000-8000-000000000000'] } },
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/is not a user/);
    const adminId = ((await admin.get('/api/users')).body as { id: string; role: string }[]).find((u) => u.role === 'admin')!.id;
    const notReviewer = await create([
      { name: 'R', reviewers: { type: 'criteria' } },
      { name: 'Owner', reviewers: { type: 'users', userIds: [adminId] } },
    ]);
    expect(notReviewer.status).toBe(400);
    expect(notReviewer.body.message).toMatch(/is not a reviewer/);
  });

  it('a process-owner stage while no process owners are set; a first stage not by criteria; more than 3 stages', async () => {
    const owners = await create([
      { name: 'R', reviewers: { type: 'criteria' } },
      { name: 'Owners', reviewers: { type: 'processOwner' } },
    ]);
    expect(owners.status).toBe(400);
    expect(owners.body.message).toMatch(/no process owners are set/);
    const first = await create([{ name: 'Owner', reviewers: { type: 'users', userIds: [b.user.id] } }]);
    expect(first.status).toBe(400);
    expect(first.body.message).toMatch(/Stage 1 \('Owner'\) is reviewed by the assignment criteria/);
    const four = await create(Array.from({ length: 4 }, (_, i) => ({ name: `S${i}`, reviewers: { type: 'criteria' } })));
    expect(four.status).toBe(400);
    expect(four.body.message).toMatch(/at most 3 stages/);
    expect((await admin.get('/api/review-periods')).body).toEqual([]);
  });
});

describe('a 3-stage period', () => {
  beforeAll(async () => {
    expect((await admin.put('/api/review-settings', { processOwners: { P2P: [c.user.id] } })).status).toBe(200);
    const created = await admin.post('/api/review-periods', { name: 'Staged', stages: THREE_STAGES() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    periodId = created.body.id;
    expect(created.body.stages.map((s: { name: string; passOn: string }) => [s.name, s.passOn])).toEqual([
      ['Reviewer', 'all'],
      ['Risk owner', 'removals'],
      ['Compliance', 'all'],
    ]);
  });

  it('is audited with its stages', async () => {
    const audit = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'period.created', periodId } });
    expect((audit?.after as { stages: { name: string }[] }).stages.map((s) => s.name)).toEqual(['Reviewer', 'Risk owner', 'Compliance']);
  });

  it('stage 1 is the review as it was: the rows by criteria, at stage 1, with no previous decisions', async () => {
    const mine = await assigned(a);
    expect(mine.risks.map((r) => [r.id, r.stage, r.previousDecisions])).toEqual([r1, r2, r3, r4].map((id) => [id, 1, []]));
    expect((await assigned(b)).total).toBe(0);
    expect((await decide(a, r1, 'remove', 'Unused')).status).toBe(200);
    expect((await decide(a, r2, 'remove')).status).toBe(200);
    expect((await decide(a, r3, 'retain')).status).toBe(200);
    expect((await decide(a, r4, 'retain')).status).toBe(200);
    // Nothing reaches stage 2 before stage 1 submits.
    expect((await assigned(b)).total).toBe(0);
    const submitted = await a.client.post('/api/reviews/submit');
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  });

  it('stage 2 (users, removals) sees only the removals, with the stage-1 decision and comment beside each', async () => {
    const mine = await assigned(b);
    expect(mine.risks.map((r) => r.id)).toEqual([r1, r2]);
    expect(mine.totalAssigned).toBe(2);
    expect(mine.risks[0]!.stage).toBe(2);
    expect(mine.risks[0]!.previousDecisions).toEqual([
      {
        stage: 1,
        reviewer: { id: a.user.id, email: a.email, name: expect.any(String) },
        decision: 'remove',
        comments: 'Unused',
        decidedAt: expect.any(String),
      },
    ]);
    const g = await b.client.gql('{ assignedRisks(first: 10) { edges { node { stage previousDecisions { stage decision comments reviewerEmail } } } } }');
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.assignedRisks.edges[0].node).toEqual({
      stage: 2,
      previousDecisions: [{ stage: 1, decision: 'REMOVE', comments: 'Unused', reviewerEmail: a.email }],
    });
  });

  it("a later stage's reviewer's submission status is their stage's: its name, their decisions there, then submitted", async () => {
    const status = async (u: UserClient) => {
      const res = await u.client.get('/api/reviews/submission-status');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { stage: number; stageName: string; stageCount: number; hasDecisions: boolean; totalDecisions: number; isSubmitted: boolean };
    };
    expect(await status(a)).toMatchObject({ stage: 1, stageName: 'Reviewer', stageCount: 3, totalDecisions: 4, isSubmitted: true });
    expect(await status(b)).toMatchObject({ stage: 2, stageName: 'Risk owner', stageCount: 3, hasDecisions: false, totalDecisions: 0, isSubmitted: false });
    const g = await b.client.gql('{ submissionStatus { stage stageName stageCount hasDecisions isSubmitted status } }');
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.submissionStatus).toEqual({ stage: 2, stageName: 'Risk owner', stageCount: 3, hasDecisions: false, isSubmitted: false, status: null });
  });

  it('an overturn needs a comment; a confirmation does not; a row that did not reach the stage is not found', async () => {
    const bare = await decide(b, r2, 'retain');
    expect(bare.status).toBe(400);
    expect(bare.body.message).toMatch(/overturning stage 1's decision \(remove\) needs a comment/);
    expect((await decide(b, r2, 'retain', 'Needed for month-end close')).status).toBe(200);
    expect((await decide(b, r1, 'remove')).status).toBe(200);
    expect((await decide(b, r3, 'remove', 'x')).status).toBe(404);
  });

  it('shows each stage’s progress; approval waits for the last stage', async () => {
    const stages = await admin.get(`/api/review-periods/${periodId}/stages`);
    expect(stages.status, JSON.stringify(stages.body)).toBe(200);
    expect(stages.body.map((s: { name: string; reviewers: { type: string }; progress: unknown }) => [s.name, s.reviewers.type, s.progress])).toEqual([
      ['Reviewer', 'criteria', { reached: 4, decided: 4, pending: 0, submittedReviewers: 1 }],
      ['Risk owner', 'users', { reached: 2, decided: 2, pending: 0, submittedReviewers: 0 }],
      ['Compliance', 'processOwner', { reached: 0, decided: 0, pending: 0, submittedReviewers: 0 }],
    ]);
    const g = await admin.gql(
      'query ($id: ID!) { node(id: $id) { ... on ReviewPeriod { stageCount stages { number name reviewerType passOn progress { reached } } } } }',
      {
        id: Buffer.from(`ReviewPeriod:${periodId}`).toString('base64'),
      },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.node.stageCount).toBe(3);
    expect(g.body.data.node.stages[1]).toEqual({ number: 2, name: 'Risk owner', reviewerType: 'USERS', passOn: 'REMOVALS', progress: { reached: 2 } });
    const sub = (await admin.get('/api/submissions')).body[0];
    const early = await admin.put(`/api/submissions/${sub.id}/approve`, {});
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/Stage 2 \('Risk owner'\) is still under way/);
  });

  it('stage 2 submits; its decisions lock; stage 3 (process owners, all) sees what stage 2 passed on with both earlier decisions', async () => {
    const submitted = await b.client.post('/api/reviews/submit');
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.count).toBe(2);
    expect((await decide(b, r1, 'retain', 'changed my mind')).status).toBe(409);
    const state = (await b.client.get('/api/reviews/submission-status')).body;
    expect(state).toMatchObject({ stage: 2, totalDecisions: 2, isSubmitted: true, status: 'submitted' });
    const mine = await assigned(c);
    expect(mine.risks.map((r) => r.id)).toEqual([r1, r2]);
    expect(mine.risks[1]!.previousDecisions.map((d) => [d.stage, d.reviewer.id, d.decision])).toEqual([
      [1, a.user.id, 'remove'],
      [2, b.user.id, 'retain'],
    ]);
    expect((await decide(c, r1, 'retain')).status).toBe(400);
    expect((await decide(c, r1, 'retain', 'Compensating control in place')).status).toBe(200);
    expect((await decide(c, r2, 'retain')).status).toBe(200);
    const g = await c.client.gql('mutation { submitStageDecisions { __typename ... on MutationSubmitStageDecisionsSuccess { data } } }');
    expect(g.body.errors, JSON.stringify(g.body)).toBeUndefined();
    expect(g.body.data.submitStageDecisions.data).toBe(2);
  });

  it('the administrator approves after the last stage; the evidence lists every stage, the last stage’s decision final', async () => {
    const sub = (await admin.get('/api/submissions')).body[0];
    const approved = await admin.put(`/api/submissions/${sub.id}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const lines = await evidenceDecisions();
    const of = (id: string) =>
      lines
        .filter((l) => l['User ID'] === id)
        .map((l) => [l['Stage'], l['Decision'], l['Final']])
        .sort();
    expect(of('U1')).toEqual([
      ['1', 'remove', 'no'],
      ['2', 'remove', 'no'],
      ['3', 'retain', 'yes'],
    ]);
    expect(of('U2')).toEqual([
      ['1', 'remove', 'no'],
      ['2', 'retain', 'no'],
      ['3', 'retain', 'yes'],
    ]);
    // Not passed on: the stage-1 decision stands.
    expect(of('U3')).toEqual([['1', 'retain', 'yes']]);
    const closed = await admin.put(`/api/review-periods/${periodId}/close`, {});
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const frozen = await evidenceDecisions();
    expect(frozen.filter((l) => l['Final'] === 'yes').map((l) => [l['User ID'], l['Stage']])).toEqual([
      ['U1', '3'],
      ['U2', '3'],
      ['U3', '1'],
      ['U4', '1'],
    ]);
  });
});

describe('a period created without stages', () => {
  it('has the one stage it always had: criteria reviewers, then the approval; Stage 1 and Final yes in the evidence', async () => {
    const created = await admin.post('/api/review-periods', { name: 'Plain' });
    expect(created.status).toBe(201);
    periodId = created.body.id;
    expect(created.body.stages).toBeNull();
    expect((await a.client.get('/api/reviews/submission-status')).body).toMatchObject({ stage: 1, stageName: 'Reviewer', stageCount: 1 });
    const plain = await a.client.gql('{ activeReviewPeriod { stageCount } }');
    expect(plain.body.data.activeReviewPeriod).toEqual({ stageCount: 1 });
    const stages = await admin.get(`/api/review-periods/${periodId}/stages`);
    expect(stages.body).toEqual([
      {
        number: 1,
        name: 'Reviewer',
        reviewers: { type: 'criteria' },
        passOn: 'all',
        endDate: null,
        progress: { reached: 4, decided: 0, pending: 4, submittedReviewers: 0 },
      },
    ]);
    // B is no reviewer here: nothing to review.
    expect((await assigned(b)).total).toBe(0);
    const mine = await assigned(a);
    expect(mine.risks.every((r) => r.stage === 1 && r.previousDecisions.length === 0)).toBe(true);
    expect((await decide(a, r1, 'remove')).status).toBe(200);
    expect((await a.client.post('/api/reviews/submit')).status).toBe(200);
    // A one-stage set goes to the approval, recallable until approved.
    expect((await a.client.get('/api/reviews/submission-status')).body).toMatchObject({ status: 'submitted', nextStageName: null, canRecall: true });
    const sub = (await admin.get('/api/submissions')).body[0];
    expect((await admin.put(`/api/submissions/${sub.id}/approve`, {})).status).toBe(200);
    expect((await evidenceDecisions()).map((l) => [l['User ID'], l['Stage'], l['Final']])).toEqual([['U1', '1', 'yes']]);
  });
});
