// The kept aggregates' public face for readers (and the dashboard figures'
// job): what is kept, read when fresh, else counted live. Writers go through
// dispatcher.ts instead; nothing outside this folder imports its other
// modules (.dependency-cruiser.cjs 'kept-wing-closed').
import type { KeptAggregate } from './aggregate.js';
import { DECISION_TOTALS } from './decision-totals.js';
import { RISK_COUNTS } from './risk-counts.js';
import { SCOPE_FIGURES } from './scope-figures.js';
import { SHARED_ITEMS } from './shared-items.js';
import { REVIEWER_DAYS, TREND_DAYS } from './trend-days.js';

export type { KeptAggregate } from './aggregate.js';
export { countKeptReviewerDecisions } from './decision-totals.js';
export { cached, cachedMany, dataVersion, figuresNotKept, forgetCachedFigures, keptFigure } from './risk-counts.js';
export {
  HIGH_RISK_TREND_DAYS,
  NEXT_DAY_AHEAD_MS,
  UNCATEGORISED,
  categoryCounts,
  keysOf,
  loadsPerBucket,
  newHighRiskUsers,
  scopeTotals,
  sightChangesSettled,
  warmDashboardFigures,
} from './scope-figures.js';
export { countKeptDecisions, decidedRowsLive, freshSharedItems, isSharedSql, keptDecidedRows, periodsWithDecisions, sharedFilterSql } from './shared-items.js';
export {
  keptDecidedBuckets,
  keptReviewerBuckets,
  keptReviewerDecidedRows,
  keptReviewerDecisions,
  latestDecisionsByBucket,
  ownDecisions,
} from './trend-days.js';

/** Every kept aggregate, in the order docs/architecture.md tabulates them. */
export const KEPT_AGGREGATES: readonly KeptAggregate[] = [SHARED_ITEMS, DECISION_TOTALS, TREND_DAYS, REVIEWER_DAYS, SCOPE_FIGURES, RISK_COUNTS];
