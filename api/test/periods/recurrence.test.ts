// Recurring review periods: a template (name pattern, duration, reminders,
// default at close, schedule) makes the next period on its schedule, through
// the recurrence job's pass called with chosen times (a controllable clock, no
// waiting); it waits while another period is active and creates the period at
// the first pass after the close; bad configuration is refused naming what is
// wrong; only administrators reach it, over GraphQL and REST alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer, type UserClient } from '../helpers/server.js';
import { CREATED_TITLE, REFUSED_TITLE, WAITING_TITLE, tickRecurrence } from '../../src/services/recurrence/tick.js';
import { JOBS } from '../../src/db/queue.js';

const DAY = 24 * 60 * 60 * 1000;
const MIN = 60 * 1000;
let server: TestServer;
let admin: Client;
let reviewer: UserClient;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  reviewer = await userClient(server, admin);
});
afterAll(async () => {
  await server?.close();
});

const tick = (at: Date) => tickRecurrence(server.app.deps, at);
const titles = async (cl: Client) => ((await cl.get('/api/notifications')).body.notifications as any[]).map((n) => n.title);
const count = (list: string[], title: string) => list.filter((t) => t === title).length;
const active = async () => (await admin.get('/api/review-periods/active')).body;
const templates = async () => (await admin.get('/api/review-period-templates')).body as any[];
const audits = (entityId: string) =>
  server.app.deps.prisma.auditEvent.findMany({ where: { OR: [{ entityId }, { periodId: entityId }] }, orderBy: { occurredAt: 'asc' } });

/** The first of the next quarter after `d` (UTC): when a quarterly template is next due. */
function nextQuarter(d: Date): Date {
  const m = d.getUTCMonth();
  const q = Math.floor(m / 3) * 3 + 3;
  return new Date(Date.UTC(d.getUTCFullYear() + (q > 11 ? 1 : 0), q % 12, 1));
}
const quarterName = (d: Date) => `Q${Math.floor(d.getUTCMonth() / 3) + 1} ${d.getUTCFullYear()} SoD review`;

