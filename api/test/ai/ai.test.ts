// The AI assist and its key, against a real local HTTP server speaking the
// OpenAI API (helpers/standins/openai-standin.ts) through OPENAI_BASE_URL: the key is
// encrypted at rest and never returned; categorise, accept and profile; each
// failure (no key, wrong key, rate limit, timeout, malformed or out-of-range
// reply) is a clear error with nothing stored and a failed call recorded; an
// identical request is not paid twice; usage and cost add up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { STANDIN_KEY, STANDIN_USAGE, startOpenAiStandin, type OpenAiStandin } from '../helpers/standins/openai-standin.js';
import { seedRows, type SeedRow } from '../helpers/seed.js';
import { open } from '../../src/core/secret-box.js';
import { secretKey } from '../../src/services/identity/settings.js';

let standin: OpenAiStandin;
let server: TestServer;
let admin: Client;
let reviewerA: Client;
let reviewerB: Client;

const PROFILE_MAX_ROWS = 5;
/** gpt-4o-mini: $0.15 in, $0.60 out per million tokens. */
const CALL_COST = (STANDIN_USAGE.prompt_tokens * 0.15 + STANDIN_USAGE.completion_tokens * 0.6) / 1e6;

beforeAll(async () => {
  standin = await startOpenAiStandin();
  server = await startServer({
    OPENAI_BASE_URL: standin.baseUrl,
    OPENAI_TIMEOUT_SECONDS: '1',
    OPENAI_MAX_RETRIES: '2',
    AI_PROFILE_MAX_ROWS: String(PROFILE_MAX_ROWS),
    APP_SECRET: 'test-app-secret-0123456789',
  });
  admin = await adminClient(server);
  reviewerA = (await userClient(server, admin)).client;
  const b = await userClient(server, admin);
  reviewerB = b.client;
  const sap = { system: 'SAP ERP', businessProcess: 'FI' };
  await seedRows(server.app.deps.prisma, [
    {
      userId: 'U1',
      userName: 'Alice Jones',
      accessRiskId: 'R01',
      riskDescription: 'Maintain vendor and post payment',
      riskLevel: 'high',
      ruleId: '0301',
      roleProfile: 'Z_AP_CLERK',
      compositeBusinessRole: 'COMP_FIN',
      function: 'AP01',
      functionDescription: 'AP Payments',
      action: 'FB60',
      actionDescription: 'Enter invoice',
      ...sap,
    },
    {
      userId: 'U1',
      userName: 'Alice Jones',
      accessRiskId: 'R01',
      riskDescription: 'Maintain vendor and post payment',
      riskLevel: 'high',
      ruleId: '0102',
      roleProfile: 'Z_VENDOR_MAINT',
      compositeBusinessRole: 'COMP_FIN',
      function: 'VM01',
      functionDescription: 'Vendor Master Maintenance',
      action: 'XK01',
      actionDescription: 'Create Vendor',
      ...sap,
    },
    {
      userId: 'U9',
      userName: 'Zed Other',
      accessRiskId: 'R01',
      riskDescription: 'Maintain vendor and post payment',
      riskLevel: 'high',
      ruleId: '0301',
      roleProfile: 'Z_AP_CLERK',
      ...sap,
    },
    {
      userId: 'U1',
      userName: 'Alice Jones',
      accessRiskId: 'R02',
      riskDescription: 'Change user master and assign roles',
      riskLevel: 'medium',
      ruleId: '0110',
      roleProfile: 'Z_BASIS',
      function: 'BC01',
      ...sap,
    },
    ...Array.from({ length: 12 }, (_, i): SeedRow => ({
      userId: 'U1',
      userName: 'Alice Jones',
      accessRiskId: 'R03',
      riskDescription: 'Broad role set',
      riskLevel: 'low',
      roleProfile: `P${i}`,
      function: `FN${i}`,
      action: `ACT${i}`,
    })),
  ]);
  const reviewers = await server.app.deps.prisma.user.findMany({ where: { role: 'reviewer' }, orderBy: { createdAt: 'asc' } });
  await server.app.deps.prisma.assignmentCriteria.createMany({
    data: [
      { name: 'USER ID: U1', reviewerId: reviewers[0]!.id, criteriaType: 'user_id', criteriaValue: 'U1' },
      { name: 'USER ID: U9', reviewerId: reviewers[1]!.id, criteriaType: 'user_id', criteriaValue: 'U9' },
    ],
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await standin?.close();
});

const prisma = () => server.app.deps.prisma;
const usageRows = () => prisma().aiUsage.findMany({ orderBy: { createdAt: 'asc' } });
const json = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x));
const rowsOf = (riskId: string) => prisma().riskRow.findMany({ where: { accessRiskId: riskId }, orderBy: { id: 'asc' } });

