// The preview of a review period before it is created: the rows in scope,
// each stage's reviewers with the rows they would get (the same totals their
// queues then show), the rows that go to the fallback reviewer and why
// (self-review, no criterion), refusals as creating the period refuses, and
// nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer, type UserClient } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let c: UserClient;
let f: UserClient;

type Reviewer = { userId: string; rows: number; fallbackRows: number };
const preview = (body: unknown) => admin.post('/api/review-periods/preview', body);
const counts = (reviewers: Reviewer[]) => Object.fromEntries(reviewers.map((r) => [r.userId, r.rows]));
const written = async () => {
  const { prisma } = server.app.deps;
  return { periods: await prisma.reviewPeriod.count(), audit: await prisma.auditEvent.count(), settings: await prisma.adminSetting.count() };
};
const gid = (id: string) => Buffer.from(`User:${id}`).toString('base64');

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  [a, b, c, f] = [await userClient(server, admin), await userClient(server, admin), await userClient(server, admin), await userClient(server, admin)];
  await seedRows(server.app.deps.prisma, [
    { userId: 'U1', accessRiskId: 'R1', businessProcess: 'Finance' },
    { userId: 'U1', accessRiskId: 'R1', businessProcess: 'Finance', riskLevel: 'low' },
    { userId: 'U2', accessRiskId: 'R2', businessProcess: 'Sales', riskLevel: 'medium' },
    // No criterion matches R9.
    { userId: 'U3', accessRiskId: 'R9', businessProcess: 'Sales', riskLevel: 'low' },
    // A's own access (R1 would give it to A).
    { userId: 'ASMITH', accessRiskId: 'R1', businessProcess: 'Finance' },
    { userId: 'U4', accessRiskId: 'R2' },
  ]);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'risk_id', criteriaValue: 'R1' })).status).toBe(201);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'risk_id', criteriaValue: 'R2' })).status).toBe(201);
  expect((await admin.put(`/api/users/${a.user.id}`, { accessUserIds: ['asmith'] })).status).toBe(200);
});
afterAll(async () => server?.close());

