// New conflicts announced: after an upload that brought conflicts into the
// active period went live (arrivals.ts), each reviewer who holds some of
// them (the rule of services/holds.ts: criteria, items moved, the fallback
// reviewers' coverage, never their own access) is told once for the batch,
// with how many: an in-app notification linking to their queue and an
// e-mail, as the deadline reminders are. One audit event records whom the
// batch reached. Counted in one pass over the batch's rows whatever the
// number of reviewers (each reviewer's condition evaluated per row), after
// the upload's commit, so going live waits for none of it.
import { Prisma, type Notification, type PrismaClient, type User } from '../../generated/prisma/client.js';
import { recordAudit } from '../../core/audit.js';
import type { MessagingDeps } from '../deps.js';
import { createSystemNotification, publishNotification } from '../identity/notifications.js';
import { signInLink } from '../identity/users.js';
import { HOLDS_WORK, activeFallbackIds, assignedRowsCondition, criteriaSetsOf } from '../holds.js';
import { LIVE_ROWS } from '../live-rows.js';
import type { PeriodBatch } from './arrivals.js';

/** Where the notification leads: the reviewer's queue. */
export const QUEUE_PATH = '/assigned-risks';

/** The notification's title: '12 new conflicts to review', '1 new conflict to review'. */
export const newConflictsTitle = (n: number) => `${n.toLocaleString('en-US')} new conflict${n === 1 ? '' : 's'} to review`;

/** How many reviewers' conditions one counting query evaluates per row. */
const REVIEWERS_PER_PASS = 100;

/** Each reviewer who holds rows of the batch, with how many (in e-mail order). */
export async function batchReviewers(prisma: PrismaClient, batch: PeriodBatch): Promise<{ reviewer: User; count: number }[]> {
  const fallback = await activeFallbackIds(prisma);
  const reviewers = await prisma.user.findMany({
    where: { role: 'reviewer', isActive: true, OR: [...HOLDS_WORK.OR, { id: { in: fallback } }] },
    orderBy: [{ email: 'asc' }, { id: 'asc' }],
  });
  const sets = await criteriaSetsOf(
    prisma,
    reviewers.map((u) => u.id),
  );
  const counts = new Map<number, number>();
  for (let from = 0; from < reviewers.length; from += REVIEWERS_PER_PASS) {
    const each = reviewers
      .slice(from, from + REVIEWERS_PER_PASS)
      .map((u, i) => Prisma.sql`CASE WHEN ${assignedRowsCondition(sets.get(u.id)!)} THEN ${from + i}::int END`);
    const rows = await prisma.$queryRaw<{ k: number; n: bigint }[]>`
      SELECT x.k, count(*) AS n FROM risk_rows r CROSS JOIN LATERAL unnest(ARRAY[${Prisma.join(each)}]::int[]) AS x(k)
       WHERE ${batch.newRows} AND ${LIVE_ROWS} AND x.k IS NOT NULL
       GROUP BY x.k`;
    for (const r of rows) counts.set(Number(r.k), Number(r.n));
  }
  return [...counts.entries()].sort(([a], [b]) => a - b).map(([k, n]) => ({ reviewer: reviewers[k]!, count: n }));
}

/** Tells each reviewer of the batch how many new conflicts they have (one notification and one e-mail each). */
export async function notifyNewConflicts(deps: MessagingDeps, batch: PeriodBatch): Promise<{ reviewer: User; count: number }[]> {
  const reached = await batchReviewers(deps.prisma, batch);
  if (!reached.length) return reached;
  const since = batch.joinedAt.toISOString().slice(0, 10);
  const message = (n: number) =>
    `${newConflictsTitle(n)} in the review period '${batch.periodName}': ${n === 1 ? 'it was' : 'they were'} added by ${batch.uploadName} ` +
    `and ${n === 1 ? 'is' : 'are'} marked 'New since ${since}' in your queue.`;
  const notices = await deps.prisma.$transaction(async (tx) => {
    await recordAudit(tx, null, {
      action: 'period.new_conflicts_notified',
      entityType: 'Upload',
      entityId: batch.uploadId,
      periodId: batch.periodId,
      after: { upload: batch.uploadName, reviewers: reached.map((r) => ({ reviewerId: r.reviewer.id, reviewer: r.reviewer.email, newConflicts: r.count })) },
    });
    const out: Notification[] = [];
    for (const r of reached) {
      out.push(
        await createSystemNotification(tx, {
          type: 'info',
          title: newConflictsTitle(r.count),
          message: message(r.count),
          targetUserId: r.reviewer.id,
          link: QUEUE_PATH,
        }),
      );
    }
    return out;
  });
  for (const n of notices) publishNotification(deps.pubsub, n);
  for (const r of reached) {
    await deps.mailer.send({
      to: r.reviewer.email,
      subject: newConflictsTitle(r.count),
      text: `Hello ${r.reviewer.firstName},\n\n${message(r.count)}\n\nPlease review them at ${signInLink(deps.config)}\n`,
    });
  }
  return reached;
}