describe('a quarterly template', () => {
  let template: any;
  const first = nextQuarter(new Date());
  const second = nextQuarter(first);

  it('is due on the first of the next quarter, named after it, and the job is scheduled', async () => {
    const r = await admin.post('/api/review-period-templates', {
      namePattern: 'Q{quarter} {year} SoD review',
      description: 'Quarterly segregation-of-duties review',
      durationDays: 30,
      reminderDaysBefore: [1, 7],
      defaultDecisionAtClose: 'retain',
      schedule: 'quarterly',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    template = r.body;
    expect(template).toMatchObject({
      nextRunAt: first.toISOString(),
      nextPeriodName: quarterName(first),
      status: 'scheduled',
      statusText: `Next on ${first.toISOString().slice(0, 10)}`,
      reminderDaysBefore: [7, 1],
      waitingFor: null,
      lastPeriod: null,
    });
    const schedules = await server.app.deps.jobs.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain(JOBS.periodRecurrence);
  });

  it('creates and activates the period when its date comes, as the system, and tells the administrators', async () => {
    expect((await tick(new Date(first.getTime() - MIN))).created).toHaveLength(0);
    expect(await active()).toBeNull();

    const { created } = await tick(new Date(first.getTime() + 5 * MIN));
    expect(created).toHaveLength(1);
    const p = await active();
    expect(p).toMatchObject({
      name: quarterName(first),
      description: 'Quarterly segregation-of-duties review',
      startDate: first.toISOString(),
      endDate: new Date(first.getTime() + 30 * DAY).toISOString(),
      reminderDaysBefore: [7, 1],
      defaultDecisionAtClose: 'retain',
      status: 'active',
      createdById: null,
    });
    // Audited as the system, through the same service as Create & Activate.
    const events = await audits(p.id);
    expect(events.find((e) => e.action === 'period.created')).toMatchObject({ actorId: null, actorLabel: 'system' });
    expect(events.find((e) => e.action === 'period_template.period_created')).toMatchObject({ actorLabel: 'system', entityId: template.id });
    expect(count(await titles(admin), CREATED_TITLE)).toBe(1);

    const [t] = await templates();
    expect(t).toMatchObject({ nextRunAt: second.toISOString(), nextPeriodName: quarterName(second), lastPeriod: { id: p.id, name: p.name } });
    // A second pass at the same time makes nothing more.
    expect((await tick(new Date(first.getTime() + 10 * MIN))).created).toHaveLength(0);
    expect(count(await titles(admin), CREATED_TITLE)).toBe(1);
  });

  it('waits while that period is active, says so, and creates the next one at the first pass after the close', async () => {
    const q1 = await active();
    const { created, waiting } = await tick(new Date(second.getTime() + 5 * MIN));
    expect(created).toHaveLength(0);
    expect(waiting).toBe(1);
    expect((await active()).id).toBe(q1.id);
    const [t] = await templates();
    expect(t).toMatchObject({ status: 'waiting', statusText: `Waiting for '${q1.name}' to close`, waitingFor: { id: q1.id, name: q1.name } });
    const g = await admin.gql('{ reviewPeriodTemplates { status statusText waitingFor { name } } }');
    expect(g.body.data.reviewPeriodTemplates).toEqual([{ status: 'WAITING', statusText: `Waiting for '${q1.name}' to close`, waitingFor: { name: q1.name } }]);
    // Told once, however many passes find it waiting.
    await tick(new Date(second.getTime() + 10 * MIN));
    expect(count(await titles(admin), WAITING_TITLE)).toBe(1);

    expect((await admin.put(`/api/review-periods/${q1.id}/close`)).status).toBe(200);
    const after = new Date(second.getTime() + 2 * DAY + 15 * MIN);
    expect((await tick(after)).created).toHaveLength(1);
    const q2 = await active();
    expect(q2).toMatchObject({ name: quarterName(second), startDate: second.toISOString() });
    // Opened two days late: the reviewers still get the whole 30 days, from the day it opened.
    expect(q2.endDate).toBe(new Date(second.getTime() + 2 * DAY + 30 * DAY).toISOString());
    const [t2] = await templates();
    expect(t2).toMatchObject({ status: 'scheduled', waitingFor: null, lastPeriod: { id: q2.id }, nextRunAt: nextQuarter(second).toISOString() });
    expect((await admin.put(`/api/review-periods/${q2.id}/close`)).status).toBe(200);
  });
});

describe('the name pattern and a cron schedule', () => {
  it('fills in the month, month name, quarter and year of the period’s start', async () => {
    const now = new Date();
    const year = now.getUTCMonth() < 4 || (now.getUTCMonth() === 4 && now.getUTCDate() < 15) ? now.getUTCFullYear() : now.getUTCFullYear() + 1;
    const r = await admin.post('/api/review-period-templates', {
      namePattern: '{year}-{month} {monthName} review (Q{quarter})',
      durationDays: 14,
      schedule: 'cron',
      cron: '0 6 15 5 *',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const due = new Date(Date.UTC(year, 4, 15, 6));
    expect(r.body).toMatchObject({ nextRunAt: due.toISOString(), nextPeriodName: `${year}-05 May review (Q2)`, cron: '0 6 15 5 *' });
    expect((await tick(new Date(due.getTime() + MIN))).created.map((p) => p.name)).toEqual([`${year}-05 May review (Q2)`]);
    expect((await active()).startDate).toBe(due.toISOString());
    expect((await admin.put(`/api/review-periods/${(await active()).id}/close`)).status).toBe(200);
    expect((await admin.request('DELETE', `/api/review-period-templates/${r.body.id}`)).status).toBe(200);
  });
});

describe('bad configuration', () => {
  const base = { namePattern: 'Q{quarter} {year} review', durationDays: 30, schedule: 'quarterly' };
  it('is refused with a message naming it, and nothing is written', async () => {
    const before = (await templates()).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, schedule: 'cron', cron: '0 0 30 2 *' }, "The cron expression '0 0 30 2 *' never fires: it has no occurrence within the next 5 years"],
      [{ ...base, schedule: 'cron', cron: '0 0 31 2,4 *' }, "The cron expression '0 0 31 2,4 *' never fires: it has no occurrence within the next 5 years"],
      [
        { ...base, schedule: 'cron', cron: 'every monday' },
        "The cron expression 'every monday' is not valid: it needs 5 fields (minute hour day-of-month month day-of-week)",
      ],
      [{ ...base, schedule: 'cron', cron: '61 * * * *' }, "The cron expression '61 * * * *' is not valid: Constraint error, got value 61 expected range 0-59"],
      [{ ...base, schedule: 'cron' }, 'A cron schedule needs a cron expression'],
      [{ ...base, cron: '0 0 1 * *' }, 'A quarterly schedule takes no cron expression'],
      [{ ...base, schedule: 'weekly' }, 'Schedule must be monthly, quarterly, yearly or cron'],
      [{ ...base, namePattern: '' }, 'Name pattern is required'],
      [{ ...base, namePattern: '   ' }, 'Name pattern is required'],
      [{ ...base, namePattern: 'x'.repeat(151) }, 'Name pattern is too long (at most 150 characters)'],
      [{ ...base, namePattern: '{week} {year} {day}' }, 'Name pattern has unknown tokens {week}, {day}; known: {year}, {quarter}, {month}, {monthName}'],
      [{ ...base, namePattern: 'Q{Quarter}' }, 'Name pattern has unknown token {Quarter}; known: {year}, {quarter}, {month}, {monthName}'],
      [{ ...base, durationDays: 0 }, 'Duration must be a whole number of days from 1 to 366'],
      [{ ...base, durationDays: -7 }, 'Duration must be a whole number of days from 1 to 366'],
      [{ ...base, durationDays: 2.5 }, 'Duration must be a whole number of days from 1 to 366'],
      [{ ...base, durationDays: 10, reminderDaysBefore: [3, 10] }, 'Reminder days must be fewer than the duration (10 days): 10 is not'],
    ];
    for (const [body, message] of cases) {
      const r = await admin.post('/api/review-period-templates', body);
      expect([r.status, r.body.message], JSON.stringify(body)).toEqual([400, message]);
    }
    const g = await admin.gql(
      `mutation { createReviewPeriodTemplate(input: { namePattern: "Q{quarter}", durationDays: 30, schedule: CRON, cron: "0 0 30 2 *" }) { __typename ... on Error { message } } }`,
    );
    expect(g.body.data.createReviewPeriodTemplate.message).toBe("The cron expression '0 0 30 2 *' never fires: it has no occurrence within the next 5 years");
    expect((await templates()).length).toBe(before);
  });

  it('refuses a bad change and leaves the template as it was', async () => {
    const t = (await admin.post('/api/review-period-templates', { ...base, schedule: 'monthly' })).body;
    const r = await admin.put(`/api/review-period-templates/${t.id}`, { schedule: 'cron', cron: '0 0 30 2 *' });
    expect([r.status, r.body.message]).toEqual([400, "The cron expression '0 0 30 2 *' never fires: it has no occurrence within the next 5 years"]);
    const d = await admin.put(`/api/review-period-templates/${t.id}`, { durationDays: 0 });
    expect([d.status, d.body.message]).toEqual([400, 'Duration must be a whole number of days from 1 to 366']);
    expect((await templates()).find((x) => x.id === t.id)).toEqual(t);
    expect((await admin.put('/api/review-period-templates/00000000-0000-0000-0000-000000000000', { durationDays: 5 })).status).toBe(404);
    expect((await admin.request('DELETE', `/api/review-period-templates/${t.id}`)).status).toBe(200);
  });
});

describe('a template with stages', () => {
  const STAGES = () => [
    { name: 'Reviewer', reviewers: { type: 'criteria' } },
    { name: 'Risk owner', reviewers: { type: 'users', userIds: [reviewer.user.id] }, passOn: 'removals', endDays: 10 },
  ];
  const base = { namePattern: '{monthName} {year} staged review', durationDays: 20, schedule: 'monthly' };

  it('refuses bad stages naming the stage, as creating a period does, and a stage ending after the duration', async () => {
    const before = (await templates()).length;
    const cases: [unknown, string][] = [
      [[STAGES()[0], { name: 'Owner', reviewers: { type: 'users', userIds: [] } }], "Stage 2 ('Owner') has no reviewers: name at least one user"],
      [
        [STAGES()[0], { name: 'Owners', reviewers: { type: 'processOwner' } }],
        "Stage 2 ('Owners') is reviewed by the process owners, but no process owners are set (Admin Settings)",
      ],
      [
        [{ name: 'Owner', reviewers: { type: 'users', userIds: [reviewer.user.id] } }],
        "Stage 1 ('Owner') is reviewed by the assignment criteria: a list of users or the process owners can review stages 2 and 3",
      ],
      [[STAGES()[0], { ...STAGES()[1], endDays: 21 }], "Stage 2 ('Risk owner') ends after the period's end date"],
      [[STAGES()[0], { ...STAGES()[1], endDate: '2027-01-10' }], 'stages.1: Unrecognized key: "endDate"'],
    ];
    for (const [stages, message] of cases) {
      const r = await admin.post('/api/review-period-templates', { ...base, namePattern: '{monthName} {year} owner review', stages });
      expect([r.status, r.body.message], JSON.stringify(stages)).toEqual([400, message]);
    }
    const g = await admin.gql(
      `mutation { createReviewPeriodTemplate(input: { namePattern: "S {year}", durationDays: 20, schedule: MONTHLY,
          stages: [{ name: "Reviewer", reviewerType: CRITERIA }, { name: "Owner", reviewerType: USERS, userIds: [] }] }) { __typename ... on Error { message } } }`,
    );
    expect(g.body.data.createReviewPeriodTemplate).toEqual({
      __typename: 'ValidationError',
      message: "Stage 2 ('Owner') has no reviewers: name at least one user",
    });
    expect((await templates()).length).toBe(before);
  });

  it('keeps its stages, and the period it creates has them, each deadline counted from the day it opens', async () => {
    const r = await admin.post('/api/review-period-templates', { ...base, stages: STAGES() });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.stages).toEqual([
      { name: 'Reviewer', reviewers: { type: 'criteria' }, passOn: 'all', endDays: null },
      { name: 'Risk owner', reviewers: { type: 'users', userIds: [reviewer.user.id] }, passOn: 'removals', endDays: 10 },
    ]);
    const g = await admin.gql('{ reviewPeriodTemplates { namePattern stages { name reviewerType reviewers { email } passOn endDays } } }');
    expect(g.body.data.reviewPeriodTemplates.find((t: { namePattern: string }) => t.namePattern === base.namePattern).stages).toEqual([
      { name: 'Reviewer', reviewerType: 'CRITERIA', reviewers: [], passOn: 'ALL', endDays: null },
      { name: 'Risk owner', reviewerType: 'USERS', reviewers: [{ email: reviewer.email }], passOn: 'REMOVALS', endDays: 10 },
    ]);
    const due = new Date(r.body.nextRunAt);
    expect((await tick(new Date(due.getTime() + 5 * MIN))).created.map((p) => p.name)).toEqual([r.body.nextPeriodName]);
    const p = await active();
    expect(p.stages).toEqual([
      { name: 'Reviewer', reviewers: { type: 'criteria' }, passOn: 'all', endDate: null },
      {
        name: 'Risk owner',
        reviewers: { type: 'users', userIds: [reviewer.user.id] },
        passOn: 'removals',
        endDate: new Date(due.getTime() + 10 * DAY).toISOString(),
      },
    ]);
    expect((await admin.put(`/api/review-periods/${p.id}/close`)).status).toBe(200);
    // Null takes the stages away: its next periods have the one stage of old.
    const cleared = await admin.put(`/api/review-period-templates/${r.body.id}`, { stages: null });
    expect([cleared.status, cleared.body.stages]).toEqual([200, null]);
    expect((await admin.request('DELETE', `/api/review-period-templates/${r.body.id}`)).status).toBe(200);
  });

  it('a stage reviewer deactivated since the template was saved: no period, the administrators are told why once', async () => {
    const owner = await userClient(server, admin);
    const stages = [STAGES()[0], { ...STAGES()[1], reviewers: { type: 'users', userIds: [owner.user.id] } }];
    const r = await admin.post('/api/review-period-templates', { ...base, namePattern: '{monthName} {year} owner review', stages });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect((await admin.put(`/api/users/${owner.user.id}/deactivate`)).status).toBe(200);
    const at = new Date(new Date(r.body.nextRunAt).getTime() + 5 * MIN);
    expect(await tick(at)).toEqual({ created: [], waiting: 1 });
    expect(await tick(new Date(at.getTime() + 5 * MIN))).toEqual({ created: [], waiting: 1 });
    expect(await active()).toBeNull();
    const told = ((await admin.get('/api/notifications')).body.notifications as { title: string; message: string }[]).filter((n) => n.title === REFUSED_TITLE);
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toMatch(
      new RegExp(`could not be created: Stage 2 \\('Risk owner'\\): reviewer .*${owner.email.replace(/[.+]/g, '\\$&')}.* is deactivated`),
    );
    expect((await admin.request('DELETE', `/api/review-period-templates/${r.body.id}`)).status).toBe(200);
  });
});

