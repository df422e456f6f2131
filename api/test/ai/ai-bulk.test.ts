// Bulk AI categorisation as a pg-boss job, against the local OpenAI stand-in: the
// estimate before it starts, the spend cap from settings, live progress over the
// aiBulkProgress subscription, a failing risk id skipped and counted, one run at
// a time, and a run left 'running' by a stopped instance resumed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, type TestServer } from '../helpers/server.js';
import { STANDIN_KEY, STANDIN_USAGE, startOpenAiStandin, type OpenAiStandin } from '../helpers/standins/openai-standin.js';
import { seedRows } from '../helpers/seed.js';
import { collect, listening, until, wsClient } from '../helpers/ws.js';
import { resumeBulkRuns } from '../../src/services/ai/ai-bulk.js';

let standin: OpenAiStandin;
let server: TestServer;
let admin: Client;

const CALL_COST = (STANDIN_USAGE.prompt_tokens * 0.15 + STANDIN_USAGE.completion_tokens * 0.6) / 1e6;
const TYPICAL_COST = (350 * 0.15 + 25 * 0.6) / 1e6;

beforeAll(async () => {
  standin = await startOpenAiStandin();
  server = await startServer({ OPENAI_BASE_URL: standin.baseUrl, OPENAI_MAX_RETRIES: '0' });
  admin = await adminClient(server);
  expect((await admin.post('/api/admin/settings', { settingKey: 'openai_api_key', settingValue: STANDIN_KEY })).status).toBe(200);
  await seedRows(server.app.deps.prisma, [
    ...['B01', 'B02', 'B03', 'B04', 'B05', 'B06', 'B07', 'B08'].flatMap((id) => [
      { userId: 'U1', accessRiskId: id, riskDescription: `Risk ${id}` },
      { userId: 'U2', accessRiskId: id, riskDescription: `Risk ${id}` },
    ]),
  ]);
  await server.app.deps.prisma.riskRow.updateMany({ where: { accessRiskId: 'B08' }, data: { aiSuggestedCategory: 'Operational', aiCategoryConfidence: 0.5 } });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await standin?.close();
});

const state = async () => (await admin.get('/api/ai/bulk-categorize')).body;
const waitForEnd = async () => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const s = await state();
    if (s.run && s.run.status !== 'running') return s;
    if (Date.now() > deadline) throw new Error(`run still ${JSON.stringify(s.run)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};
const categorized = async () =>
  new Set(
    (await server.app.deps.prisma.riskRow.findMany({ where: { aiSuggestedCategory: { not: null } }, select: { accessRiskId: true } })).map(
      (r) => r.accessRiskId,
    ),
  );

describe('bulk categorisation', () => {
  it('estimates the cost before it starts (no call made yet: a typical call at the model price)', async () => {
    const s = await state();
    expect(s.run).toBeNull();
    expect(s.estimate).toMatchObject({ uncategorized: 7, spendCapUsd: null });
    expect(s.estimate.estimatedCostUsd).toBeCloseTo(7 * TYPICAL_COST, 5);
    expect(standin.completions()).toHaveLength(0);
  });

  it('refuses a spend cap that is not a positive number', async () => {
    const r = await admin.post('/api/admin/settings', { settingKey: 'ai_bulk_spend_cap_usd', settingValue: '-3' });
    expect(r.status).toBe(400);
    const g = await admin.gql('mutation { saveAiSpendCap(amountUsd: "lots") { __typename ... on ValidationError { message } } }');
    expect(g.body.data.saveAiSpendCap).toMatchObject({ __typename: 'ValidationError', message: expect.stringMatching(/spend cap must be a number/) });
    expect((await state()).estimate.spendCapUsd).toBeNull();
  });

  it('stops at the spend cap, reporting progress live', async () => {
    // Room for three calls: after them, a fourth would pass the cap.
    expect((await admin.post('/api/admin/settings', { settingKey: 'ai_bulk_spend_cap_usd', settingValue: String(CALL_COST * 3.5) })).status).toBe(200);
    const ws = wsClient(server.url, admin.cookieHeader);
    const events = collect(ws, 'subscription { aiBulkProgress { status done failed total costUsd } }');
    await listening(server, 'ai-bulk:progress', 1);
    const started = await admin.post('/api/ai/bulk-categorize');
    expect(started.status).toBe(202);
    expect(started.body.run).toMatchObject({ status: 'running', total: 7, done: 0 });
    const end = await waitForEnd();
    expect(end.run).toMatchObject({ status: 'capped', done: 3, failed: 0 });
    expect(end.run.error).toMatch(/spend cap/);
    expect(end.run.costUsd).toBeCloseTo(3 * CALL_COST, 6);
    expect(await categorized()).toEqual(new Set(['B01', 'B02', 'B03', 'B08']));
    await until(() => events.items.some((e) => e.data?.aiBulkProgress.status === 'CAPPED'));
    const dones = events.items.map((e) => e.data.aiBulkProgress.done);
    expect(dones).toEqual(expect.arrayContaining([0, 1, 2, 3]));
    events.dispose();
    await ws.dispose();
    // Every call is in the usage statistics.
    expect((await admin.get('/api/ai/usage-stats')).body.totalCalls).toBe(3);
  });

  it('with a higher cap, categorises the rest; a failing risk id is counted and skipped', async () => {
    expect((await admin.post('/api/admin/settings', { settingKey: 'ai_bulk_spend_cap_usd', settingValue: '5' })).status).toBe(200);
    const s = await state();
    expect(s.estimate.uncategorized).toBe(4);
    expect(s.estimate.estimatedCostUsd).toBeCloseTo(4 * CALL_COST, 6); // now the average of real calls
    standin.fail('malformed');
    expect((await admin.post('/api/ai/bulk-categorize')).status).toBe(202);
    const end = await waitForEnd();
    expect(end.run).toMatchObject({ status: 'completed', total: 4, done: 3, failed: 1 });
    expect(await categorized()).toEqual(new Set(['B01', 'B02', 'B03', 'B05', 'B06', 'B07', 'B08']));
  });

  it('one run at a time; a run left running by a stopped instance is resumed', async () => {
    const prisma = server.app.deps.prisma;
    const old = new Date(Date.now() - 5 * 60_000);
    const run = await prisma.aiBulkRun.create({ data: { total: 1, status: 'running', done: 1, createdAt: old, updatedAt: old } });
    expect((await admin.post('/api/ai/bulk-categorize')).status).toBe(409);
    // A reviewer or a token cannot start one.
    const token = await admin.post('/api/tokens', { name: 'tool', scope: 'full' });
    const t = new Client(server.url);
    t.bearer = token.body.token;
    expect((await t.post('/api/ai/bulk-categorize')).status).toBe(403);

    await resumeBulkRuns(server.app.deps);
    const deadline = Date.now() + 30_000;
    let r = await prisma.aiBulkRun.findUniqueOrThrow({ where: { id: run.id } });
    while (r.status === 'running' && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 200));
      r = await prisma.aiBulkRun.findUniqueOrThrow({ where: { id: run.id } });
    }
    expect(r).toMatchObject({ status: 'completed', done: 2 });
    expect((await categorized()).has('B04')).toBe(true);
  });
});
