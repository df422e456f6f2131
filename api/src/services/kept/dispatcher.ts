// The one way writers keep the kept aggregates up to date: a writer that
// changes what they are worked out from tells this dispatcher what happened,
// inside its transaction (dispatch), and runs what dispatch returns after its
// commit. The dispatcher brings each aggregate the event touches up to date,
// in the order they depend on one another, so no writer imports an aggregate
// or knows which ones follow its change. Decisions themselves move the kept
// totals, shared items and trend days in the writing statement (the triggers
// of prisma/functions/), so a write of decisions needs nothing here but the
// announcement to open dashboards.
//
// Locks: a change of what reviewers see holds the decision writers and the
// criteria version's row from its start (beginSightChange), so the aggregates
// it rewrites count every decision committed and no second change or upload
// moves the versions meanwhile (services/review/decision-locks.ts gives the order).
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import type { JobQueue } from '../../db/queue.js';
import type { PubSub } from '../../pubsub.js';
import { holdDecisionWriters } from '../review/decision-locks.js';
import { HOLDS_WORK, sightsOf } from '../holds.js';
import { getDecisionPeriod } from '../review/periods.js';
import { NO_UPLOAD, dropKeptUploadCounts } from './decision-totals.js';
import { criteriaVersionBefore, keepReviewerDaysAfter, rewriteReviewerDays } from './reviewer-days.js';
import { askForDashboardFigures, warmDashboardFigures } from './scope-figures.js';
import { freshSharedItems, keepSharedItemsAfter, periodsWithDecisions, vacuumSharedItems } from './shared-items.js';
import { refreshTrendDays } from './trend-days.js';

/** A change of what reviewers see under way (beginSightChange): the criteria version before it. */
export interface SightChange {
  readonly before: bigint;
}

/** What happened, as a writer tells it. */
export type KeptEvent =
  /** An upload went live: its rows are now the data (after the 'replace' of the earlier data, if any, in the same transaction). */
  | { kind: 'upload-live' }
  /** The rows of an upload were deleted (null: the rows loaded without an upload), with their decisions. */
  | { kind: 'upload-rows-deleted'; uploadId: string | null }
  /** What these reviewers see changed (criteria, items moved), in the transaction beginSightChange began. */
  | { kind: 'sight-changed'; change: SightChange; reviewerIds: string[]; jobs: JobQueue }
  /** A reviewer who holds work became active (made active again, or given the reviewer's role). */
  | { kind: 'reviewer-activated'; jobs: JobQueue }
  /** A reviewer's own decisions were written (saved one by one, in a batch, or by filter). */
  | { kind: 'decisions-written' }
  /** Every risk row, upload, decision and assignment was purged (TRUNCATE: no row trigger fires). */
  | { kind: 'data-purged' };

export interface AfterCommitDeps {
  prisma: PrismaClient;
  pubsub: PubSub;
  log?: (message: string) => void;
}

/** What follows an event after its transaction committed (nothing for most). */
export type AfterCommit = (deps: AfterCommitDeps) => Promise<void>;

const NOTHING: AfterCommit = async () => undefined;

/**
 * At the start of a transaction that changes what some reviewers see, before
 * the change: the criteria version before it, with the version row locked
 * until the commit, and the decision writers held (those under way waited
 * for). Dispatch 'sight-changed' with it after the change.
 */
export async function beginSightChange(tx: DbClient): Promise<SightChange> {
  const before = await criteriaVersionBefore(tx);
  await holdDecisionWriters(tx);
  return { before };
}

/** In the writer's transaction, after its change: the aggregates the event touches, brought up to date. */
export async function dispatch(tx: DbClient, event: KeptEvent): Promise<AfterCommit> {
  switch (event.kind) {
    case 'upload-live':
      return uploadWentLive(tx);
    case 'upload-rows-deleted':
      await dropKeptUploadCounts(tx, event.uploadId ?? NO_UPLOAD);
      return NOTHING;
    case 'sight-changed': {
      // Their trend days worked out again and everyone else's kept as they are, their places in
      // the shared items moved (All Reviews and 'pending' read no stale items), and the scope
      // figures' job sent (their scopes have new keys with no figures kept yet), so no reviewer's
      // first read after it counts live.
      const sights = await sightsOf(tx, event.reviewerIds);
      await keepReviewerDaysAfter(tx, event.change.before, sights);
      await keepSharedItemsAfter(tx, event.change.before, sights);
      await askForDashboardFigures(tx, event.jobs);
      return NOTHING;
    }
    case 'reviewer-activated':
      await askForDashboardFigures(tx, event.jobs);
      return NOTHING;
    case 'decisions-written':
      // The triggers moved what is kept; open dashboards refetch their figures.
      return async ({ pubsub }) => announceDashboardChanged(pubsub, 'decisions');
    case 'data-purged':
      // The shared items go with the decisions; the cached counts key on the data version,
      // which TRUNCATE does not bump (it fires no row trigger).
      await tx.$executeRawUnsafe('TRUNCATE shared_items, shared_item_periods');
      await tx.$executeRaw`UPDATE risk_data_version SET version = version + 1 WHERE id = 1`;
      return NOTHING;
  }
}

/**
 * An upload went live: for the periods with decisions, the shared items (the
 * decided rows of 'pending', All Reviews), and the trend days of the period
 * the dashboard shows, everyone's and each reviewer's own, are worked out in
 * the transaction (each one set-based statement), so the upload is reported
 * done with them; nothing when no period has decisions. After the commit, the
 * scope figures of every scope, before the completion is announced (open
 * dashboards refetch on it), so the first read after an upload is not a cold
 * one; then the refreshed shared items are vacuumed (after the warm-up, not at
 * once: right after the commit, a VACUUM found the replaced items not yet
 * removable, and at 1M rows left 166k dead items and the totals read by a
 * sequential scan).
 */
async function uploadWentLive(tx: DbClient): Promise<AfterCommit> {
  const refreshed = await keptFiguresOfNewRows(tx);
  return async ({ prisma, log }) => {
    await warmDashboardFigures(prisma).catch((err: Error) => log?.(`dashboard figures not worked out: ${err.message}`));
    if (refreshed) await vacuumSharedItems(prisma);
  };
}

/** Whether shared items were refreshed (then vacuumed after the commit). */
async function keptFiguresOfNewRows(tx: DbClient): Promise<boolean> {
  const periods = await periodsWithDecisions(tx);
  if (!periods.length) return false;
  await freshSharedItems(tx, periods, { inTransaction: true });
  const shown = (await getDecisionPeriod(tx))?.id ?? null;
  if (shown && periods.includes(shown)) {
    await refreshTrendDays(tx, shown, { inTransaction: true });
    // The reviewers' own days too (those who hold work or whose days are kept), one statement for all.
    const reviewers = await tx.user.findMany({
      where: { OR: [{ role: 'reviewer', ...HOLDS_WORK }, { reviewerTrendPeriods: { some: { periodId: shown } } }] },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    await rewriteReviewerDays(
      tx,
      shown,
      await sightsOf(
        tx,
        reviewers.map((u) => u.id),
      ),
    );
  }
  return true;
}

/** Tells open dashboards that their figures moved (after the change committed); carries nothing else. */
function announceDashboardChanged(pubsub: PubSub, reason: 'decisions' | 'upload'): void {
  pubsub.publish('dashboard:changed', { reason });
}
