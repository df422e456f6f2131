// The review history: every decision made, as the Reports page ('Recent Risk
// Reviews') and All Reviews (SPEC §2) list it. One row is one reviewer's
// decision on one risk row in one period. Administrators see everyone's,
// reviewers their own; either way only decisions on rows the viewer may see
// (services/visibility.ts).
//
// Shared (README 'Review workflow'): a review is shared when the same user and
// role (user id and role/profile) is reviewed by more than one reviewer in the
// period: assigned rows of that user and role by their criteria, or having
// decided on them. 'Shared With' names the other reviewers, each with their
// decision on the same risk row in the period, else their latest decision on
// that user and role, else none (pending). Both are computed by the database
// for the whole filtered set (the Shared Roles filter and the total need it),
// never row by row in JavaScript.
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { ValidationError } from '../core/errors.js';
import { isUuid } from '../core/types.js';
import { rowHoldersSql } from './assignments.js';
import { LIVE_ROWS } from './live-rows.js';
import { MITIGATED, likeContains } from './risk-rules.js';
import type { Viewer } from './viewer.js';

/** SPEC §9: All Reviews page sizes, default 100; Recent Risk Reviews shows this many. */
export const REVIEW_PAGE_SIZES = [50, 100, 200, 500] as const;
export const DEFAULT_REVIEW_PAGE_SIZE = 100;
export const RECENT_REVIEWS = 10;
const MAX_PAGE = 1_000_000;
const MAX_SEARCH = 200;

/** The Decision filter (SPEC §7 decision=retain|remove; a retain under a mitigating control is a retain). */
export const REVIEW_DECISION_FILTERS = ['retain', 'remove'] as const;
/** The Shared Roles filter (SPEC §7 shared=shared|unique). */
export const REVIEW_SHARED_FILTERS = ['shared', 'unique'] as const;

export interface ReviewFilter {
  search?: string | null;
  decision?: string | null;
  shared?: string | null;
  /** Only these decisions (by id): node(id:) reads them back through the same rules. */
  ids?: readonly string[] | null;
}

export interface ReviewPaging {
  page?: number | string | null;
  limit?: number | string | null;
  /** Rows to skip, when given instead of a page (GraphQL cursors). */
  offset?: number | null;
}

export interface SharedWith {
  reviewerId: string;
  reviewerName: string;
  /** retain, remove, retain_mitigated; null while pending. */
  decision: string | null;
}

export interface ReviewRecord {
  id: string;
  periodId: string;
  periodName: string;
  riskRowId: bigint;
  userId: string;
  userName: string;
  riskLevel: string;
  roleProfile: string;
  decision: string;
  comments: string | null;
  reviewerId: string;
  reviewerName: string;
  isSharedRole: boolean;
  sharedWith: SharedWith[];
  /** When the decision was made (its last change). */
  createdAt: Date;
}

const present = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function checkedFilter(f: ReviewFilter): { search: string | null; decision: string | null; shared: string | null; ids?: readonly string[] | null } {
  const pick = (v: unknown, allowed: readonly string[], name: string) => {
    if (v === undefined || v === null || v === '' || v === 'all') return null;
    if (typeof v !== 'string' || !allowed.includes(v)) throw new ValidationError(`${name} must be ${allowed.join(' or ')}`, name);
    return v;
  };
  if (f.search !== undefined && f.search !== null && typeof f.search !== 'string') throw new ValidationError('search must be text', 'search');
  const search = present(f.search) ? f.search.trim() : null;
  if (search && search.length > MAX_SEARCH) throw new ValidationError(`search is too long (${MAX_SEARCH} characters at most)`, 'search');
  return { search, decision: pick(f.decision, REVIEW_DECISION_FILTERS, 'decision'), shared: pick(f.shared, REVIEW_SHARED_FILTERS, 'shared'), ids: f.ids };
}

