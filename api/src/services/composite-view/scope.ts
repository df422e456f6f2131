// The composite-role risk view (SPEC §2 'Risk Review', 'Composite-role risk
// view'): the viewer's risk rows grouped by user, then by access risk, then by
// composite role, with each level's totals and whether the viewer has decided
// every row under it in the active period. Everything is grouped and paged in
// SQL (keyset on the grouping key), so a level costs the rows under the keys
// of one page, never the whole table. Visibility is the rule of
// services/review/risks.ts: administrators see every live row, reviewers only their
// assigned rows, whichever way they ask. Decisions from this view go through
// the one decision path (services/review/decisions.ts, per user and composite role).
import { Prisma } from '../../generated/prisma/client.js';
import type { Viewer } from '../viewer.js';

/** Largest page of any level, whatever is asked. */
export const MAX_PAGE = 200;
/** Authorization detail rows returned per role unless asked for fewer (a huge role does not send megabytes). */
export const DEFAULT_DETAIL_LIMIT = 200;
export const MAX_DETAIL_LIMIT = 500;
/** Distinct rule ids, functions and role profiles listed per role at most. */
export const MAX_LIST = 100;

/** Who is looking: which rows they may see and whose decisions count (theirs, in the active period). */
export interface ViewScope {
  viewerId: string;
  /** Sees every live row (administrators). */
  all: boolean;
  periodId: string | null;
  visible: Prisma.Sql;
  /** The visibility's cache key (services/visibility.ts), for counts cached per data version. */
  key: string;
}

export async function viewScope(viewer: Viewer): Promise<ViewScope> {
  const [period, { visible, key }] = await Promise.all([viewer.decisionPeriod(), viewer.scope()]);
  return { viewerId: viewer.user.id, all: viewer.role === 'admin', periodId: period?.id ?? null, visible, key };
}

/**
 * One page of a keyset over a text key. `after`/`before` are keys (not
 * cursors); `limit` may include the one extra row that tells whether there
 * is a next page; `inverted` reads backwards from `before`.
 */
export interface Keyset {
  after?: string | null;
  before?: string | null;
  limit: number;
  inverted?: boolean;
}

export const int = (v: unknown) => Number(v ?? 0);

/** A user, risk group or role is all decided when it has something to decide and the viewer has decided all of it. */
export const allDecided = (total: number, decided: number) => total > 0 && decided >= total;

export function decisionJoin(scope: ViewScope): Prisma.Sql {
  return Prisma.sql`LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${scope.periodId}::uuid AND d.reviewer_id = ${scope.viewerId}::uuid`;
}

export function pageLimit(k: Keyset): number {
  return Math.min(Math.max(Math.trunc(k.limit) || 1, 1), MAX_PAGE + 1);
}

/** `col > after AND col < before`, for a keyset over one text column. */
export function keysetWhere(col: Prisma.Sql, k: Keyset): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (k.after != null) parts.push(Prisma.sql`${col} > ${k.after}`);
  if (k.before != null) parts.push(Prisma.sql`${col} < ${k.before}`);
  return parts.length ? Prisma.join(parts, ' AND ') : Prisma.sql`TRUE`;
}
