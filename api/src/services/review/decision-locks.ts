// The locks of the transactions that write a period's decisions, and their
// one order. Every writer takes them in this order, and none waits for an
// earlier one while holding a later one, so they cannot deadlock:
//
//   1. the period's gate (`enterPeriod`, shared): every change to the
//      period's decisions and submissions holds it to its commit; closing or
//      reopening the period takes it exclusively (`closePeriodGate`), so a
//      close waits for the changes under way and then freezes exactly what
//      they committed, and a change arriving meanwhile is refused at once
//      (409) rather than written after the evidence froze;
//   2. the reviewer's lock (`lockReviewer`): one reviewer's saves, submits,
//      recalls and the approval of their set in turn;
//   3. the period's decision writers (`lockDecisionWrites`): the decisions
//      table (ROW EXCLUSIVE, as a write would take it, so that readers holding
//      SHARE against writers, holdDecisionWriters below, come before it and
//      not in between), then the period's trend lock (TREND_LOCK below) that
//      the triggers on decisions take too;
//   4. rows: the decisions, then the kept aggregates the triggers move
//      (shared_items, shared_item_decisions, trend days, reviewer days);
//   5. the audit chain's head (audit_chain_head, taken by the transaction's
//      first audit event: prisma/functions/audit_events_chain.sql), held to the
//      commit. Every audited transaction of the installation takes it, so it
//      comes last: a transaction takes its other locks before its first audit
//      event (closing or reopening a period locks the decision writers before
//      it audits). A deadlock nonetheless is run again by retryingTransaction
//      (db/retry.ts).
//
// Without 3 before the write, two writers of one period locked the rows of
// shared items (kept per user and role, shared by reviewers) in different
// orders in their triggers and PostgreSQL aborted one as a deadlock.
import type { DbClient } from '../../core/types.js';

/**
 * The advisory lock (with the period) that the triggers on decisions and the
 * refreshes of the kept trend days take (services/kept/): writers of one
 * period in turn. The triggers name the same number (prisma/functions/trend_days_move.sql).
 */
export const TREND_LOCK = 913_014;

export const lockTrendPeriod = (tx: DbClient, periodId: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(${TREND_LOCK}, hashtext(${periodId}::uuid::text))`;

/**
 * Decisions being written wait (and those under way are waited for) until
 * the transaction ends: a reader of decisions that writes kept aggregates from
 * them (a refresh of shared items, a change of what reviewers see) then counts
 * every decision committed, and a later decision's trigger moves what it
 * wrote. Taken before anything else that decision writers wait for (the
 * trend's lock), so the two never wait for each other.
 */
export async function holdDecisionWriters(tx: DbClient): Promise<void> {
  await tx.$executeRaw`LOCK TABLE decisions IN SHARE MODE`;
}

const gateKey = (periodId: string) => `period:${periodId}`;

/** Takes the period's gate shared (a change to its decisions); false while a close or reopen holds or waits for it. */
export async function enterPeriod(tx: DbClient, periodId: string): Promise<boolean> {
  const [r] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock_shared(hashtextextended(${gateKey(periodId)}, 0)) AS ok`;
  return Boolean(r?.ok);
}

/**
 * Takes the period's gate shared, waiting for a close or reopen under way: for a change
 * that cannot be refused (an upload going live carries decisions over), so that it lands
 * after the close, never between its freezing and its commit.
 */
export async function waitAtPeriodGate(tx: DbClient, periodId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(hashtextextended(${gateKey(periodId)}, 0))`;
}

/** Takes the period's gate exclusively (closing or reopening it), after the changes under way. */
export async function closePeriodGate(tx: DbClient, periodId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${gateKey(periodId)}, 0))`;
}

/** Serialises saves, submits, recalls and approvals of one reviewer in one period. */
export async function lockReviewer(tx: DbClient, periodId: string, reviewerId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`review:${periodId}:${reviewerId}`}, 0))`;
}

/** Before a statement writing the period's decisions: the writers of one period in turn from here to the commit. */
export async function lockDecisionWrites(tx: DbClient, periodId: string): Promise<void> {
  await tx.$executeRaw`LOCK TABLE decisions IN ROW EXCLUSIVE MODE`;
  await lockTrendPeriod(tx, periodId);
}