function checkedPaging(p: ReviewPaging, defaultLimit: number): { limit: number; offset: number; page: number } {
  const num = (v: unknown, name: string, fallback: number) => {
    if (v === undefined || v === null || v === '') return fallback;
    const n = typeof v === 'number' ? v : /^\d{1,9}$/.test(String(v)) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 1) throw new ValidationError(`${name} must be a whole number from 1`, name);
    return n;
  };
  const limit = num(p.limit, 'limit', defaultLimit);
  if (limit > REVIEW_PAGE_SIZES[REVIEW_PAGE_SIZES.length - 1]!) throw new ValidationError('limit must be at most 500', 'limit');
  if (p.offset !== undefined && p.offset !== null) {
    const offset = Math.max(0, Math.trunc(p.offset));
    return { limit, offset, page: Math.floor(offset / limit) + 1 };
  }
  const page = num(p.page, 'page', 1);
  if (page > MAX_PAGE) throw new ValidationError(`page must be at most ${MAX_PAGE.toLocaleString('en-US')}`, 'page');
  return { limit, page, offset: (page - 1) * limit };
}

/** A person's name as lists show it (first and last name, else the e-mail), in SQL over users alias `alias`. */
const nameSql = (alias: string) => Prisma.raw(`coalesce(nullif(trim(${alias}.first_name || ' ' || ${alias}.last_name), ''), ${alias}.email)`);

/**
 * The reviewers of a user and role (alias k: period_id, user_id, role_profile):
 * those holding a live row of it by the visibility rule (criteria and moved
 * items, rowHoldersSql), and those who decided a row of it in the period.
 */
const itemReviewersSql = Prisma.sql`(
  SELECT holder.reviewer_id FROM risk_rows r CROSS JOIN LATERAL ${rowHoldersSql} holder
   WHERE r.user_id = k.user_id AND r.role_profile = k.role_profile AND ${LIVE_ROWS}
  UNION SELECT od.reviewer_id FROM decisions od JOIN risk_rows r ON r.id = od.risk_row_id
   WHERE od.period_id = k.period_id AND r.user_id = k.user_id AND r.role_profile = k.role_profile AND ${LIVE_ROWS}
)`;

/** The decisions the viewer may list (alias d, rows r, reviewer u, period p), filtered. */
function reviewsWhere(viewer: Viewer, visible: Prisma.Sql, f: ReturnType<typeof checkedFilter>): Prisma.Sql {
  const parts: Prisma.Sql[] = [visible];
  if (viewer.role !== 'admin') parts.push(Prisma.sql`d.reviewer_id = ${viewer.user.id}::uuid`);
  if (f.ids) parts.push(Prisma.sql`d.id = ANY(${[...f.ids]}::uuid[])`);
  if (f.decision === 'remove') parts.push(Prisma.sql`d.decision = 'remove'`);
  if (f.decision === 'retain') parts.push(Prisma.sql`d.decision IN ('retain', ${Prisma.raw(`'${MITIGATED}'`)})`);
  if (f.search) {
    const like = likeContains(f.search);
    parts.push(Prisma.sql`(r.user_id ILIKE ${like} OR r.user_name ILIKE ${like} OR r.role_profile ILIKE ${like}
      OR ${nameSql('u')} ILIKE ${like} OR u.email ILIKE ${like})`);
  }
  return Prisma.join(parts, ' AND ');
}

type RawReview = {
  id: string;
  period_id: string;
  period_name: string;
  risk_row_id: bigint;
  user_id: string;
  user_name: string;
  risk_level: string;
  role_profile: string;
  decision: string;
  comments: string | null;
  reviewer_id: string;
  reviewer_name: string;
  is_shared: boolean;
  shared_with: SharedWith[] | null;
  decided_at: Date;
  total?: bigint;
};

function fromRaw(r: RawReview): ReviewRecord {
  return {
    id: r.id,
    periodId: r.period_id,
    periodName: r.period_name,
    riskRowId: BigInt(r.risk_row_id),
    userId: r.user_id,
    userName: r.user_name,
    riskLevel: r.risk_level,
    roleProfile: r.role_profile,
    decision: r.decision,
    comments: r.comments,
    reviewerId: r.reviewer_id,
    reviewerName: r.reviewer_name,
    isSharedRole: r.is_shared,
    sharedWith: r.shared_with ?? [],
    createdAt: new Date(r.decided_at),
  };
}