describe('the OpenAI API key', () => {
  it('is for administrators only, in REST and GraphQL', async () => {
    expect((await reviewerA.get('/api/admin/settings/openai_api_key')).status).toBe(403);
    expect((await reviewerA.post('/api/admin/settings', { settingKey: 'openai_api_key', settingValue: STANDIN_KEY })).status).toBe(403);
    expect((await reviewerA.post('/api/admin/validate-openai-key')).status).toBe(403);
    const g = await reviewerA.gql('mutation { saveOpenAiKey(apiKey: "sk-x") { __typename } }');
    expect(g.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('starts not configured; blank and wrongly formatted keys are refused with the SPEC messages', async () => {
    expect((await admin.get('/api/admin/settings/openai_api_key')).body).toEqual({ hasValue: false, updatedAt: null });
    const blank = await admin.post('/api/admin/settings', { settingKey: 'openai_api_key', settingValue: '  ', isEncrypted: true });
    expect(blank).toMatchObject({ status: 400, body: { message: 'Please enter an API key' } });
    const wrong = await admin.post('/api/admin/settings', { settingKey: 'openai_api_key', settingValue: 'pk-123', isEncrypted: true });
    expect(wrong).toMatchObject({ status: 400, body: { message: "OpenAI API keys should start with 'sk-'" } });
    const unknown = await admin.post('/api/admin/settings', { settingKey: 'smtp_password', settingValue: 'x' });
    expect(unknown.status).toBe(400);
    expect(await prisma().adminSetting.count({ where: { settingKey: 'openai_api_key' } })).toBe(0);
  });

  it('with no key, AI calls fail clearly and are recorded as failed, storing nothing', async () => {
    const r = await reviewerA.post('/api/ai/categorize-risk', { riskId: 'R01' });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/No OpenAI API key is configured/);
    expect((await rowsOf('R01')).every((x) => x.aiSuggestedCategory === null)).toBe(true);
    const [u] = await usageRows();
    expect(u).toMatchObject({ operation: 'categorize-risk', success: false });
    expect(standin.completions()).toHaveLength(0);
  });

  it('is stored encrypted (the raw column does not contain it) and never returned', async () => {
    const saved = await admin.post('/api/admin/settings', {
      settingKey: 'openai_api_key',
      settingValue: STANDIN_KEY,
      description: 'OpenAI',
      isEncrypted: true,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ hasValue: true });
    expect(JSON.stringify(saved.body)).not.toContain(STANDIN_KEY);
    const [raw] = await server.app.deps.db.sql.query<{ setting_value: string; is_encrypted: boolean }>(
      `SELECT setting_value, is_encrypted FROM admin_settings WHERE setting_key = 'openai_api_key'`,
    );
    expect(raw!.is_encrypted).toBe(true);
    expect(raw!.setting_value).not.toContain(STANDIN_KEY);
    expect(raw!.setting_value).not.toContain('standin');
    expect(raw!.setting_value.startsWith('v1:')).toBe(true);
    // Under APP_SECRET it opens; under another name it does not.
    expect(open(secretKey(server.config), raw!.setting_value, 'openai_api_key')).toBe(STANDIN_KEY);
    expect(open(secretKey(server.config), raw!.setting_value, 'other')).toBeNull();

    const status = await admin.get('/api/admin/settings/openai_api_key');
    expect(status.body.hasValue).toBe(true);
    expect(new Date(status.body.updatedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const g = await admin.gql('{ openAiKeyStatus { hasValue updatedAt } }');
    expect(g.body.data.openAiKeyStatus.hasValue).toBe(true);
    const audit = await prisma().auditEvent.findFirst({ where: { action: 'setting.updated' } });
    expect(json(audit)).not.toContain(STANDIN_KEY);
  });

  it('validates with a real call to the provider: valid, then a wrong key', async () => {
    const ok = await admin.post('/api/admin/validate-openai-key');
    expect(ok.body).toEqual({ isValid: true, error: null });
    expect(standin.requests.at(-1)).toMatchObject({ path: '/v1/models', authorization: `Bearer ${STANDIN_KEY}` });
    const g = await admin.gql('mutation { saveOpenAiKey(apiKey: "sk-wrong-key") { __typename ... on MutationSaveOpenAiKeySuccess { data { hasValue } } } }');
    expect(g.body.data.saveOpenAiKey).toEqual({ __typename: 'MutationSaveOpenAiKeySuccess', data: { hasValue: true } });
    const bad = await admin.post('/api/admin/validate-openai-key');
    expect(bad.body).toEqual({ isValid: false, error: 'The API key is not valid' });
  });

  it('a wrong key makes categorisation fail with Invalid API Key, nothing stored, the call recorded failed', async () => {
    const before = (await usageRows()).length;
    const r = await reviewerA.post('/api/ai/categorize-risk', { riskId: 'R01' });
    expect(r.status).toBe(502);
    expect(r.body.message).toMatch(/^Invalid API Key/);
    expect((await rowsOf('R01')).every((x) => x.aiSuggestedCategory === null)).toBe(true);
    const after = await usageRows();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ success: false, operation: 'categorize-risk' });
    const g = await admin.gql(`mutation { saveOpenAiKey(apiKey: "${STANDIN_KEY}") { __typename } }`);
    expect(g.body.data.saveOpenAiKey.__typename).toBe('MutationSaveOpenAiKeySuccess');
  });
});

describe('categorisation', () => {
  it('suggests a category, stores it on every row of the risk id with the time, and records tokens and cost', async () => {
    const before = (await usageRows()).length;
    const r = await reviewerA.post('/api/ai/categorize-risk', {
      riskId: 'R01',
      riskDescription: 'ignored',
      functions: ['x'],
      riskLevel: 'high',
      ruleId: '0301',
      system: 'SAP ERP',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ suggestedCategory: 'Financial', confidence: 0.87, cached: false });
    const prompt = standin.completions().at(-1)!.body.messages[1].content as string;
    expect(prompt).toContain('Maintain vendor and post payment');
    expect(prompt).toContain('AP01');
    expect(standin.completions().at(-1)!.body.response_format.type).toBe('json_schema');
    const rows = await rowsOf('R01');
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ aiSuggestedCategory: 'Financial', aiCategoryConfidence: 0.87, aiCategoryAccepted: null });
      expect(row.aiProcessedAt!.getTime()).toBe(new Date(r.body.processedAt).getTime());
    }
    const usage = await usageRows();
    expect(usage).toHaveLength(before + 1);
    expect(usage.at(-1)).toMatchObject({ success: true, model: 'gpt-4o-mini', promptTokens: 1200, completionTokens: 300, totalTokens: 1500 });
    expect(Number(usage.at(-1)!.costUsd)).toBeCloseTo(CALL_COST, 6);
  });

  it('answers an identical request from the cache: nothing sent, nothing paid', async () => {
    const sent = standin.completions().length;
    const calls = (await usageRows()).length;
    const r = await reviewerA.post('/api/ai/categorize-risk', { riskId: 'R01' });
    expect(r.body).toMatchObject({ suggestedCategory: 'Financial', cached: true, processingMs: 0 });
    expect(standin.completions()).toHaveLength(sent);
    expect(await usageRows()).toHaveLength(calls);
  });

  it('a reviewer cannot categorise or accept a risk outside their assignments', async () => {
    expect((await reviewerB.post('/api/ai/categorize-risk', { riskId: 'R02' })).status).toBe(404);
    expect((await reviewerB.post('/api/ai/accept-suggestion/R02', { accepted: true })).status).toBe(404);
  });

  it('accept and reject set aiCategoryAccepted on the rows, audited; GraphQL shows it on the risk group', async () => {
    const acc = await reviewerA.post('/api/ai/accept-suggestion/R01', { accepted: true });
    expect(acc.body).toEqual({ riskId: 'R01', accepted: true, suggestedCategory: 'Financial' });
    expect((await rowsOf('R01')).every((x) => x.aiCategoryAccepted === true)).toBe(true);
    const rej = await reviewerA.gql(
      'mutation { decideAiSuggestion(riskId: "R01", accepted: false) { ... on MutationDecideAiSuggestionSuccess { data { accepted } } } }',
    );
    expect(rej.body.data.decideAiSuggestion.data.accepted).toBe(false);
    expect((await rowsOf('R01')).every((x) => x.aiCategoryAccepted === false)).toBe(true);
    expect(await prisma().auditEvent.count({ where: { action: { in: ['ai_suggestion.accepted', 'ai_suggestion.rejected'] }, entityId: 'R01' } })).toBe(2);
    const g = await reviewerA.gql(
      '{ compositeUsers(first: 5) { edges { node { userId riskGroups { accessRiskId aiSuggestion { category confidence accepted processedAt } } } } } }',
    );
    const groups = g.body.data?.compositeUsers?.edges?.flatMap((e: any) => e.node.riskGroups) ?? [];
    if (groups.length)
      expect(groups.find((x: any) => x.accessRiskId === 'R01').aiSuggestion).toMatchObject({ category: 'Financial', confidence: 0.87, accepted: false });
    expect((await reviewerA.post('/api/ai/accept-suggestion/R02', { accepted: true })).status).toBe(404);
    expect((await reviewerA.post('/api/ai/accept-suggestion/R01', { accepted: 'yes' })).status).toBe(400);
  });
});

