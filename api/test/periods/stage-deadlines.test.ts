// A stage's own end date reminds that stage's reviewers at the period's
// reminder points before it: stage 1's reviewers with pending items, a later
// stage's reviewers with rows that reached them there still undecided; once
// each, recorded per stage beside the period's own reminders. The deadline
// job's tick is called with chosen times: a controllable clock, no waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, TestServer, UserClient } from '../helpers/server.js';
import { decide, twoStageReview } from '../helpers/review/two-stages.js';
import { REMINDER_TITLE, tickReminders } from '../../src/services/review/reminders.js';

const DAY = 24 * 60 * 60 * 1000;
let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let r1: number;
let r2: number;
let periodId: string;
let stage1End: Date;
let stage2End: Date;

const tick = (at: Date) => tickReminders(server.app.deps, at);
const reminders = async (u: UserClient) =>
  ((await u.client.get('/api/notifications')).body.notifications as { title: string; message: string }[]).filter((n) => n.title === REMINDER_TITLE);

beforeAll(async () => {
  const now = Date.now();
  stage1End = new Date(now + 10 * DAY);
  stage2End = new Date(now + 15 * DAY);
  let rows: number[];
  ({ server, admin, a, b, rows, periodId } = await twoStageReview({
    period: { name: 'Staged deadlines', endDate: new Date(now + 30 * DAY).toISOString(), reminderDaysBefore: [3] },
    stages: [{ endDate: stage1End.toISOString() }, { endDate: stage2End.toISOString() }],
  }));
  [r1, r2] = rows as [number, number];
});
afterAll(async () => server?.close());

describe("a stage's end date reminds its own reviewers", () => {
  it("before stage 1's end, its reviewer with pending items is reminded of stage 1; stage 2's reviewer, with nothing reached yet, is not", async () => {
    expect(await tick(new Date(stage1End.getTime() - 3 * DAY + 60_000))).toEqual({ reminded: 1, escalated: 0 });
    const [sent] = await reminders(a);
    expect(sent?.message).toContain("2 pending items in stage 1 ('Reviewer') of the review period 'Staged deadlines'");
    expect(sent?.message).toContain(`ends on ${stage1End.toISOString().slice(0, 10)}`);
    expect(await reminders(b)).toEqual([]);
  });

  it("before stage 2's end, its reviewer is reminded of the reached rows still undecided there, once", async () => {
    expect((await decide(a, r1, 'remove')).status).toBe(200);
    expect((await decide(a, r2, 'retain')).status).toBe(200);
    expect((await a.client.post('/api/reviews/submit', {})).status).toBe(200);
    // B confirms one of the two rows that reached stage 2: one is still undecided there.
    expect((await decide(b, r1, 'remove')).status).toBe(200);
    const at = new Date(stage2End.getTime() - 3 * DAY + 60_000);
    expect(await tick(at)).toEqual({ reminded: 1, escalated: 0 });
    const sent = await reminders(b);
    expect(sent.map((n) => n.message)).toEqual([
      `You have 1 pending item in stage 2 ('Risk owner') of the review period 'Staged deadlines', which ends on ${stage2End.toISOString().slice(0, 10)} (in 3 days).`,
    ]);
    // A is done with stage 1 and was reminded of it already: nothing more.
    expect(await reminders(a)).toHaveLength(1);
    expect(await tick(at)).toEqual({ reminded: 0, escalated: 0 });
  });

  it('the messages sent are listed per stage and audited with their stage', async () => {
    const listed = await admin.get(`/api/review-periods/${periodId}/reminders`);
    expect(listed.status).toBe(200);
    expect((listed.body as { stage: number; daysBefore: number; userId: string }[]).map((r) => [r.stage, r.daysBefore, r.userId])).toEqual([
      [1, 3, a.user.id],
      [2, 3, b.user.id],
    ]);
    const audit = await server.app.deps.prisma.auditEvent.findMany({ where: { periodId, action: 'period.reminder_sent' }, orderBy: { id: 'asc' } });
    expect(audit.map((e) => (e.after as { stage: number; reviewerId: string }).stage)).toEqual([1, 2]);
  });
});
