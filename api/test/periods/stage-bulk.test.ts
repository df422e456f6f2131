// 'Decide all N matching' at a later stage of a multi-stage period: the
// stage-2 reviewer's decision by filter covers the rows of their stage
// matching the filter, each confirming or overturning the stage-1 decision
// as a row's own would (an overturn needs a comment, refused before
// anything is written), REST and GraphQL alike; each row audited as bulk and
// the whole as one 'decisions.bulk' event naming the stage; once they
// submitted the stage their decisions are final.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, UserClient } from '../helpers/server.js';
import { decide, twoStageReview } from '../helpers/review/two-stages.js';

let server: TestServer;
let a: UserClient;
let b: UserClient;
let rows: number[];
let periodId: string;

const byFilter = (u: UserClient, body: Record<string, unknown>) => u.client.post('/api/reviews/decisions/by-filter', body);
const stageDecisions = async () =>
  (await server.app.deps.prisma.stageDecision.findMany({ where: { periodId, stage: 2 }, orderBy: { riskRowId: 'asc' } })).map((d) => [
    Number(d.riskRowId),
    d.decision,
    d.comments,
  ]);

beforeAll(async () => {
  ({ server, a, b, rows, periodId } = await twoStageReview({ rows: 3 }));
  // Stage 1 retains every row and submits: all three reach stage 2.
  for (const id of rows) expect((await decide(a, id, 'retain')).status).toBe(200);
  expect((await a.client.post('/api/reviews/submit', {})).status).toBe(200);
});
afterAll(async () => server?.close());

describe("'Decide all N matching' at stage 2", () => {
  it('overturning without a comment is refused, naming how many rows it would overturn, and writes nothing', async () => {
    const rest = await byFilter(b, { decision: 'remove' });
    expect(rest.status).toBe(400);
    expect(rest.body.message).toBe(
      "Deciding all 3 matching rows as 'remove' overturns stage 1's decision on 3 of them: an overturn needs a comment (comments)",
    );
    const g = await b.client.gql('mutation { decideByFilter(decision: REMOVE) { __typename ... on Error { message } } }');
    expect(g.body.data.decideByFilter).toEqual({ __typename: 'ValidationError', message: rest.body.message });
    expect(await stageDecisions()).toEqual([]);
  });

  it('confirming needs no comment: the matching rows of the stage get the decision (REST)', async () => {
    const r = await byFilter(b, { filter: { userId: 'U1' }, decision: 'retain' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ count: 1 });
    expect(await stageDecisions()).toEqual([[rows[0], 'retain', null]]);
    // The list shows it as the stage's decision.
    const list = (await b.client.get('/api/assigned-risks?limit=100')).body as { risks: { id: number; decision: string }[]; pendingReview: number };
    expect(list.risks.map((x) => [x.id, x.decision])).toEqual([
      [rows[0], 'retain'],
      [rows[1], ''],
      [rows[2], ''],
    ]);
    expect(list.pendingReview).toBe(2);
  });

  it('overturning with a comment covers the rows still pending (GraphQL), each audited as bulk, the whole once with its stage', async () => {
    const g = await b.client.gql(
      'mutation { decideByFilter(filter: { decision: PENDING }, decision: REMOVE, comments: "Owner says no") { __typename ... on MutationDecideByFilterSuccess { data { count } } ... on Error { message } } }',
    );
    expect(g.body.data.decideByFilter, JSON.stringify(g.body)).toEqual({ __typename: 'MutationDecideByFilterSuccess', data: { count: 2 } });
    expect(await stageDecisions()).toEqual([
      [rows[0], 'retain', null],
      [rows[1], 'remove', 'Owner says no'],
      [rows[2], 'remove', 'Owner says no'],
    ]);
    const prisma = server.app.deps.prisma;
    const changed = await prisma.auditEvent.findMany({
      where: { periodId, action: 'stage_decision.changed', entityId: { in: [String(rows[1]), String(rows[2])] } },
    });
    expect(changed.map((e) => e.after)).toEqual([1, 2].map(() => expect.objectContaining({ stage: 2, decision: 'remove', origin: 'by-filter', bulk: true })));
    const bulk = await prisma.auditEvent.findMany({ where: { periodId, action: 'decisions.bulk' }, orderBy: { id: 'asc' } });
    expect(bulk.map((e) => e.after)).toEqual([
      expect.objectContaining({ decision: 'retain', count: 1, stage: 2, overturned: 0 }),
      expect.objectContaining({ decision: 'remove', count: 2, stage: 2, overturned: 2, comments: 'Owner says no' }),
    ]);
    // Stage 1's own decisions are untouched.
    expect((await prisma.decision.findMany({ where: { periodId } })).map((d) => d.decision)).toEqual(['retain', 'retain', 'retain']);
  });

  it('once the stage is submitted, its decisions are final for deciding all too', async () => {
    expect((await b.client.post('/api/reviews/submit', {})).status).toBe(200);
    const r = await byFilter(b, { decision: 'retain' });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("Your decisions of stage 2 ('Risk owner') are submitted and final for that stage");
  });
});
