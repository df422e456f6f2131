// Which risk rows exist for a viewer, in one place: live rows only (an upload
// becomes live only when completely loaded, and a 'replace' takes the others
// out of it; rows loaded without an upload are live), administrators every
// one, reviewers those their assignment criteria match (less their own
// access; a fallback reviewer also the rows nobody else holds: holds.ts). Lists and counts use
// the scope's SQL condition, reads by id use visibleRows; the per-request
// viewer (viewer.ts) reads the scope once.
import crypto from 'node:crypto';
import { Prisma, type RiskRow, type User } from '../generated/prisma/client.js';
import type { DbClient } from '../core/types.js';
import { assignedRowsCondition, criteriaSetsFor, type CriteriaSets } from './holds.js';
import { LIVE_ROWS } from './live-rows.js';
import type { HelpDecidingFacts } from './review/recommendations.js';

export { LIVE_ROWS };

export type RiskRowWithDecision = RiskRow & {
  decision: string | null;
  decisionComments: string | null;
  decidedAt: Date | null;
  /** The viewer's mitigation, on the lists' rows (services/review/risks.ts listRisks). */
  decisionMitigationControl?: string | null;
  decisionMitigationExpiresAt?: Date | null;
  /** On the lists' rows: since when the row is new in the active period (joined after it began; services/mid-period/). */
  newSince?: Date | null;
  /** The stage at which the viewer reviews the row (absent: 1) and the earlier stages' decisions on it (services/stages/stage-reviews.ts). */
  stage?: number;
  previousDecisions?: {
    stage: number;
    reviewer: { id: string; email: string; name: string };
    decision: string;
    comments: string | null;
    decidedAt: Date;
  }[];
} & HelpDecidingFacts; // the facts of help deciding, on the lists' rows (services/review/recommendations.ts)

/** Which rows a viewer may see, as a SQL condition (alias r), and who sees the same rows (the key of cached counts). */
export interface RowScope {
  visible: Prisma.Sql;
  key: string;
}

/** An administrator's scope: every live row. */
export const ADMIN_SCOPE: RowScope = { visible: LIVE_ROWS, key: 'admin' };

/**
 * Which rows a user may see at all (the rule, in one place): live rows only
 * (LIVE_ROWS: not those of an upload still loading or failed), administrators
 * every one, reviewers those their assignment criteria match. Every read path
 * uses it: lists and counts through this condition, reads by id through
 * visibleRows. Read once per request (services/viewer.ts).
 */
export async function viewerScope(db: DbClient, user: User): Promise<RowScope> {
  if (user.role === 'admin') return ADMIN_SCOPE;
  return reviewerScope(await criteriaSetsFor(db, user.id));
}

function reviewerScope(sets: CriteriaSets): RowScope {
  return { visible: Prisma.sql`${LIVE_ROWS} AND ${assignedRowsCondition(sets)}`, key: scopeKey(sets) };
}

/**
 * Who sees the same rows has the same key (criteria sets come with their
 * values in order). A fallback reviewer's coverage (everyone's criteria) is
 * keyed by its digest, so the key stays short.
 */
export function scopeKey(sets: CriteriaSets): string {
  if (!sets.fallback) return JSON.stringify(sets);
  return JSON.stringify({ ...sets, fallback: crypto.createHash('sha256').update(JSON.stringify(sets.fallback)).digest('base64url') });
}

/**
 * The rows with these ids that the scope lets its viewer see, by id (an id
 * not visible, or not there, is simply absent: the caller cannot tell which).
 */
export async function visibleRows(db: DbClient, scope: RowScope, ids: readonly bigint[]): Promise<Map<bigint, RiskRow>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<RiskRowRaw[]>`SELECT r.* FROM risk_rows r WHERE r.id = ANY(${[...ids]}::bigint[]) AND ${scope.visible}`;
  return new Map(rows.map((raw) => [BigInt(raw.id), fromRaw(raw) as RiskRow]));
}

/** The condition of viewerScope alone. */
export async function visibleRowsCondition(db: DbClient, user: User): Promise<Prisma.Sql> {
  return (await viewerScope(db, user)).visible;
}

// Raw rows come back with snake_case columns.
export type RiskRowRaw = Record<string, unknown> & { id: bigint; decision: string | null; decision_comments: string | null; decided_at: Date | null };

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

export function fromRaw(raw: RiskRowRaw): RiskRowWithDecision {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) out[camel(k)] = v;
  return out as RiskRowWithDecision;
}
