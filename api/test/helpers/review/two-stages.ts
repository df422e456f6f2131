// The fixture of the stage tests (api/test/review/stage-*.test.ts): a server
// with reviewer A, who reviews stage 1 by the assignment criterion 'risk R1',
// and reviewer B, stage 2's listed reviewer ('Risk owner', every decision
// passed on), over high rows U1, U2, ... of risk R1, in an active two-stage
// period. A test adds what it is about: the period's dates, a stage's deadline.
import { expect } from 'vitest';
import { adminClient, startServer, userClient, type Client, type TestServer, type UserClient } from '../server.js';
import { seedRows } from '../seed.js';

export interface TwoStageReview {
  server: TestServer;
  admin: Client;
  /** Stage 1's reviewer (the criterion risk R1). */
  a: UserClient;
  /** Stage 2's reviewer. */
  b: UserClient;
  /** The rows' ids, U1 first. */
  rows: number[];
  periodId: string;
}

export interface TwoStageOptions {
  /** How many rows (default 2). */
  rows?: number;
  /** More of the create body (name, endDate, reminderDaysBefore). */
  period?: Record<string, unknown>;
  /** More of each stage's plan, stage 1's then stage 2's (an endDate). */
  stages?: [Record<string, unknown>, Record<string, unknown>];
}

export async function twoStageReview(opts: TwoStageOptions = {}): Promise<TwoStageReview> {
  const server = await startServer();
  const admin = await adminClient(server);
  const a = await userClient(server, admin);
  const b = await userClient(server, admin);
  const seeded = Array.from({ length: opts.rows ?? 2 }, (_, i) => ({ userId: `U${i + 1}`, accessRiskId: 'R1', riskLevel: 'high' as const }));
  const rows = (await seedRows(server.app.deps.prisma, seeded)).map(Number);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'risk_id', criteriaValue: 'R1' })).status).toBe(201);
  const [one, two] = opts.stages ?? [{}, {}];
  const created = await admin.post('/api/review-periods', {
    name: 'Two stages',
    ...opts.period,
    stages: [
      { name: 'Reviewer', reviewers: { type: 'criteria' }, ...one },
      { name: 'Risk owner', reviewers: { type: 'users', userIds: [b.user.id] }, passOn: 'all', ...two },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { server, admin, a, b, rows, periodId: created.body.id };
}

/** One decision on one row through REST, as the reviewer's screen saves it. */
export const decide = (u: UserClient, riskDefinitionId: number, decision: string, comments?: string) =>
  u.client.post('/api/reviews/decision', { riskDefinitionId, decision, ...(comments ? { comments } : {}) });
