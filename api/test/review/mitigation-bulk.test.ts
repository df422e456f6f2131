// Mitigations and decisions by filter, over REST and GraphQL: a decision to retain
// with a mitigating control (control typed or from the export, expiry,
// required comment) shown in the lists, exports, evidence and risk analysis;
// expired mitigations listed and pending again in the next period; deciding
// every row matching a filter (switchable, marked bulk in the audit trail);
// a comment required for removals when administrators say so. A refused
// change writes nothing.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
let a: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];
let periodId: string;

const setting = (settingKey: string, settingValue: string) => admin.post('/api/admin/settings', { settingKey, settingValue });
const decisionsOf = (userId: string) => server.app.deps.prisma.decision.findMany({ where: { reviewerId: userId, periodId }, orderBy: { riskRowId: 'asc' } });
const auditCount = () => server.app.deps.prisma.auditEvent.count();

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  rows = await seedRows(server.app.deps.prisma, [
    { userId: 'U1', userName: 'Alice Jones', accessRiskId: 'R01', ruleId: '0301', system: 'SAP ERP', roleProfile: 'Z_AP', compositeBusinessRole: 'COMP_FIN' },
    { userId: 'U1', userName: 'Alice Jones', accessRiskId: 'R02', ruleId: '0201', system: 'SAP ERP', roleProfile: 'Z_GL', riskLevel: 'medium' },
    { userId: 'U2', userName: 'Bob Smith', accessRiskId: 'R03', ruleId: '0101', system: 'SAP ERP', roleProfile: 'Z_HR', riskLevel: 'low' },
    { userId: 'U3', userName: 'Carol White', accessRiskId: 'R04', ruleId: '0101', system: 'Workday', roleProfile: 'HR_ADMIN', riskLevel: 'low' },
  ]);
  // The export's Control column on the first row.
  await server.app.deps.prisma.riskRow.update({ where: { id: rows[0]! }, data: { mitigationControl: 'MC-EXPORT-7' } });
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  periodId = (await admin.post('/api/review-periods', { name: 'Q1 mitigation review' })).body.id;
});
afterAll(async () => server?.close());

