// Coverage and independence of a review, as auditors test them (the rules
// themselves are part of who holds a row: services/holds.ts): the review
// settings as stored (the fallback reviewers, who receive every row nobody
// else holds, and the owners of each business process; changed by
// review-settings.ts), the rows nobody can review ('Unassigned conflicts',
// which a close without a reason refuses), the self-review refusal every way
// of deciding goes through, and the coverage the evidence records.
import crypto from 'node:crypto';
import { Prisma, type User } from '../../generated/prisma/client.js';
import { ConflictError, ForbiddenError } from '../../core/errors.js';
import { personLabel } from '../../core/people.js';
import { isUuid, type DbClient } from '../../core/types.js';
import { LIVE_ROWS } from '../live-rows.js';
import type { ConflictRowFields } from '../risk-rules.js';
import {
  HOLDS_WORK,
  REVIEW_SETTINGS_KEY,
  assignedRowsCondition,
  coverageOf,
  criteriaSetsOf,
  ownIdVariants,
  unheldRowsCondition,
  type Coverage,
} from '../holds.js';
import { cached } from '../kept/index.js';
import type { Caller } from '../caller.js';

export interface ReviewSettings {
  /** Active reviewers who receive every in-scope row that no one else holds. */
  fallbackReviewerIds: string[];
  /** The owners of each business process (the risk rows' Business Process), by user id. */
  processOwners: Record<string, string[]>;
}

const NONE: ReviewSettings = { fallbackReviewerIds: [], processOwners: {} };

/** The review settings as stored (none yet: no fallback reviewer, no owners). */
export async function readReviewSettings(db: DbClient): Promise<ReviewSettings> {
  const row = await db.adminSetting.findUnique({ where: { settingKey: REVIEW_SETTINGS_KEY } });
  if (!row) return NONE;
  const v = JSON.parse(row.settingValue) as Partial<ReviewSettings>;
  return { fallbackReviewerIds: v.fallbackReviewerIds ?? [], processOwners: v.processOwners ?? {} };
}

/** The fallback reviewers named in the settings: those who receive rows, and those who cannot (deactivated, or no longer reviewers). */
export async function fallbackReviewers(db: DbClient): Promise<{ active: User[]; inactive: User[] }> {
  const ids = (await readReviewSettings(db)).fallbackReviewerIds.filter(isUuid);
  const users = await db.user.findMany({ where: { id: { in: ids } }, orderBy: [{ email: 'asc' }, { id: 'asc' }] });
  const able = (u: User) => u.isActive && u.role === 'reviewer';
  return { active: users.filter(able), inactive: users.filter((u) => !able(u)) };
}

export interface CoverageState {
  coverage: Coverage;
  active: User[];
  inactive: User[];
  /** The rows nobody can review (alias r, without LIVE_ROWS). */
  nobody: Prisma.Sql;
  /** The key of counts of this state (the coverage and the fallback reviewers' own ids). */
  key: string;
}

/**
 * Who can review what, now: the rows nobody but the fallback reviewers holds
 * (coverage), and of those the rows nobody can review at all: every one of
 * them while there is no active fallback reviewer, else those that are the
 * own access of every fallback reviewer.
 */
export async function coverageState(db: DbClient): Promise<CoverageState> {
  // What it is worked out from changes rarely (rows, criteria and moves, the settings, the users):
  // one small query tells whether the last one still holds, so the dashboard does not work it out per request.
  const [stamp] = await db.$queryRaw<{ s: string }[]>`
    SELECT concat_ws('|', v.version, v.criteria_version,
             (SELECT updated_at FROM admin_settings WHERE setting_key = ${REVIEW_SETTINGS_KEY}),
             (SELECT max(updated_at) FROM users), (SELECT count(*) FROM users)) AS s
      FROM risk_data_version v WHERE v.id = 1`;
  const key = stamp?.s ?? '';
  let last = lastStates.get(db);
  if (last?.stamp !== key) lastStates.set(db, (last = { stamp: key, state: workOutCoverageState(db) }));
  const state = last.state;
  state.catch(() => lastStates.get(db)?.state === state && lastStates.delete(db));
  return state;
}

/** The last state worked out, per database client (a transaction's client has its own). */
const lastStates = new WeakMap<DbClient, { stamp: string; state: Promise<CoverageState> }>();

