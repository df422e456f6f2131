// Deadlines of a review period: an end date with
// reminder points, reminders to reviewers with pending items (notification and
// e-mail, once each, never to those who are done), the escalation to
// administrators after the end, and the default decision applied at close.
// The deadline job's tick is called with chosen times: a controllable clock,
// no waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/standins/smtp.js';
import { seedRows } from '../helpers/seed.js';
import { ESCALATION_TITLE, REMINDER_TITLE, pendingWork, tickReminders } from '../../src/services/review/reminders.js';
import { DEFAULT_AT_CLOSE_COMMENT } from '../../src/services/review/periods.js';
import { JOBS } from '../../src/db/queue.js';

const DAY = 24 * 60 * 60 * 1000;
let smtp: TestSmtp;
let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let c: UserClient;
let rows: bigint[];

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'GRC Platform <grc@example.com>' });
  admin = await adminClient(server);
  [a, b, c] = (await userClients(server, admin, 3)) as [UserClient, UserClient, UserClient];
  rows = await seedRows(server.app.deps.prisma, [
    { userId: 'U1', accessRiskId: 'R01', system: 'SAP ERP', roleProfile: 'Z_AP' },
    { userId: 'U1', accessRiskId: 'R02', system: 'SAP ERP', roleProfile: 'Z_GL' },
    { userId: 'U2', accessRiskId: 'R03', system: 'SAP ERP', roleProfile: 'Z_AP' },
    { userId: 'U3', accessRiskId: 'R04', system: 'Workday', roleProfile: 'HR_ADMIN' },
    { userId: 'U4', accessRiskId: 'R05', system: 'Active Directory', roleProfile: 'DOMAIN_ADMIN' },
  ]);
  // A: the three SAP ERP rows; B: Workday; C: user U4.
  for (const [who, criteriaType, criteriaValue] of [
    [a, 'system', 'SAP ERP'],
    [b, 'system', 'Workday'],
    [c, 'user_id', 'U4'],
  ] as const) {
    expect((await admin.post('/api/assignment-criteria', { reviewerId: who.user.id, criteriaType, criteriaValue })).status).toBe(201);
  }
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const decide = (cl: Client, id: bigint, decision: string) => cl.post('/api/reviews/decision', { riskDefinitionId: Number(id), decision });
const tick = (at: Date) => tickReminders(server.app.deps, at);
const titles = async (cl: Client) => ((await cl.get('/api/notifications')).body.notifications as any[]).map((n) => n.title);
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
async function settle() {
  // Mail goes out as a job; give the worker a moment to deliver what was queued.
  await new Promise((r) => setTimeout(r, 1500));
}

describe('creating a period with a deadline', () => {
  it('refuses a bad end date, reminders without one, bad reminder days and an unknown default at close', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: 'P', endDate: 'next friday' }, 400, 'End date is not a valid date'],
      [{ name: 'P', endDate: new Date(Date.now() - DAY).toISOString() }, 409, 'The end date must be after the start date'],
      [{ name: 'P', reminderDaysBefore: [7] }, 400, 'Reminders need an end date'],
      [
        { name: 'P', endDate: new Date(Date.now() + 9 * DAY).toISOString(), reminderDaysBefore: [0] },
        400,
        'Reminder days must be whole numbers of days from 1 to 365',
      ],
      [
        { name: 'P', endDate: new Date(Date.now() + 9 * DAY).toISOString(), reminderDaysBefore: [1.5] },
        400,
        'Reminder days must be whole numbers of days from 1 to 365',
      ],
      [{ name: 'P', endDate: new Date(Date.now() + 9 * DAY).toISOString(), reminderDaysBefore: '7' }, 400, 'Reminder days must be a list of days'],
      [{ name: 'P', defaultDecisionAtClose: 'approve' }, 400, 'Default at close must be pending, retain or remove'],
    ];
    for (const [body, status, message] of cases) {
      const r = await admin.post('/api/review-periods', body);
      expect(r.body.message, JSON.stringify(body)).toBe(message);
      expect(r.status).toBe(status);
    }
    expect((await admin.get('/api/review-periods/active')).body).toBeNull();
    const g = await admin.gql(`mutation { createReviewPeriod(input: { name: "G", reminderDaysBefore: [3] }) { __typename ... on Error { message } } }`);
    expect(g.body.data.createReviewPeriod).toEqual({ __typename: 'ValidationError', message: 'Reminders need an end date' });
  });

  it('the deadline job is scheduled in the database (it survives restarts)', async () => {
    const schedules = await server.app.deps.jobs.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain(JOBS.periodDeadlines);
  });
});