describe('retain with a mitigating control', () => {
  it('needs an expiry and a comment; the control is typed or taken from the export; a refusal writes nothing; the audit trail holds it', async () => {
    const before = await auditCount();
    const noComment = await a.client.post('/api/reviews/decision', {
      riskDefinitionId: Number(rows[0]),
      decision: 'retain_mitigated',
      mitigationExpiresAt: '2099-01-31',
    });
    expect(noComment.status).toBe(400);
    expect(noComment.body.message).toBe('A mitigated decision needs a justification comment');
    // An expiry in the past is refused, over REST and GraphQL, naming the field.
    const past = { decision: 'retain_mitigated', mitigationExpiresAt: '2020-01-31', mitigationControl: 'MC-1', comments: 'Old control' };
    const pastRest = await a.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[0]), ...past });
    expect([pastRest.status, pastRest.body.message]).toEqual([400, 'The mitigation expiry date (mitigationExpiresAt) is in the past']);
    const pastGql = await a.client.gql(`mutation($d: [DecisionInput!]!) { saveDecisions(decisions: $d) { __typename ... on Error { message } } }`, {
      d: [{ riskRowId: encodeGlobalID('RiskRow', String(rows[0])), ...past, decision: 'RETAIN_MITIGATED', mitigationExpiresAt: '2020-01-31T00:00:00.000Z' }],
    });
    expect(JSON.stringify(pastGql.body)).toContain('The mitigation expiry date (mitigationExpiresAt) is in the past');
    // Row 2 has no Control column: a control must be typed. In a batch, nothing of it is saved.
    const noControl = await a.client.post('/api/reviews/decisions', {
      decisions: [
        { riskDefinitionId: Number(rows[2]), decision: 'retain' },
        { riskDefinitionId: Number(rows[1]), decision: 'retain_mitigated', mitigationExpiresAt: '2099-01-31', comments: 'Monthly check' },
      ],
    });
    expect(noControl.status).toBe(400);
    expect(noControl.body.message).toBe('A mitigated decision must name the mitigating control (the row has none in the export)');
    expect(await decisionsOf(a.user.id)).toEqual([]);
    expect(await auditCount()).toBe(before);

    const fromExport = await a.client.post('/api/reviews/decision', {
      riskDefinitionId: Number(rows[0]),
      decision: 'retain_mitigated',
      mitigationExpiresAt: '2099-01-31',
      comments: 'Dual control on payments',
    });
    expect(fromExport.body).toEqual({ success: true, saved: 1 });
    // The composite-role view offers the same (the same values again: nothing else changes).
    const composite = (expiry: string) =>
      a.client.gql(
        `mutation($d: [CompositeRoleDecisionInput!]!) { saveCompositeRoleDecisions(decisions: $d) { __typename ... on MutationSaveCompositeRoleDecisionsSuccess { data { saved roles { decision } } } ... on Error { message } } }`,
        {
          d: [
            {
              userId: 'U1',
              compositeBusinessRole: 'COMP_FIN',
              decision: 'RETAIN_MITIGATED',
              mitigationExpiresAt: expiry,
              comments: 'Dual control on payments',
            },
          ],
        },
      );
    expect(JSON.stringify((await composite('2020-01-01T00:00:00Z')).body)).toContain('The mitigation expiry date (mitigationExpiresAt) is in the past');
    expect((await composite('2099-01-31T00:00:00Z')).body.data.saveCompositeRoleDecisions).toMatchObject({
      data: { saved: 1, roles: [{ decision: 'RETAIN_MITIGATED' }] },
    });
    const typed = await a.client.gql(
      `mutation($d: [DecisionInput!]!) { saveDecisions(decisions: $d) { __typename ... on MutationSaveDecisionsSuccess { data { saved } } } }`,
      {
        d: [
          {
            riskRowId: Buffer.from(`RiskRow:${rows[1]}`).toString('base64'),
            decision: 'RETAIN_MITIGATED',
            mitigationControl: 'MC-GL-REVIEW',
            mitigationExpiresAt: '2099-06-30T00:00:00Z',
            comments: 'GL reconciliation',
          },
        ],
      },
    );
    expect(typed.body.data.saveDecisions).toEqual({ __typename: 'MutationSaveDecisionsSuccess', data: { saved: 1 } });
    // The audit trail holds the mitigation: decision, control, expiry and comment.
    const audited = await server.app.deps.prisma.auditEvent.findFirst({
      where: { action: 'decision.changed', actorId: a.user.id, periodId },
      orderBy: { id: 'desc' },
    });
    expect(audited?.after).toMatchObject({ decision: 'retain_mitigated', mitigationControl: 'MC-GL-REVIEW', comments: 'GL reconciliation' });
    expect(String((audited?.after as { mitigationExpiresAt: string }).mitigationExpiresAt)).toMatch(/^2099-06-30/);

    const list = (await a.client.get('/api/assigned-risks')).body.risks;
    expect(list.find((r: any) => r.id === Number(rows[0]))).toMatchObject({
      decision: 'retain_mitigated',
      decisionMitigationControl: 'MC-EXPORT-7',
      decisionComments: 'Dual control on payments',
    });
    expect(list.find((r: any) => r.id === Number(rows[1])).decisionMitigationControl).toBe('MC-GL-REVIEW');
    const g = await a.client.gql(`{ assignedRisks(first: 10) { edges { node { accessRiskId myDecision myMitigationControl myMitigationExpiresAt } } } }`);
    expect(g.body.data.assignedRisks.edges.map((e: any) => e.node).find((r: any) => r.accessRiskId === 'R02')).toEqual({
      accessRiskId: 'R02',
      myDecision: 'RETAIN_MITIGATED',
      myMitigationControl: 'MC-GL-REVIEW',
      myMitigationExpiresAt: '2099-06-30T00:00:00.000Z',
    });
  });

  it('appears in the risk report and in the evidence file', async () => {
    const report = await admin.get('/api/reports/risk-report?accessRiskId=R01');
    const [header, line] = String(report.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(
      header!.endsWith(
        'Decision,Decision Comments,Decided At,Reviewed By,Submission Status,Submitted At,Approved By,Approved At,Review Period,Mitigating Control,Mitigation Expires,Approver Comment,Assigned To',
      ),
    ).toBe(true);
    expect(line).toContain('retain_mitigated,Dual control on payments');
    expect(line).toMatch(/,MC-EXPORT-7,2099-01-31,,[^,]*$/);
    const evidence = await admin.get(`/api/reports/evidence?periodId=${periodId}&format=csv`);
    expect(String(evidence.body)).toMatch(/retain_mitigated,Dual control on payments,MC-EXPORT-7,2099-01-31/);
    expect(String(evidence.body)).toContain('Retained with a mitigating control,2');
  });

  it('the risk analysis counts a mitigated high-risk role as red but mitigated', async () => {
    const r = await a.client.post('/api/risk-analysis/baseline-vs-simulation', { userId: 'U1' });
    expect(r.body.analysis).toMatchObject({
      userStatus: 'red',
      redCount: 2,
      mitigatedCount: 2,
      riskBreakdown: [
        { riskId: 'R01', status: 'red', mitigated: true },
        { riskId: 'R02', status: 'red', mitigated: true },
      ],
    });
    // Simulating a plain retain of COMP_FIN: R01 stays red, no longer mitigated.
    const sim = await a.client.gql(
      `mutation { runRiskAnalysis(userId: "U1", roleDecisions: [{ compositeBusinessRole: "COMP_FIN", decision: RETAIN }]) { __typename ... on MutationRunRiskAnalysisSuccess { data { mitigatedCount riskBreakdown { riskId status mitigated } } } } }`,
    );
    if (sim.body.errors) throw new Error(JSON.stringify(sim.body.errors));
    const data = sim.body.data.runRiskAnalysis.data;
    expect(data.mitigatedCount).toBe(1);
    expect(data.riskBreakdown[0]).toEqual({ riskId: 'R01', status: 'RED', mitigated: false });
  });

  it('lists expired mitigations for administrators; in the next period they are pending, valid ones carried', async () => {
    expect((await a.client.get('/api/reviews/expired-mitigations')).status).toBe(403);
    expect((await admin.get('/api/reviews/expired-mitigations')).body).toEqual({ total: 0, items: [] });
    // Time passes for the GL mitigation: it expired yesterday.
    const yesterday = new Date(Date.now() - 86_400_000);
    await server.app.deps.prisma.decision.updateMany({ where: { riskRowId: rows[1]! }, data: { mitigationExpiresAt: yesterday } });
    const expired = (await admin.get('/api/reviews/expired-mitigations')).body;
    expect(expired.total).toBe(1);
    expect(expired.items[0]).toMatchObject({
      userId: 'U1',
      accessRiskId: 'R02',
      mitigationControl: 'MC-GL-REVIEW',
      mitigationExpiresAt: yesterday.toISOString().slice(0, 10),
      reviewer: a.email,
      periodName: 'Q1 mitigation review',
    });
    const g = await admin.gql(`{ expiredMitigations { total items { accessRiskId mitigationControl reviewer } } }`);
    expect(g.body.data.expiredMitigations).toEqual({ total: 1, items: [{ accessRiskId: 'R02', mitigationControl: 'MC-GL-REVIEW', reviewer: a.email }] });

    expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    const next = await admin.post('/api/review-periods', { name: 'Q2 mitigation review' });
    expect(next.status).toBe(201);
    const list = (await a.client.get('/api/assigned-risks')).body.risks;
    expect(list.find((r: any) => r.id === Number(rows[0]))).toMatchObject({ decision: 'retain_mitigated', decisionMitigationControl: 'MC-EXPORT-7' });
    expect(list.find((r: any) => r.id === Number(rows[1])).decision).toBe('');
    expect((await admin.get('/api/reviews/expired-mitigations')).body.total).toBe(0);
    const carried = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'decisions.mitigations_carried', periodId: next.body.id } });
    expect(carried?.after).toMatchObject({ fromPeriodId: periodId, count: 1 });
    periodId = next.body.id;
  });
});

