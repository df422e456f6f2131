// Reopening stage 1 of a multi-stage period once a later stage has acted on
// it: the stage-1 reviewer's recall is refused (naming the stage), while an
// administrator's return withdraws the later stage's decisions on the
// returned rows, each audited; when the set is submitted again, the rows
// reach the later stage again and its reviewer decides them anew, even
// after submitting that stage, and the administrator approves after that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, TestServer, UserClient } from '../helpers/server.js';
import { decide, twoStageReview } from '../helpers/review/two-stages.js';

let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let r1: number;
let r2: number;
let periodId: string;

type Row = { id: number; stage: number; decision: string; previousDecisions: { stage: number; decision: string }[] };
const assigned = async (u: UserClient) => {
  const res = await u.client.get('/api/assigned-risks?limit=100');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { risks: Row[]; total: number };
};
const submitted = async () => ((await admin.get('/api/submissions')).body as { id: string; status: string }[]).find((s) => s.status === 'submitted')!;
const stageDecisions = () => server.app.deps.prisma.stageDecision.findMany({ where: { periodId }, orderBy: { riskRowId: 'asc' } });

beforeAll(async () => {
  let rows: number[];
  ({ server, admin, a, b, rows, periodId } = await twoStageReview());
  [r1, r2] = rows as [number, number];
  // A decides and submits stage 1.
  expect((await decide(a, r1, 'remove')).status).toBe(200);
  expect((await decide(a, r2, 'retain')).status).toBe(200);
  expect((await a.client.post('/api/reviews/submit', {})).status).toBe(200);
});
afterAll(async () => server?.close());

const stateOf = async (u: UserClient) => {
  const rest = (await u.client.get('/api/reviews/submission-status')).body;
  const g = await u.client.gql('{ submissionStatus { stage stageCount nextStageName canRecall status } }');
  const state = g.body.data.submissionStatus;
  // REST and GraphQL say the same.
  expect(rest).toMatchObject({ ...state, status: state.status?.toLowerCase() ?? null });
  return state as { stage: number; stageCount: number; nextStageName: string | null; canRecall: boolean; status: string };
};

describe("the stage-1 reviewer's screen follows what the server accepts", () => {
  it('after submitting, they read the stage their decisions went on to, and may recall while stage 2 has decided none of them', async () => {
    expect(await stateOf(a)).toEqual({ stage: 1, stageCount: 2, nextStageName: 'Risk owner', canRecall: true, status: 'SUBMITTED' });
    // The stage-2 reviewer's own state names no next stage (theirs is the last) and offers no recall.
    expect(await stateOf(b)).toMatchObject({ stage: 2, nextStageName: null, canRecall: false });
  });

  it('once stage 2 decided a row of the set, recall is no longer offered (the server refuses it below)', async () => {
    // B confirms both rows at stage 2 and submits it.
    expect((await decide(b, r1, 'remove')).status).toBe(200);
    expect((await stateOf(a)).canRecall).toBe(false);
    expect((await decide(b, r2, 'retain')).status).toBe(200);
    expect((await b.client.post('/api/reviews/submit', {})).status).toBe(200);
    expect(await stateOf(a)).toEqual({ stage: 1, stageCount: 2, nextStageName: 'Risk owner', canRecall: false, status: 'SUBMITTED' });
  });
});

describe('reopening stage 1 after stage 2 decided', () => {
  it("the stage-1 reviewer's recall is refused, naming the stage, and changes nothing", async () => {
    const r = await a.client.post('/api/reviews/recall', {});
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/^Stage 2 \('Risk owner'\) has already decided 2 of these rows: your submitted decisions can no longer be recalled/);
    expect((await submitted()).status).toBe('submitted');
    expect(await stageDecisions()).toHaveLength(2);
  });

  it("an administrator's return withdraws stage 2's decisions on the returned rows, each audited with what it was", async () => {
    const sub = await submitted();
    const r = await admin.put(`/api/submissions/${sub.id}/return`, { comment: 'Row 2 is a removal' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stageDecisions()).toEqual([]);
    const audit = await server.app.deps.prisma.auditEvent.findMany({ where: { periodId, action: 'stage_decision.withdrawn' }, orderBy: { entityId: 'asc' } });
    expect(audit.map((e) => [e.entityId, (e.before as { stage: number; decision: string; reviewerId: string }).decision])).toEqual([
      [String(r1), 'remove'],
      [String(r2), 'retain'],
    ]);
    expect((audit[0]!.before as { reviewerId: string }).reviewerId).toBe(b.user.id);
    // Nothing of the returned set reaches stage 2 until it is submitted again.
    expect((await assigned(b)).total).toBe(0);
  });

  it('submitted again, the rows reach stage 2 anew: its reviewer decides them although they submitted the stage, and approval follows', async () => {
    expect((await decide(a, r2, 'remove', 'Not needed after all')).status).toBe(200);
    expect((await a.client.post('/api/reviews/submit', {})).status).toBe(200);
    const mine = await assigned(b);
    expect(mine.risks.map((r) => [r.id, r.decision, r.previousDecisions.map((p) => p.decision)])).toEqual([
      [r1, '', ['remove']],
      [r2, '', ['remove']],
    ]);
    const early = await admin.put(`/api/submissions/${(await submitted()).id}/approve`, {});
    expect(early.status).toBe(409);
    expect((await decide(b, r1, 'remove')).status).toBe(200);
    expect((await decide(b, r2, 'remove')).status).toBe(200);
    // A decision made stays final once the stage was submitted.
    const again = await decide(b, r2, 'retain', 'Changed my mind');
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/submitted and final for that stage/);
    expect((await admin.put(`/api/submissions/${(await submitted()).id}/approve`, {})).status).toBe(200);
  });
});