describe('the preview of the default stage', () => {
  it('without a fallback reviewer: the scope, each reviewer’s rows, and the rows nobody would review', async () => {
    const before = await written();
    const r = await preview({ name: 'Q1 review' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.scope).toEqual({ rows: 6, highRows: 4 });
    expect(r.body.stages).toHaveLength(1);
    expect(r.body.stages[0]).toMatchObject({ name: 'Reviewer', reviewerType: 'criteria' });
    expect(counts(r.body.stages[0].reviewers)).toEqual({ [a.user.id]: 2, [b.user.id]: 2 });
    expect(r.body.fallback).toEqual({ rows: 2, selfReview: 1, unassigned: 1, nobody: 2, reviewerIds: [] });
    expect(await written()).toEqual(before);
  });

  it('with a fallback reviewer: a row no criterion matches counts as unassigned, a reviewer’s own row as self-review; nothing is written', async () => {
    expect((await admin.put('/api/review-settings', { fallbackReviewerIds: [f.user.id] })).status).toBe(200);
    const before = await written();
    const r = await preview({ name: 'Q1 review', endDate: new Date(Date.now() + 30 * 86_400_000).toISOString(), reminderDaysBefore: [7] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.fallback).toEqual({ rows: 2, selfReview: 1, unassigned: 1, nobody: 0, reviewerIds: [f.user.id] });
    const reviewers = r.body.stages[0].reviewers as Reviewer[];
    expect(counts(reviewers)).toEqual({ [a.user.id]: 2, [b.user.id]: 2, [f.user.id]: 2 });
    expect(reviewers.find((x) => x.userId === f.user.id)!.fallbackRows).toBe(2);
    expect(reviewers.find((x) => x.userId === a.user.id)!.fallbackRows).toBe(0);
    expect(await written()).toEqual(before);
  });

  it('in GraphQL too, with the reviewers’ names and e-mails', async () => {
    const g = await admin.gql(
      `query ($input: CreateReviewPeriodInput!) { reviewPeriodPreview(input: $input) { __typename
         ... on QueryReviewPeriodPreviewSuccess { data {
           scope { rows highRows }
           stages { name reviewerType reviewers { user { email firstName lastName } rows fallbackRows } }
           fallback { rows selfReview unassigned nobody reviewers { email } } } }
         ... on Error { message } } }`,
      { input: { name: 'Q1 review' } },
    );
    expect(g.body.errors, JSON.stringify(g.body)).toBeUndefined();
    const data = g.body.data.reviewPeriodPreview.data;
    expect(data.scope).toEqual({ rows: 6, highRows: 4 });
    expect(data.fallback).toEqual({ rows: 2, selfReview: 1, unassigned: 1, nobody: 0, reviewers: [{ email: f.email }] });
    const stage = data.stages[0];
    expect(stage.reviewerType).toBe('CRITERIA');
    expect(Object.fromEntries(stage.reviewers.map((r: { user: { email: string }; rows: number }) => [r.user.email, r.rows]))).toEqual({
      [a.email]: 2,
      [b.email]: 2,
      [f.email]: 2,
    });
    expect(stage.reviewers[0].user.lastName).toMatch(/reviewer/);
  });

  it('the counts are what the reviewers then see after the period is created with the same body', async () => {
    const body = { name: 'Q1 review' };
    const expected = counts((await preview(body)).body.stages[0].reviewers);
    const created = await admin.post('/api/review-periods', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (const u of [a, b, f]) {
      const q = (await u.client.get('/api/assigned-risks?limit=100')).body;
      expect({ who: u.email, total: q.total, assigned: q.totalAssigned }).toEqual({ who: u.email, total: expected[u.user.id], assigned: expected[u.user.id] });
    }
    // While a period is active, the preview still answers (the next period's), and writes nothing.
    const before = await written();
    expect((await preview(body)).status).toBe(200);
    expect(await written()).toEqual(before);
  });
});

describe('the preview of stages', () => {
  it('stage 1 is reviewed by the assignment criteria: a list of users or the process owners is refused, as creating refuses it', async () => {
    expect((await admin.put('/api/review-settings', { processOwners: { Finance: [a.user.id], Sales: [b.user.id] } })).status).toBe(200);
    for (const reviewers of [{ type: 'users', userIds: [a.user.id] }, { type: 'processOwner' }]) {
      const body = { name: 'Q2', stages: [{ name: 'Line', reviewers }] };
      const r = await preview(body);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/Stage 1 \('Line'\) is reviewed by the assignment criteria/);
      expect((await admin.post('/api/review-periods', body)).body.message).toBe(r.body.message);
    }
  });

  it('a later stage lists its reviewers with the rows that could reach them at most', async () => {
    const r = await preview({
      name: 'Q2',
      stages: [
        { name: 'Reviewer', reviewers: { type: 'criteria' } },
        { name: 'Compliance', reviewers: { type: 'users', userIds: [c.user.id] }, passOn: 'removals' },
        { name: 'Risk owner', reviewers: { type: 'processOwner' }, passOn: 'all' },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.stages.map((s: { name: string }) => s.name)).toEqual(['Reviewer', 'Compliance', 'Risk owner']);
    expect(r.body.stages[1].reviewers).toEqual([{ userId: c.user.id, rows: 6, fallbackRows: 0 }]);
    // The fallback reviewer is stage 1's only.
    expect(counts(r.body.stages[2].reviewers)).toEqual({ [a.user.id]: 2, [b.user.id]: 2 });
  });
});

describe('refusals', () => {
  it('refuses bad bodies with 400 and the message creating the period gives', async () => {
    const stage = (reviewers: unknown) => ({
      name: 'Q3',
      stages: [
        { name: 'Reviewer', reviewers: { type: 'criteria' } },
        { name: 'Line', reviewers },
      ],
    });
    const same: [unknown, RegExp][] = [
      [{}, /Period name is required/],
      [{ name: 'Q3', stages: [] }, /at least one stage/],
      [{ name: 'Q3', stages: Array.from({ length: 4 }, (_, i) => ({ name: `S${i}`, reviewers: { type: 'criteria' } })) }, /at most 3 stages/],
      [stage({ type: 'boss' }), /reviewers must be/],
      [{ name: 'Q3', reminderDaysBefore: [7] }, /Reminders need an end date/],
      [{ name: 'Q3', stages: [{ name: ' ', reviewers: { type: 'criteria' } }] }, /Each stage needs a name/],
    ];
    const before = await written();
    for (const [body, message] of same) {
      const r = await preview(body);
      expect({ body, status: r.status }).toEqual({ body, status: 400 });
      expect(r.body.message).toMatch(message);
      const created = await admin.post('/api/review-periods', body);
      expect({ body, status: created.status, message: created.body.message }).toEqual({ body, status: 400, message: r.body.message });
    }
    const none = await preview(stage({ type: 'users', userIds: [] }));
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/Stage 2 \('Line'\) has no reviewers/);
    const unknown = await preview(stage({ type: 'users', userIds: ['00000000-0000-4000-8000-000000000000'] }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/'00000000-0000-4000-8000-000000000000' is not a user/);
    expect(await written()).toEqual(before);
  });

  it('GraphQL answers a refusal as a typed error naming it', async () => {
    const g = await admin.gql(`query ($input: CreateReviewPeriodInput!) { reviewPeriodPreview(input: $input) { __typename ... on Error { message } } }`, {
      input: {
        name: 'Q3',
        stages: [
          { name: 'Reviewer', reviewerType: 'CRITERIA' },
          { name: 'Line', reviewerType: 'USERS', userIds: [] },
        ],
      },
    });
    expect(g.body.errors, JSON.stringify(g.body)).toBeUndefined();
    expect(g.body.data.reviewPeriodPreview).toMatchObject({ __typename: 'ValidationError', message: expect.stringMatching(/no reviewers/) });
    const withUser = await admin.gql(
      `query ($input: CreateReviewPeriodInput!) { reviewPeriodPreview(input: $input) { __typename ... on QueryReviewPeriodPreviewSuccess { data { stages { reviewers { rows } } } } } }`,
      {
        input: {
          name: 'Q3',
          stages: [
            { name: 'Reviewer', reviewerType: 'CRITERIA' },
            { name: 'Line', reviewerType: 'USERS', userIds: [gid(c.user.id)] },
          ],
        },
      },
    );
    expect(withUser.body.data.reviewPeriodPreview.data.stages[1].reviewers).toEqual([{ rows: 6 }]);
  });

  it('only administrators may preview', async () => {
    expect((await a.client.post('/api/review-periods/preview', { name: 'Q3' })).status).toBe(403);
    const g = await a.client.gql('query { reviewPeriodPreview(input: { name: "Q3" }) { __typename } }');
    expect(g.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
