// 'Purge All Risk Data': one transaction removes exactly the listed data (risk
// definitions and uploads, simulations and analysis data, review decisions and
// submissions, assignments); users, settings, review periods, notifications,
// AI usage, the remediation list (approved removals and who set their status
// when: evidence of the review) and the audit trail stay; the purge is audited, and open pages hear
// of it through the riskDataPurged subscription.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { collect, listening, until, wsClient } from '../helpers/ws.js';

let server: TestServer;
let admin: Client;
let reviewer: Client;

const count = async (table: string) => {
  const [r] = await server.app.deps.db.sql.query<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(r!.n);
};

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  const r = await userClient(server, admin);
  reviewer = r.client;
  const prisma = server.app.deps.prisma;
  const ids = await seedRows(prisma, [
    { userId: 'U1', accessRiskId: 'R01', riskLevel: 'high' },
    { userId: 'U1', accessRiskId: 'R02', riskLevel: 'low' },
    { userId: 'U2', accessRiskId: 'R01', riskLevel: 'high' },
  ]);
  await prisma.assignmentCriteria.create({ data: { name: 'USER ID: U1', reviewerId: r.user.id, criteriaType: 'user_id', criteriaValue: 'U1' } });
  expect((await admin.post('/api/review-periods', { name: 'Q4', startDate: new Date().toISOString() })).status).toBeLessThan(300);
  const period = (await prisma.reviewPeriod.findFirst({ where: { status: 'active' } }))!;
  const sub = await prisma.submission.create({ data: { periodId: period.id, reviewerId: r.user.id, decisionCount: 1 } });
  await prisma.decision.create({ data: { periodId: period.id, reviewerId: r.user.id, riskRowId: ids[0]!, decision: 'retain', submissionId: sub.id } });
  await prisma.upload.create({ data: { originalName: 'a.csv', fileName: 'gone.csv', status: 'completed', live: true } });
  await prisma.analysisResult.create({ data: { subjectUserId: 'U1', status: 'red', riskBreakdown: [] } });
  await prisma.simulation.create({ data: { subjectUserId: 'U1', accessRiskId: 'R01', scenarios: [] } });
  await prisma.aiRiskProfile.create({ data: { accessRiskId: 'R01', profile: {}, model: 'gpt-4o-mini' } });
  await prisma.aiUsage.create({ data: { operation: 'categorize-risk', model: 'gpt-4o-mini', success: true } });
  await prisma.adminSetting.create({ data: { settingKey: 'openai_api_key', settingValue: 'v1:x', isEncrypted: true } });
  expect((await admin.post('/api/notifications', { title: 'Hello', message: 'Keep me', type: 'info', targetType: 'all' })).status).toBeLessThan(300);
  const adminUser = (await prisma.user.findFirst({ where: { role: 'admin' } }))!;
  await prisma.remediationItem.create({
    data: {
      periodId: period.id,
      userId: 'U1',
      userName: 'User One',
      system: 'PRD',
      roleProfile: 'Z_AP_CLERK',
      riskIds: 'R01',
      riskLevel: 'high',
      decidedBy: 'rev',
      approvedBy: 'admin',
      approvedAt: new Date(),
      status: 'done',
      statusNote: 'revoked in PRD',
      statusSetById: adminUser.id,
      statusSetBy: 'Administrator',
      statusSetAt: new Date('2026-11-30T10:00:00Z'),
    },
  });
  await prisma.remediationSource.create({ data: { submissionId: sub.id } });
}, 60_000);
afterAll(async () => server?.close());

describe('purge', () => {
  it('is for administrators signed in (not reviewers, not API tokens)', async () => {
    expect((await reviewer.request('DELETE', '/api/admin/purge-risk-data')).status).toBe(403);
    const token = await admin.post('/api/tokens', { name: 'tool', scope: 'full' });
    const t = new Client(server.url);
    t.bearer = token.body.token;
    expect((await t.request('DELETE', '/api/admin/purge-risk-data')).status).toBe(403);
    expect(await count('risk_rows')).toBe(3);
  });

  it('removes exactly the listed data in one step, keeps the rest, is audited and announced', async () => {
    const keep = {
      remediation_items: await count('remediation_items'),
      users: await count('users'),
      admin_settings: await count('admin_settings'),
      notifications: await count('notifications'),
      review_periods: await count('review_periods'),
      ai_usage: await count('ai_usage'),
    };
    const auditBefore = await count('audit_events');
    const ws = wsClient(server.url, reviewer.cookieHeader);
    const events = collect(ws, 'subscription { riskDataPurged { purgedAt } }');
    await listening(server, 'risk-data:purged', 1);

    const r = await admin.request('DELETE', '/api/admin/purge-risk-data');
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('All user risk data has been purged successfully');
    expect(r.body.deleted).toEqual({
      riskRows: 3,
      uploads: 1,
      decisions: 1,
      submissions: 1,
      assignments: 1,
      analysisResults: 1,
      simulations: 1,
      aiRiskProfiles: 1,
    });

    for (const t of [
      'risk_rows',
      'risk_terms',
      'uploads',
      'decisions',
      'submissions',
      'assignment_criteria',
      'analysis_results',
      'simulations',
      'ai_risk_profiles',
      'ai_response_cache',
    ]) {
      expect(await count(t), t).toBe(0);
    }
    for (const [t, n] of Object.entries(keep)) expect(await count(t), t).toBe(n);
    expect(keep.remediation_items).toBe(1);
    // The remediation list is evidence: each approved removal keeps its status, who set it and when.
    const list = await admin.get('/api/remediation');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain('revoked in PRD');
    const item = (await server.app.deps.prisma.remediationItem.findFirst())!;
    expect(item).toMatchObject({ status: 'done', statusSetBy: 'Administrator', statusSetAt: new Date('2026-11-30T10:00:00Z') });
    expect(await count('audit_events')).toBe(auditBefore + 1);
    const audit = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'risk_data.purged' } });
    expect(audit).toMatchObject({ entityType: 'RiskData' });

    await until(() => events.items.length > 0, 5000);
    expect(events.items[0].data.riskDataPurged.purgedAt).toBeTruthy();
    events.dispose();
    await ws.dispose();

    // The pages' queries show the emptiness.
    expect((await admin.get('/api/dashboard/stats')).body).toMatchObject({ totalConflicts: 0 });
    expect((await reviewer.get('/api/assigned-risks')).body).toMatchObject({ totalAssigned: 0 });
  });

  it('over GraphQL too', async () => {
    const g = await admin.gql('mutation { purgeRiskData { __typename ... on MutationPurgeRiskDataSuccess { data { deleted { riskRows } } } } }');
    expect(g.body.data.purgeRiskData).toEqual({ __typename: 'MutationPurgeRiskDataSuccess', data: { deleted: { riskRows: 0 } } });
  });

  it('is refused while a file is being processed', async () => {
    await server.app.deps.prisma.upload.create({ data: { originalName: 'b.csv', fileName: 'b.csv', status: 'processing' } });
    const r = await admin.request('DELETE', '/api/admin/purge-risk-data');
    expect(r.status).toBe(409);
    expect(await count('uploads')).toBe(1);
  });
});