describe('a comment required for removals', () => {
  it('only administrators set the rule, as "true" or "false"', async () => {
    expect((await a.client.post('/api/admin/settings', { settingKey: 'review.requireRemovalComment', settingValue: 'true' })).status).toBe(403);
    const bad = await setting('review.requireRemovalComment', 'yes');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('review.requireRemovalComment must be "true" or "false"');
    expect((await a.client.get('/api/reviews/rules')).body).toEqual({ requireRemovalComment: false, allowBulkApproval: true });
    expect((await setting('review.requireRemovalComment', 'true')).status).toBe(200);
    expect((await a.client.get('/api/reviews/rules')).body).toEqual({ requireRemovalComment: true, allowBulkApproval: true });
  });

  it('is enforced on single, batch, by-filter and GraphQL decisions; with a comment the removal is saved', async () => {
    const before = await decisionsOf(a.user.id);
    const audits = await auditCount();
    const msg = 'A removal needs a justification comment: administrators require one';
    const single = await a.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[2]), decision: 'remove', comments: '  ' });
    expect(single.status).toBe(400);
    expect(single.body.message).toBe(`Decision 1: ${msg}`);
    const batch = await a.client.post('/api/reviews/decisions', {
      decisions: [
        { riskDefinitionId: Number(rows[2]), decision: 'retain' },
        { riskDefinitionId: Number(rows[1]), decision: 'remove' },
      ],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.message).toBe(`Decision 2: ${msg}`);
    const byFilter = await a.client.post('/api/reviews/decisions/by-filter', { filter: { system: 'SAP ERP' }, decision: 'remove' });
    expect(byFilter.status).toBe(400);
    expect(byFilter.body.message).toBe(msg);
    const g = await a.client.gql(`mutation { decideByFilter(decision: REMOVE) { __typename ... on Error { message } } }`);
    expect(g.body.data.decideByFilter).toEqual({ __typename: 'ValidationError', message: msg });
    expect(await decisionsOf(a.user.id)).toEqual(before);
    expect(await auditCount()).toBe(audits);

    const ok = await a.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[2]), decision: 'remove', comments: 'Left the HR team' });
    expect(ok.body).toEqual({ success: true, saved: 1 });
    expect((await setting('review.requireRemovalComment', 'false')).status).toBe(200);
    expect((await a.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[2]), decision: 'remove' })).body.saved).toBe(1);
  });
});