async function workOutCoverageState(db: DbClient): Promise<CoverageState> {
  const [coverage, { active, inactive }] = await Promise.all([coverageOf(db), fallbackReviewers(db)]);
  let nobody = unheldRowsCondition(coverage);
  let fallbackOwn: string[] | null = null;
  if (active.length) {
    const owns = active.map((u) => new Set(ownIdVariants(u.accessUserIds)));
    fallbackOwn = [...owns[0]!].filter((id) => owns.every((o) => o.has(id)));
    nobody = fallbackOwn.length ? Prisma.sql`(${nobody} AND r.user_id = ANY(${fallbackOwn}::text[]))` : Prisma.sql`FALSE`;
  }
  const key = crypto.createHash('sha256').update(JSON.stringify({ coverage, fallbackOwn })).digest('base64url');
  return { coverage, active, inactive, nobody, key };
}

/** How many live rows nobody can review (counted once per data version and coverage). */
export async function countUnassigned(db: DbClient, state: CoverageState): Promise<number> {
  return cached(db, `unassigned|${state.key}`, async () => {
    const [r] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM risk_rows r WHERE ${LIVE_ROWS} AND ${state.nobody}`;
    return Number(r?.n ?? 0);
  });
}

/** How many live rows no reviewer holds: the fallback reviewers', or nobody's (counted once per data version and coverage). */
export async function countUnheld(db: DbClient, state: CoverageState): Promise<number> {
  return cached(db, `unheld|${state.key}`, async () => {
    const [r] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM risk_rows r WHERE ${LIVE_ROWS} AND ${unheldRowsCondition(state.coverage)}`;
    return Number(r?.n ?? 0);
  });
}

/** 'Unassigned conflicts' on the dashboard: the count, and the fallback reviewers who are named but cannot review. */
export async function unassignedConflicts(caller: Caller): Promise<{ count: number; inactiveFallbackReviewers: User[] }> {
  const db = caller.deps.prisma;
  const state = await coverageState(db);
  return { count: await countUnassigned(db, state), inactiveFallbackReviewers: state.inactive };
}

export type UnassignedRoute = 'fallback' | 'nobody';

export interface UnassignedRow extends ConflictRowFields {
  id: bigint;
  /** 'self-review': its only holders may not review their own access; 'unassigned': no criterion gives it to anyone. */
  reason: 'self-review' | 'unassigned';
  /** Where it goes: to the fallback reviewers, or to nobody. */
  route: UnassignedRoute;
}

/** The rows no assignment gives to a reviewer who may review them (administrators), a page at a time, in row order. */
export async function listUnassigned(
  caller: Caller,
  page: { limit?: number; offset?: number } = {},
): Promise<{ total: number; nobody: number; rows: UnassignedRow[] }> {
  const db = caller.deps.prisma;
  if (caller.actor.user.role !== 'admin') throw new ForbiddenError('Only administrators can do this');
  const limit = Math.min(Math.max(page.limit ?? 100, 1), 500);
  const offset = Math.max(page.offset ?? 0, 0);
  const state = await coverageState(db);
  const unheld = unheldRowsCondition(state.coverage);
  const [total, nobody] = await Promise.all([countUnheld(db, state), countUnassigned(db, state)]);
  const selfRouted = state.coverage.selfRouted;
  const rows = await db.$queryRaw<(Omit<UnassignedRow, 'route'> & { nobody: boolean })[]>`
    SELECT r.id, r.user_id AS "userId", r.user_name AS "userName", r.access_risk_id AS "accessRiskId", r.risk_description AS "riskDescription",
           r.risk_level::text AS "riskLevel", r.system, r.role_profile AS "roleProfile",
           CASE WHEN r.id = ANY(${selfRouted}::bigint[]) THEN 'self-review' ELSE 'unassigned' END AS reason,
           (${state.nobody}) AS nobody
      FROM risk_rows r WHERE ${LIVE_ROWS} AND ${unheld}
     ORDER BY r.id LIMIT ${limit} OFFSET ${offset}`;
  return { total, nobody, rows: rows.map(({ nobody: n, ...r }) => ({ ...r, id: BigInt(r.id), route: n ? 'nobody' : 'fallback' })) };
}

/** What a close of a period must say when rows nobody could see remain. */
export function closeReasonNeeded(count: number): string {
  return `${count} conflict${count === 1 ? '' : 's'} could not be seen by any reviewer: give a reason to close the period anyway`;
}

/**
 * What a close records of coverage: the rows nobody could review, and the
 * reason given for closing with any. Once administrators have set up the
 * coverage control (review settings saved), a close without a reason while
 * any remain is refused; before that, a period closes as it always did (the
 * count is still recorded), so existing closes and tools keep working.
 */