describe('reminders and escalation, on a controlled clock', () => {
  let periodId: string;
  let end: Date;

  it('stores the end date, the reminder points (deduplicated, latest first) and the default at close', async () => {
    end = new Date(Date.now() + 10 * DAY);
    const r = await admin.post('/api/review-periods', {
      name: 'Q1 deadline review',
      endDate: end.toISOString(),
      reminderDaysBefore: [1, 7, 7],
      defaultDecisionAtClose: 'remove',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ endDate: end.toISOString(), reminderDaysBefore: [7, 1], defaultDecisionAtClose: 'remove' });
    periodId = r.body.id;
    // B decides their only item: B is done and is never reminded.
    expect((await decide(b.client, rows[3]!, 'retain')).status).toBe(200);
  });

  it('before the first point nothing is sent', async () => {
    expect(await tick(new Date(end.getTime() - 8 * DAY))).toEqual({ reminded: 0, escalated: 0 });
    expect(await titles(a.client)).not.toContain(REMINDER_TITLE);
  });

  it('at 7 days, each reviewer with pending items gets a notification and an e-mail, once; a reviewer who is done gets nothing', async () => {
    const at = new Date(end.getTime() - 7 * DAY + 60_000);
    expect(await tick(at)).toEqual({ reminded: 2, escalated: 0 });
    // The same point again (the next run, another instance, a restart): nothing more.
    expect(await tick(new Date(at.getTime() + 3_600_000))).toEqual({ reminded: 0, escalated: 0 });

    const na = ((await a.client.get('/api/notifications')).body.notifications as any[]).filter((n) => n.title === REMINDER_TITLE);
    expect(na).toHaveLength(1);
    expect(na[0]).toMatchObject({ type: 'warning', targetType: 'specific' });
    expect(na[0].message).toBe(
      `You have 3 pending items in the review period 'Q1 deadline review', which ends on ${end.toISOString().slice(0, 10)} (in 7 days).`,
    );
    expect((await titles(c.client)).filter((t) => t === REMINDER_TITLE)).toHaveLength(1);
    expect(await titles(b.client)).not.toContain(REMINDER_TITLE);

    const mail = await smtp.waitFor(a.email);
    expect(mail.subject).toBe(`Reminder: 'Q1 deadline review' ends on ${end.toISOString().slice(0, 10)}`);
    expect(mail.body).toContain('You have 3 pending items');
    await smtp.waitFor(c.email);
    await settle();
    expect(mailsTo(a.email)).toHaveLength(1);
    expect(mailsTo(b.email)).toHaveLength(0);
  });

  it('at 1 day, only reviewers still pending are reminded; two runs at once send one reminder', async () => {
    for (const id of rows.slice(0, 3)) expect((await decide(a.client, id, 'retain')).status).toBe(200);
    const at = new Date(end.getTime() - DAY + 60_000);
    const [x, y] = await Promise.all([tick(at), tick(at)]);
    expect(x.reminded + y.reminded).toBe(1);
    expect((await titles(c.client)).filter((t) => t === REMINDER_TITLE)).toHaveLength(2);
    expect((await titles(a.client)).filter((t) => t === REMINDER_TITLE)).toHaveLength(1);
    await settle();
    expect(mailsTo(c.email)).toHaveLength(2);
    expect(mailsTo(a.email)).toHaveLength(1);
  });

  it('after the end, administrators get one escalation listing who is late with their counts', async () => {
    expect(await tick(new Date(end.getTime() + 60_000))).toEqual({ reminded: 0, escalated: 1 });
    expect(await tick(new Date(end.getTime() + 2 * DAY))).toEqual({ reminded: 0, escalated: 0 });
    const esc = ((await admin.get('/api/notifications')).body.notifications as any[]).filter((n) => n.title === ESCALATION_TITLE);
    expect(esc).toHaveLength(1);
    expect(esc[0].type).toBe('urgent');
    expect(esc[0].message).toContain('1 reviewer is late with 1 pending item');
    expect(esc[0].message).toContain(`<${c.email}>: 1 pending item`);
    expect(esc[0].message).not.toContain(a.email);
    const mail = await smtp.waitFor('admin@example.com');
    expect(mail.subject).toBe("Overdue: 'Q1 deadline review' ended with pending items");
    expect(mail.body).toContain(c.email);
  });

  it('what was sent is listed for administrators (REST and GraphQL) and is in the audit trail and the evidence file', async () => {
    const r = await admin.get(`/api/review-periods/${periodId}/reminders`);
    expect(r.status).toBe(200);
    const seen = (r.body as any[]).map((m) => [m.kind, m.daysBefore, m.recipient.email, m.pendingCount]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['reminder', 7, a.email, 3],
        ['reminder', 7, c.email, 1],
        ['reminder', 1, c.email, 1],
        ['escalation', 0, 'admin@example.com', 1],
      ]),
    );
    expect(seen).toHaveLength(4);
    expect((await a.client.get(`/api/review-periods/${periodId}/reminders`)).status).toBe(403);
    expect((await admin.get('/api/review-periods/00000000-0000-4000-8000-000000000000/reminders')).status).toBe(404);

    const g = await admin.gql(
      `{ activeReviewPeriod { reminderDaysBefore defaultDecisionAtClose reminders { kind daysBefore pendingCount recipient { email } } } }`,
    );
    expect(g.body.data.activeReviewPeriod).toMatchObject({ reminderDaysBefore: [7, 1], defaultDecisionAtClose: 'REMOVE' });
    expect(g.body.data.activeReviewPeriod.reminders).toHaveLength(4);

    const audit = await server.app.deps.prisma.auditEvent.findMany({ where: { periodId, action: { in: ['period.reminder_sent', 'period.escalation_sent'] } } });
    expect(audit.map((e) => e.action).sort()).toEqual(['period.escalation_sent', 'period.reminder_sent', 'period.reminder_sent', 'period.reminder_sent']);
    expect(audit.every((e) => e.actorLabel === 'system')).toBe(true);
    // The period's evidence file (its audit trail and its end date) carries them too.
    const evidence = String((await admin.get(`/api/reports/evidence?periodId=${periodId}&format=csv`)).body);
    expect(evidence.match(/period\.reminder_sent/g)).toHaveLength(3);
    expect(evidence.match(/period\.escalation_sent/g)).toHaveLength(1);
    expect(evidence).toContain(end.toISOString());
  });
});