describe('failures of the provider', () => {
  async function failsWith(failures: Parameters<OpenAiStandin['fail']>, status: number, message: RegExp) {
    const rowsBefore = json(await rowsOf('R02'));
    const usageBefore = (await usageRows()).length;
    standin.fail(...failures);
    const r = await reviewerA.post('/api/ai/categorize-risk', { riskId: 'R02' });
    expect(r.status).toBe(status);
    expect(r.body.message).toMatch(message);
    expect(json(await rowsOf('R02'))).toBe(rowsBefore);
    const usage = await usageRows();
    expect(usage).toHaveLength(usageBefore + 1);
    expect(usage.at(-1)).toMatchObject({ success: false, operation: 'categorize-risk' });
    expect(usage.at(-1)!.error).toMatch(message);
    return usage.at(-1)!;
  }

  it('a reply that is not JSON', async () => {
    const u = await failsWith(['malformed'], 502, /not in the expected format/);
    expect(u.totalTokens).toBe(1500); // paid for, so counted
  });

  it('a category outside the four, or a confidence out of range', async () => {
    await failsWith(['out-of-range'], 502, /outside what is allowed/);
  });

  it('a rate limit that outlasts the SDK retries', async () => {
    const sent = standin.completions().length;
    await failsWith(['rate-limit', 'rate-limit', 'rate-limit'], 502, /too many requests/);
    expect(standin.completions().length - sent).toBe(3); // the first try and two retries
  });

  it('a timeout (each attempt), which never hangs the request', async () => {
    const t0 = Date.now();
    await failsWith(['hang', 'hang', 'hang'], 502, /did not answer within 1 seconds/);
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it('a rate limit that passes: the SDK retries as Retry-After says, and the answer is stored', async () => {
    const sent = standin.completions().length;
    standin.fail('rate-limit');
    const r = await reviewerA.post('/api/ai/categorize-risk', { riskId: 'R02' });
    expect(r.status).toBe(200);
    expect(standin.completions().length - sent).toBe(2);
    expect((await rowsOf('R02'))[0]!.aiSuggestedCategory).toBe('Access Control');
  });

  it('refuses wrong input with 400 before any call', async () => {
    const sent = standin.requests.length;
    expect((await reviewerA.post('/api/ai/categorize-risk', {})).status).toBe(400);
    expect((await reviewerA.post('/api/ai/categorize-risk', { riskId: 5 })).status).toBe(400);
    expect((await reviewerA.post('/api/ai/risk-profile', { accessRiskId: 'R01' })).status).toBe(400);
    expect(standin.requests.length).toBe(sent);
  });
});

describe('risk profile', () => {
  it('is written from the real rows of that risk for that user (functions, actions, roles, systems)', async () => {
    const r = await reviewerA.post('/api/ai/risk-profile', { accessRiskId: 'R01', userId: 'U1', riskDescription: 'x' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      accessRiskId: 'R01',
      riskNature: expect.any(String),
      functionAnalysis: expect.any(String),
      severityAssessment: {
        level: 'High',
        reasoning: expect.any(String),
        dimensions: expect.arrayContaining([expect.objectContaining({ dimension: 'Financial impact' })]),
      },
      conclusion: expect.any(String),
      recommendedActions: expect.arrayContaining([expect.any(String)]),
      rowsUsed: 2,
      rowsTotal: 2,
    });
    const prompt = standin.completions().at(-1)!.body.messages[1].content as string;
    for (const s of ['AP01', 'VM01', 'FB60', 'XK01', 'Z_AP_CLERK', 'Z_VENDOR_MAINT', 'COMP_FIN', 'SAP ERP']) expect(prompt).toContain(s);
    expect(prompt).not.toContain('Zed Other'); // another user's row of the same risk
    expect(await prisma().aiRiskProfile.count({ where: { accessRiskId: 'R01' } })).toBe(1);
  });

  it('carries a bounded number of rows', async () => {
    const r = await reviewerA.post('/api/ai/risk-profile', { accessRiskId: 'R03', userId: 'U1' });
    expect(r.body).toMatchObject({ rowsUsed: PROFILE_MAX_ROWS, rowsTotal: 12 });
    const prompt = standin.completions().at(-1)!.body.messages[1].content as string;
    expect(prompt).toContain(`Rows (${PROFILE_MAX_ROWS} of 12)`);
    expect(prompt).not.toContain(`FN${PROFILE_MAX_ROWS}`);
  });

  it('a malformed profile is an error and stores nothing; another reviewer gets 404', async () => {
    const before = await prisma().aiRiskProfile.count();
    standin.fail('out-of-range');
    const r = await reviewerA.post('/api/ai/risk-profile', { accessRiskId: 'R02', userId: 'U1' });
    expect(r.status).toBe(502);
    expect(await prisma().aiRiskProfile.count()).toBe(before);
    expect((await reviewerB.post('/api/ai/risk-profile', { accessRiskId: 'R01', userId: 'U1' })).status).toBe(404);
  });

  it('over GraphQL, failures are typed results with the message', async () => {
    standin.fail('malformed');
    const g = await reviewerA.gql(
      'mutation { generateRiskProfile(accessRiskId: "R02", userId: "U1") { __typename ... on BaseError { code message } ... on MutationGenerateRiskProfileSuccess { data { conclusion } } } }',
    );
    expect(g.body.data.generateRiskProfile).toMatchObject({ __typename: 'BaseError', code: 'AI_SERVICE_ERROR' });
  });
});

describe('usage statistics', () => {
  it('sum the calls of the last 30 days (admins only)', async () => {
    expect((await reviewerA.get('/api/ai/usage-stats')).status).toBe(403);
    const rows = await usageRows();
    const s = (await admin.get('/api/ai/usage-stats')).body;
    expect(s.totalCalls).toBe(rows.length);
    expect(s.successfulCalls).toBe(rows.filter((r) => r.success).length);
    expect(s.failedCalls).toBe(rows.filter((r) => !r.success).length);
    expect(s.totalTokens).toBe(rows.reduce((a, r) => a + r.totalTokens, 0));
    const paid = rows.filter((r) => r.totalTokens > 0).length;
    expect(s.totalCost).toBeCloseTo(paid * CALL_COST, 6);
    expect(s.days).toHaveLength(1);
    expect(s.days[0].calls).toBe(rows.length);
    const g = await admin.gql('{ aiUsageStats { totalCalls totalCost days { day calls cost } } }');
    expect(g.body.data.aiUsageStats.totalCalls).toBe(rows.length);
  });
});