/**
 * All Reviews (SPEC §2, §7 GET /api/reviews/all): the decisions the viewer may
 * list, newest first, filtered by search (user, role or reviewer), decision
 * and shared, one page of them with 'Shared With', and how many match.
 */
export async function listReviews(
  prisma: PrismaClient,
  viewer: Viewer,
  filter: ReviewFilter,
  paging: ReviewPaging,
): Promise<{ reviews: ReviewRecord[]; total: number; page: number; limit: number }> {
  const f = checkedFilter(filter);
  const { limit, offset, page } = checkedPaging(paging, DEFAULT_REVIEW_PAGE_SIZE);
  const { visible } = await viewer.scope();
  const where = reviewsWhere(viewer, visible, f);
  const sharedCond = f.shared === 'shared' ? Prisma.sql`WHERE b.is_shared` : f.shared === 'unique' ? Prisma.sql`WHERE NOT b.is_shared` : Prisma.empty;
  // The items (period, user, role) of the matching decisions and their reviewers, once each.
  // Without the Shared Roles filter, the page is cut first and 'shared' worked out for its rows
  // only; with it, for every matching decision (the filter and the total need it).
  const items = (from: string) => Prisma.sql`items AS MATERIALIZED (
      SELECT k.period_id, k.user_id, k.role_profile, array_agg(DISTINCT x.reviewer_id) AS reviewers
        FROM (SELECT DISTINCT period_id, user_id, role_profile FROM ${Prisma.raw(from)}) k
        CROSS JOIN LATERAL ${itemReviewersSql} x
       GROUP BY 1, 2, 3
    )`;
  const pageCtes = f.shared
    ? Prisma.sql`${items('m')}, b AS (
      SELECT m.*, coalesce(cardinality(i.reviewers), 1) > 1 AS is_shared, i.reviewers
        FROM m LEFT JOIN items i USING (period_id, user_id, role_profile)
    ), page AS (
      SELECT b.*, count(*) OVER () AS total FROM b ${sharedCond}
       ORDER BY b.updated_at DESC, b.id DESC LIMIT ${limit} OFFSET ${offset}
    )`
    : Prisma.sql`cut AS (
      SELECT m.*, count(*) OVER () AS total FROM m ORDER BY m.updated_at DESC, m.id DESC LIMIT ${limit} OFFSET ${offset}
    ), ${items('cut')}, page AS (
      SELECT cut.*, coalesce(cardinality(i.reviewers), 1) > 1 AS is_shared, i.reviewers
        FROM cut LEFT JOIN items i USING (period_id, user_id, role_profile)
    )`;
  const rows = await prisma.$queryRaw<RawReview[]>`
    WITH m AS (
      SELECT d.id, d.period_id, d.risk_row_id, d.reviewer_id, d.decision::text AS decision, d.comments, d.updated_at,
             r.user_id, r.user_name, r.risk_level::text AS risk_level, r.role_profile, ${nameSql('u')} AS reviewer_name
        FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id JOIN users u ON u.id = d.reviewer_id
       WHERE ${where}
    ), ${pageCtes}
    SELECT page.id, page.period_id, p.name AS period_name, page.risk_row_id, page.user_id, page.user_name, page.risk_level,
           page.role_profile, page.decision, page.comments, page.reviewer_id, page.reviewer_name, page.is_shared,
           page.updated_at AS decided_at, page.total,
           (SELECT coalesce(json_agg(json_build_object('reviewerId', o.id, 'reviewerName', ${nameSql('o')},
                     'decision', coalesce(
                       (SELECT sd.decision::text FROM decisions sd WHERE sd.period_id = page.period_id AND sd.reviewer_id = o.id AND sd.risk_row_id = page.risk_row_id),
                       (SELECT sd.decision::text FROM decisions sd JOIN risk_rows r ON r.id = sd.risk_row_id
                         WHERE sd.period_id = page.period_id AND sd.reviewer_id = o.id AND r.user_id = page.user_id AND r.role_profile = page.role_profile
                         ORDER BY sd.updated_at DESC, sd.id DESC LIMIT 1)))
                   ORDER BY ${nameSql('o')}, o.id), '[]'::json)
              FROM users o WHERE o.id = ANY(page.reviewers) AND o.id <> page.reviewer_id) AS shared_with
      FROM page JOIN review_periods p ON p.id = page.period_id
     ORDER BY page.updated_at DESC, page.id DESC`;
  let total = Number(rows[0]?.total ?? 0);
  if (!rows.length && offset > 0) {
    // A page past the end: the total still counts what matches.
    const c = await prisma.$queryRaw<{ n: bigint }[]>`
      WITH m AS (SELECT d.id, d.period_id, r.user_id, r.role_profile FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id JOIN users u ON u.id = d.reviewer_id WHERE ${where}),
      items AS (SELECT k.period_id, k.user_id, k.role_profile, count(DISTINCT x.reviewer_id) AS n
                  FROM (SELECT DISTINCT period_id, user_id, role_profile FROM m) k CROSS JOIN LATERAL ${itemReviewersSql} x GROUP BY 1, 2, 3)
      SELECT count(*) AS n FROM (SELECT coalesce(i.n, 1) > 1 AS is_shared FROM m LEFT JOIN items i USING (period_id, user_id, role_profile)) b ${sharedCond}`;
    total = Number(c[0]?.n ?? 0);
  }
  return { reviews: rows.map(fromRaw), total, page, limit };
}