describe('default at close', () => {
  it('closing applies the default to items without a decision in the same transaction, in the audit trail and the evidence; decisions made stay', async () => {
    const period = (await admin.get('/api/review-periods/active')).body;
    expect(period.defaultDecisionAtClose).toBe('remove');
    const closed = await admin.put(`/api/review-periods/${period.id}/close`);
    expect(closed.status).toBe(200);

    const { prisma } = server.app.deps;
    const decisions = await prisma.decision.findMany({ where: { periodId: period.id }, orderBy: { riskRowId: 'asc' } });
    expect(decisions.map((d) => [d.riskRowId, d.reviewerId, d.decision, d.appliedAtClose])).toEqual([
      [rows[0], a.user.id, 'retain', false],
      [rows[1], a.user.id, 'retain', false],
      [rows[2], a.user.id, 'retain', false],
      [rows[3], b.user.id, 'retain', false],
      [rows[4], c.user.id, 'remove', true],
    ]);
    expect(decisions[4]!.comments).toBe(DEFAULT_AT_CLOSE_COMMENT);
    expect((await pendingWork(prisma, period.id)).map((w) => w.pending)).toEqual([0, 0, 0]);

    const applied = await prisma.auditEvent.findFirst({ where: { periodId: period.id, action: 'period.default_applied' } });
    expect(applied?.after).toMatchObject({
      defaultDecisionAtClose: 'remove',
      decisions: 1,
      byReviewer: [{ reviewerId: c.user.id, reviewer: c.email, count: 1 }],
    });

    const evidence = await admin.get(`/api/reports/evidence?periodId=${period.id}&format=csv`);
    expect(evidence.status).toBe(200);
    expect(String(evidence.body)).toContain(DEFAULT_AT_CLOSE_COMMENT);

    // No reminders or escalations for a closed period.
    expect(await tick(new Date(Date.now() + 30 * DAY))).toEqual({ reminded: 0, escalated: 0 });

    // Reopening takes the default back: the item is pending again.
    expect((await admin.put(`/api/review-periods/${period.id}/open`)).status).toBe(200);
    expect(await prisma.decision.count({ where: { periodId: period.id, appliedAtClose: true } })).toBe(0);
    expect((await pendingWork(prisma, period.id)).find((w) => w.reviewer.id === c.user.id)?.pending).toBe(1);
    expect(await prisma.auditEvent.count({ where: { periodId: period.id, action: 'period.default_withdrawn' } })).toBe(1);
    expect((await admin.put(`/api/review-periods/${period.id}/close`)).status).toBe(200);
    expect(await prisma.decision.count({ where: { periodId: period.id, appliedAtClose: true } })).toBe(1);
  });

  it("'pending' (the default) leaves items without a decision; retain is set over GraphQL", async () => {
    const { prisma } = server.app.deps;
    const p = await admin.post('/api/review-periods', { name: 'Leave pending' });
    expect(p.body.defaultDecisionAtClose).toBe('pending');
    await admin.put(`/api/review-periods/${p.body.id}/close`);
    expect(await prisma.decision.count({ where: { periodId: p.body.id } })).toBe(0);

    const end = new Date(Date.now() + 5 * DAY).toISOString();
    const g = await admin.gql(
      `mutation($input: CreateReviewPeriodInput!) { createReviewPeriod(input: $input) { __typename ... on MutationCreateReviewPeriodSuccess { data { id endDate reminderDaysBefore defaultDecisionAtClose } } ... on Error { message } } }`,
      { input: { name: 'Retain by default', endDate: end, reminderDaysBefore: [2], defaultDecisionAtClose: 'RETAIN' } },
    );
    const created = g.body.data.createReviewPeriod.data;
    expect(created).toMatchObject({ endDate: end, reminderDaysBefore: [2], defaultDecisionAtClose: 'RETAIN' });
    const bad = await admin.gql(`mutation { createReviewPeriod(input: { name: "x", defaultDecisionAtClose: approve }) { __typename } }`);
    expect(bad.body.errors?.[0]?.message).toMatch(/approve/);
    const closed = await admin.gql(`mutation($id: ID!) { closeReviewPeriod(id: $id) { __typename } }`, { id: created.id });
    expect(closed.body.data.closeReviewPeriod.__typename).toBe('MutationCloseReviewPeriodSuccess');
    const periodId = (await prisma.reviewPeriod.findFirstOrThrow({ where: { name: 'Retain by default' } })).id;
    const defaults = await prisma.decision.findMany({ where: { periodId, appliedAtClose: true } });
    expect(defaults).toHaveLength(5);
    expect(new Set(defaults.map((d) => d.decision))).toEqual(new Set(['retain']));
  });
});