describe('administering templates', () => {
  it('creates, changes and deletes over GraphQL, each audited', async () => {
    const c = await admin.gql(
      `mutation { createReviewPeriodTemplate(input: { namePattern: "{monthName} {year} access review", durationDays: 20, schedule: MONTHLY, reminderDaysBefore: [3] }) {
        __typename ... on MutationCreateReviewPeriodTemplateSuccess { data { id schedule nextRunAt nextPeriodName status } } ... on Error { message } } }`,
    );
    const t = c.body.data.createReviewPeriodTemplate.data;
    expect(t).toMatchObject({ schedule: 'MONTHLY', status: 'SCHEDULED' });
    const u = await admin.gql(
      `mutation($id: ID!) { updateReviewPeriodTemplate(id: $id, input: { schedule: YEARLY, durationDays: 45 }) {
        ... on MutationUpdateReviewPeriodTemplateSuccess { data { schedule durationDays nextRunAt nextPeriodName } } ... on Error { message } } }`,
      { id: t.id },
    );
    expect(u.body.errors).toBeUndefined();
    const year = new Date().getUTCFullYear() + 1;
    expect(u.body.data.updateReviewPeriodTemplate.data).toEqual({
      schedule: 'YEARLY',
      durationDays: 45,
      nextRunAt: new Date(Date.UTC(year, 0, 1)).toISOString(),
      nextPeriodName: `January ${year} access review`,
    });
    const d = await admin.gql(`mutation($id: ID!) { deleteReviewPeriodTemplate(id: $id) { ... on MutationDeleteReviewPeriodTemplateSuccess { data } } }`, {
      id: t.id,
    });
    expect(d.body.data.deleteReviewPeriodTemplate.data).toBe(t.id);
    const rawId = Buffer.from(t.id, 'base64').toString().split(':')[1]!;
    expect((await audits(rawId)).map((e) => [e.action, e.actorId])).toEqual([
      ['period_template.created', expect.any(String)],
      ['period_template.changed', expect.any(String)],
      ['period_template.deleted', expect.any(String)],
    ]);
  });

  it('refuses reviewers (403) over REST and GraphQL', async () => {
    const t = (await admin.post('/api/review-period-templates', { namePattern: 'R {year}', durationDays: 5, schedule: 'yearly' })).body;
    const cl = reviewer.client;
    for (const r of [
      await cl.get('/api/review-period-templates'),
      await cl.post('/api/review-period-templates', { namePattern: 'X {year}', durationDays: 5, schedule: 'yearly' }),
      await cl.put(`/api/review-period-templates/${t.id}`, { durationDays: 9 }),
      await cl.request('DELETE', `/api/review-period-templates/${t.id}`),
    ]) {
      expect(r.status).toBe(403);
    }
    expect((await cl.gql('{ reviewPeriodTemplates { id } }')).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const m = await cl.gql(`mutation { createReviewPeriodTemplate(input: { namePattern: "X", durationDays: 5, schedule: YEARLY }) { __typename } }`);
    expect(m.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await templates()).find((x) => x.id === t.id)).toMatchObject({ durationDays: 5 });
  });
});