/** The given decisions as the viewer may list them (null for one they may not see or that does not exist). */
export async function getReviews(prisma: PrismaClient, viewer: Viewer, ids: readonly string[]): Promise<(ReviewRecord | null)[]> {
  const wanted = ids.filter(isUuid);
  if (!wanted.length) return ids.map(() => null);
  const { reviews } = await listReviews(prisma, viewer, { ids: wanted }, { limit: Math.min(wanted.length, 500) });
  const byId = new Map(reviews.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** Reports, 'Recent Risk Reviews' (SPEC §7 GET /api/dashboard/recent-reviews): the newest decisions the viewer may list. */
export async function recentReviews(prisma: PrismaClient, viewer: Viewer, limit = RECENT_REVIEWS): Promise<ReviewRecord[]> {
  const n = Math.min(Math.max(Math.trunc(limit) || RECENT_REVIEWS, 1), 50);
  const { visible } = await viewer.scope();
  const where = reviewsWhere(viewer, visible, { search: null, decision: null, shared: null });
  const rows = await prisma.$queryRaw<RawReview[]>`
    SELECT d.id, d.period_id, p.name AS period_name, d.risk_row_id, r.user_id, r.user_name, r.risk_level::text AS risk_level,
           r.role_profile, d.decision::text AS decision, d.comments, d.reviewer_id, ${nameSql('u')} AS reviewer_name,
           false AS is_shared, NULL::json AS shared_with, d.updated_at AS decided_at
      FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id JOIN users u ON u.id = d.reviewer_id
      JOIN review_periods p ON p.id = d.period_id
     WHERE ${where}
     ORDER BY d.updated_at DESC, d.id DESC LIMIT ${n}`;
  return rows.map(fromRaw);
}

/** The REST shape of a review (SPEC §3 'Recent review' and 'Review decision row'). */
export function reviewJson(r: ReviewRecord, withShared: boolean) {
  const base = {
    id: r.id,
    userName: r.userName,
    userId: r.userId,
    riskLevel: r.riskLevel,
    roleProfile: r.roleProfile,
    decision: r.decision,
    reviewerName: r.reviewerName,
    createdAt: r.createdAt,
    periodId: r.periodId,
    periodName: r.periodName,
    riskDefinitionId: Number(r.riskRowId),
    comments: r.comments,
  };
  if (!withShared) return base;
  return {
    ...base,
    isSharedRole: r.isSharedRole,
    sharedWith: r.sharedWith.map((s) => ({ reviewerName: s.reviewerName, decision: s.decision ?? '' })),
  };
}