export async function coverageAtClose(db: DbClient, reason: string | null): Promise<{ unassignedConflicts: number; closeReason: string | null }> {
  const count = await countUnassigned(db, await coverageState(db));
  const controlled = (await db.adminSetting.count({ where: { settingKey: REVIEW_SETTINGS_KEY } })) > 0;
  if (count > 0 && !reason && controlled) throw new ConflictError(closeReasonNeeded(count));
  return { unassignedConflicts: count, closeReason: reason };
}

export const SELF_REVIEW_REFUSED = 'self-review is not allowed: rows of your own access go to the fallback reviewer';

/**
 * Independence, for every way of deciding (one row, a batch, a user's
 * role, by filter; REST and GraphQL alike): a decision on a row whose User
 * ID is one of the decider's own user ids is refused (403), naming the rule,
 * before anything is written.
 */
export async function refuseSelfReview(
  db: DbClient,
  user: User,
  target: { rowIds?: bigint[]; userIds?: (string | null | undefined)[]; rows?: Prisma.Sql; join?: Prisma.Sql },
): Promise<void> {
  const own = ownIdVariants(user.accessUserIds);
  if (!own.length) return;
  const upper = new Set(own.map((id) => id.toUpperCase()));
  const named = target.userIds?.find((u) => u && upper.has(u.trim().toUpperCase()));
  if (named) throw new ForbiddenError(`User ${named} is your own access: ${SELF_REVIEW_REFUSED}`);
  const where = target.rows ?? (target.rowIds?.length ? Prisma.sql`r.id = ANY(${target.rowIds}::bigint[])` : null);
  if (!where) return;
  const [hit] = await db.$queryRaw<{ id: bigint; user_id: string }[]>`
    SELECT r.id, r.user_id FROM risk_rows r ${target.join ?? Prisma.empty} WHERE r.user_id = ANY(${own}::text[]) AND ${where} ORDER BY r.id LIMIT 1`;
  if (hit) throw new ForbiddenError(`Risk ${hit.id} is your own access (user ${hit.user_id}): ${SELF_REVIEW_REFUSED}`);
}

export interface EvidenceCoverage {
  unassignedConflicts: number;
  closeReason: string | null;
  fallbackReviewers: string[];
  inactiveFallbackReviewers: string[];
  /** Each reviewer's rows routed away from them as their own access: to the fallback reviewers. */
  selfReviewRoutings: { reviewer: string; userId: string; rows: number }[];
}

/** The coverage the evidence records: rows nobody could review, the reason the close gave, and each self-review routing. */
export async function evidenceCoverage(db: DbClient, periodId: string): Promise<EvidenceCoverage> {
  const state = await coverageState(db);
  const closed = await db.auditEvent.findFirst({ where: { periodId, action: 'period.closed' }, orderBy: { id: 'desc' } });
  const after = (closed?.after ?? {}) as { closeReason?: string | null };
  const reviewers = await db.user.findMany({ where: { role: 'reviewer', isActive: true, ...HOLDS_WORK }, orderBy: [{ email: 'asc' }, { id: 'asc' }] });
  const sets = await criteriaSetsOf(
    db,
    reviewers.map((u) => u.id),
  );
  const parts = reviewers.flatMap((u, i) => {
    const s = sets.get(u.id)!;
    if (!s.own.length) return [];
    // The reviewer's holds without the independence rule, on rows of their own access.
    const holds = assignedRowsCondition({ ...s, own: [], fallback: null });
    return [
      Prisma.sql`SELECT ${i}::int AS k, r.user_id, count(*) AS n FROM risk_rows r WHERE ${LIVE_ROWS} AND r.user_id = ANY(${s.own}::text[]) AND ${holds} GROUP BY r.user_id`,
    ];
  });
  const routed = parts.length ? await db.$queryRaw<{ k: number; user_id: string; n: bigint }[]>`${Prisma.join(parts, ' UNION ALL ')} ORDER BY 1, 2` : [];
  return {
    unassignedConflicts: await countUnassigned(db, state),
    closeReason: after.closeReason ?? null,
    fallbackReviewers: state.active.map(personLabel),
    inactiveFallbackReviewers: state.inactive.map(personLabel),
    selfReviewRoutings: routed.map((r) => ({ reviewer: personLabel(reviewers[r.k]!), userId: r.user_id, rows: Number(r.n) })),
  };
}