describe('deciding every item matching a filter', () => {
  it("decides the caller's matching rows in one go, marked bulk in the audit trail", async () => {
    // The reviewer's list is SAP ERP (3 rows); of them, the two pending ones.
    const r = await a.client.post('/api/reviews/decisions/by-filter', {
      filter: { decision: 'pending' },
      decision: 'retain',
      comments: 'Confirmed with the manager',
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ count: 1 });
    const all = await a.client.post('/api/reviews/decisions/by-filter', { filter: { search: 'Alice' }, decision: 'retain', comments: 'Confirmed' });
    expect(all.body).toEqual({ count: 2 });
    const list = (await a.client.get('/api/assigned-risks')).body;
    expect(list.risks.map((x: any) => x.decision).sort()).toEqual(['remove', 'retain', 'retain']);
    // Not the row outside the reviewer's list (Workday).
    expect(await server.app.deps.prisma.decision.count({ where: { riskRowId: rows[3]! } })).toBe(0);
    const events = await server.app.deps.prisma.auditEvent.findMany({
      where: { action: 'decision.changed', periodId, actorId: a.user.id },
      orderBy: { id: 'desc' },
      take: 2,
    });
    expect(events.map((e) => (e.after as any).bulk)).toEqual([true, true]);
    const summary = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'decisions.bulk', actorId: a.user.id }, orderBy: { id: 'desc' } });
    expect(summary?.after).toMatchObject({ decision: 'retain', count: 2, filter: { search: 'Alice' } });
  });

  it("an administrator's queue by filter, and a mitigation by filter (GraphQL)", async () => {
    const g = await admin.gql(
      `mutation { decideByFilter(filter: { system: "Workday" }, decision: RETAIN_MITIGATED, mitigationControl: "MC-HR", mitigationExpiresAt: "2099-12-31T00:00:00Z", comments: "Quarterly HR check") { __typename ... on MutationDecideByFilterSuccess { data { count } } ... on Error { message } } }`,
    );
    expect(g.body.data.decideByFilter).toEqual({ __typename: 'MutationDecideByFilterSuccess', data: { count: 1 } });
    const d = await server.app.deps.prisma.decision.findFirst({ where: { riskRowId: rows[3]!, periodId } });
    expect(d).toMatchObject({ decision: 'retain_mitigated', mitigationControl: 'MC-HR', comments: 'Quarterly HR check' });
    const bad = await admin.post('/api/reviews/decisions/by-filter', { filter: { riskLevel: 'severe' }, decision: 'retain' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Unknown risk level 'severe': use high, medium or low");
  });

  it('is refused with a clear message once administrators switch it off; nothing is written', async () => {
    expect((await setting('review.allowBulkApproval', 'false')).status).toBe(200);
    const before = await decisionsOf(a.user.id);
    const audits = await auditCount();
    const r = await a.client.post('/api/reviews/decisions/by-filter', { filter: {}, decision: 'remove', comments: 'All gone' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Deciding every matching item at once is switched off by an administrator. Select the items on the page instead.');
    const g = await a.client.gql(`mutation { decideByFilter(decision: RETAIN) { __typename ... on Error { message } } }`);
    expect(g.body.data?.decideByFilter?.message ?? g.body.errors?.[0]?.message).toMatch(/switched off by an administrator/);
    expect(await decisionsOf(a.user.id)).toEqual(before);
    expect(await auditCount()).toBe(audits);
    // Page selections still work.
    expect((await a.client.post('/api/reviews/decisions', { decisions: [{ riskDefinitionId: Number(rows[2]), decision: 'retain' }] })).body.saved).toBe(1);
    const rules = await admin.gql(
      `mutation { saveReviewRules(allowBulkApproval: true) { __typename ... on MutationSaveReviewRulesSuccess { data { settingKey } } } }`,
    );
    expect(rules.body.data.saveReviewRules.data).toEqual([{ settingKey: 'review.allowBulkApproval' }]);
    expect((await a.client.post('/api/reviews/decisions/by-filter', { filter: { userId: 'U2' }, decision: 'retain' })).body).toEqual({ count: 1 });
  });

  it("the period's evidence file carries the bulk decisions' audit events and the removal's required comment", async () => {
    const evidence = String((await admin.get(`/api/reports/evidence?periodId=${periodId}&format=csv`)).body);
    expect(evidence.match(/,decisions\.bulk,/g)?.length).toBeGreaterThanOrEqual(2);
    expect(evidence).toMatch(/""bulk"":\s?true/);
    expect(evidence).toContain('Left the HR team');
  });
});
