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
// that user and role, else none (pending). 'Shared' is kept per period by the
// database (services/kept/shared-items.ts, the rule's one home) and read here for
// the whole filtered set (the Shared Roles filter and the total need it),
// never worked out row by row in JavaScript.
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { withPlanSettings } from '../../db/plan-settings.js';
import { isUuid } from '../../core/types.js';
import {
  countKeptDecisions,
  countKeptReviewerDecisions,
  freshSharedItems,
  isSharedSql,
  keptReviewerDecisions,
  periodsWithDecisions,
  sharedFilterSql,
} from '../kept/index.js';
import { MITIGATED, likeContains } from '../risk-rules.js';
import type { Viewer } from '../viewer.js';
import type { Caller } from '../caller.js';
import {
  DEFAULT_REVIEW_PAGE_SIZE,
  RECENT_REVIEWS,
  checkedFilter,
  checkedPaging,
  type ReviewFilter,
  type ReviewKey,
  type ReviewPaging,
  type ReviewRecord,
  type SharedWith,
} from './review-query.js';

export * from './review-query.js';

/** SPEC §9: All Reviews page sizes, default 100; Recent Risk Reviews shows this many. */
/** A decision's key in SQL (alias d): epoch microseconds as text. */
const keyAtSql = Prisma.sql`(extract(epoch FROM d.updated_at) * 1000000)::bigint::text`;
/** The (updated_at, id) of a key, to compare with (d.updated_at, d.id). */
const keySql = (k: ReviewKey) => Prisma.sql`(timestamptz 'epoch' + ${k.at}::bigint * interval '1 microsecond', ${k.id}::uuid)`;

/** A person's name as lists show it (first and last name, else the e-mail), in SQL over users alias `alias`. */
const nameSql = (alias: string) => Prisma.raw(`coalesce(nullif(trim(${alias}.first_name || ' ' || ${alias}.last_name), ''), ${alias}.email)`);

/**
 * The search (SPEC §2 All Reviews: user, role or reviewer), the rule: a
 * decision matches when its row's user id, user name or role/profile, or its
 * reviewer's name or e-mail, contains the text. Rows alias r, reviewer alias u.
 */
const rowMatchSql = (like: string) => Prisma.sql`(r.user_id ILIKE ${like} OR r.user_name ILIKE ${like} OR r.role_profile ILIKE ${like})`;
const reviewerMatchSql = (like: string, alias = 'u') => Prisma.sql`(${nameSql(alias)} ILIKE ${like} OR ${Prisma.raw(alias)}.email ILIKE ${like})`;
/**
 * The decision's reviewer matches (the same rule), as one of the reviewers
 * matching, worked out once: the planner then sees how many decisions that
 * is (a reviewer's name tested per decision was estimated to match almost
 * none, and a search matching a tenth of them joined every decision: 1.7 s
 * at 1M rows for 'Rev 3', against 55 ms walking the newest first).
 */
const byMatchingReviewerSql = (like: string) =>
  Prisma.sql`d.reviewer_id = ANY(coalesce((SELECT array_agg(mu.id) FROM users mu WHERE ${reviewerMatchSql(like, 'mu')}), '{}')::uuid[])`;

/** The decisions the viewer may list (alias d, rows r, reviewer u, period p), filtered (the search unless told not to). */
function reviewsWhere(viewer: Viewer, visible: Prisma.Sql, f: ReturnType<typeof checkedFilter>, withSearch = true): Prisma.Sql {
  const parts: Prisma.Sql[] = [visible];
  if (viewer.role !== 'admin') parts.push(Prisma.sql`d.reviewer_id = ${viewer.user.id}::uuid`);
  if (f.ids) parts.push(Prisma.sql`d.id = ANY(${[...f.ids]}::uuid[])`);
  if (f.decision === 'remove') parts.push(Prisma.sql`d.decision = 'remove'`);
  if (f.decision === 'retain') parts.push(Prisma.sql`d.decision IN ('retain', ${Prisma.raw(`'${MITIGATED}'`)})`);
  if (f.search && withSearch) {
    const like = likeContains(f.search);
    parts.push(Prisma.sql`(${rowMatchSql(like)} OR ${byMatchingReviewerSql(like)})`);
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
  key_at: string;
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
    key: { at: r.key_at, id: r.id },
  };
}

/** A page of All Reviews: the decisions, how many match in all, and whether more come on either side. */
export interface ReviewList {
  reviews: ReviewRecord[];
  total: number;
  page: number;
  limit: number;
  /** Decisions that match come before the first listed (newer). */
  hasNewer: boolean;
  /** Decisions that match come after the last listed (older). */
  hasOlder: boolean;
}

/**
 * The decisions the viewer may list, filtered (aliases d, r, u; the 'shared'
 * filter joins the kept item si): FROM and WHERE, for the page, the count and
 * the look beyond a page. `lateral` reads each decision's row by its key
 * (a count driven by a reviewer's own decisions: the planner, misjudging the
 * assignment condition, otherwise hashed every row); `search: false` leaves
 * the search out, `extra` adds a condition.
 */
function matchingSql(
  viewer: Viewer,
  visible: Prisma.Sql,
  f: ReturnType<typeof checkedFilter>,
  o: { lateral?: boolean; search?: boolean; extra?: Prisma.Sql; reviewers?: boolean } = {},
): Prisma.Sql {
  const search = o.search ?? true;
  const where = reviewsWhere(viewer, visible, f, search);
  const sharedJoin = f.shared
    ? Prisma.sql`LEFT JOIN shared_items si ON si.period_id = d.period_id AND si.user_id = r.user_id AND si.role_profile = r.role_profile`
    : Prisma.empty;
  const rows = o.lateral
    ? Prisma.sql`CROSS JOIN LATERAL (SELECT r.* FROM risk_rows r WHERE r.id = d.risk_row_id OFFSET 0) r`
    : Prisma.sql`JOIN risk_rows r ON r.id = d.risk_row_id`;
  // The reviewer (u) is read for the page; a count leaves it out (the search matches reviewers by id).
  const users = (o.reviewers ?? true) ? Prisma.sql`JOIN users u ON u.id = d.reviewer_id` : Prisma.empty;
  return Prisma.sql`FROM decisions d ${rows} ${users} ${sharedJoin}
       WHERE ${where} ${sharedFilterSql(f.shared)} ${o.extra ? Prisma.sql`AND ${o.extra}` : Prisma.empty}`;
}

/**
 * All Reviews (SPEC §2, §7 GET /api/reviews/all): the decisions the viewer may
 * list, newest first (last change, then id), filtered by search (user, role
 * or reviewer), decision and shared, one page of them with 'Shared With', and
 * how many match. A page is read by number (OFFSET), or from a decision's key
 * (after / before it: a seek, which stays put whatever is decided meanwhile),
 * or from the end (fromEnd: the last `limit`, before `before` if given).
 */
export async function listReviews(caller: Caller, filter: ReviewFilter, paging: ReviewPaging): Promise<ReviewList> {
  const { viewer } = caller;
  const { prisma } = caller.deps;
  const f = checkedFilter(filter);
  const { limit, offset, page } = checkedPaging(paging, DEFAULT_REVIEW_PAGE_SIZE);
  const after = paging.after ?? null;
  const before = paging.before ?? null;
  const backward = Boolean(paging.fromEnd);
  const { visible } = await viewer.scope();
  const matching = matchingSql(viewer, visible, f);
  // 'Shared' is read from the items kept per period (services/kept/shared-items.ts), brought up to date first.
  const periods = await periodsWithDecisions(prisma);
  await freshSharedItems(prisma, periods);
  const seek = Prisma.join(
    [
      after ? Prisma.sql`AND (d.updated_at, d.id) < ${keySql(after)}` : Prisma.empty,
      before ? Prisma.sql`AND (d.updated_at, d.id) > ${keySql(before)}` : Prisma.empty,
    ],
    ' ',
  );
  // Read towards the cursor's far side (one more than a page: is there another?); from the end, oldest first.
  const order = backward ? Prisma.sql`ORDER BY d.updated_at ASC, d.id ASC` : Prisma.sql`ORDER BY d.updated_at DESC, d.id DESC`;
  // Is there a matching decision on the near side of the cursor (it included)?
  const beyond = backward
    ? before
      ? Prisma.sql`(d.updated_at, d.id) <= ${keySql(before)}`
      : null
    : after
      ? Prisma.sql`(d.updated_at, d.id) >= ${keySql(after)}`
      : null;
  // An administrator's search is counted first (kept sums, a few ms): when nothing matches, the page does
  // not walk every decision newest first looking for one (seconds at 1M decisions).
  const searchTotal = f.search && viewer.role === 'admin' ? await countReviews(prisma, viewer, visible, periods, f) : null;
  if (searchTotal === 0) return { reviews: [], total: 0, page, limit, hasNewer: false, hasOlder: false };
  const [rows, total, other] = await Promise.all([
    // Without parallel workers: the planner split the newest-first walk between the leader and two
    // workers, each walking ahead to fill its queue while the merge took one page from all three: at
    // 1M decisions 'Martin' (6.7% match) walked 10,328 decisions (24,000-33,000 buffers, 66-88 ms)
    // for a page found in 1,500 (7,100 buffers, 22 ms) alone.
    withPlanSettings(
      prisma,
      { parallelWorkers: 0 },
      prisma.$queryRaw<RawReview[]>`
    WITH cut AS MATERIALIZED (
      SELECT d.id, d.period_id, d.risk_row_id, d.reviewer_id, d.decision::text AS decision, d.comments, d.updated_at, ${keyAtSql} AS key_at,
             r.user_id, r.user_name, r.risk_level::text AS risk_level, r.role_profile, ${nameSql('u')} AS reviewer_name
        ${matching} ${seek}
       ${order} LIMIT ${limit + 1} OFFSET ${offset}
    ), page AS MATERIALIZED (
      SELECT cut.*, ${isSharedSql('si')} AS is_shared, si.reviewers
        FROM cut LEFT JOIN shared_items si USING (period_id, user_id, role_profile)
    ), item_decisions AS MATERIALIZED (
      -- Every decision in the period on a row of a shared item of the page.
      SELECT k.period_id, k.user_id, k.role_profile, sd.reviewer_id, sd.risk_row_id, sd.decision::text AS decision, sd.updated_at, sd.id
        FROM (SELECT DISTINCT period_id, user_id, role_profile FROM page WHERE is_shared) k
        JOIN risk_rows r ON r.user_id = k.user_id AND r.role_profile = k.role_profile
        JOIN decisions sd ON sd.risk_row_id = r.id AND sd.period_id = k.period_id
    ), latest AS (
      SELECT DISTINCT ON (period_id, user_id, role_profile, reviewer_id) period_id, user_id, role_profile, reviewer_id, decision
        FROM item_decisions ORDER BY period_id, user_id, role_profile, reviewer_id, updated_at DESC, id DESC
    ), shared_with AS MATERIALIZED (
      -- The other reviewers of each shared row: their decision on the same row, else their latest on the item, else none.
      SELECT page.id, json_agg(json_build_object('reviewerId', o.id, 'reviewerName', ${nameSql('o')},
               'decision', coalesce(same.decision, l.decision)) ORDER BY ${nameSql('o')}, o.id) AS list
        FROM page CROSS JOIN LATERAL unnest(page.reviewers) AS other(id)
        JOIN users o ON o.id = other.id
        LEFT JOIN item_decisions same ON same.period_id = page.period_id AND same.reviewer_id = o.id AND same.risk_row_id = page.risk_row_id
        LEFT JOIN latest l ON l.period_id = page.period_id AND l.user_id = page.user_id AND l.role_profile = page.role_profile AND l.reviewer_id = o.id
       WHERE page.is_shared AND o.id <> page.reviewer_id
       GROUP BY page.id
    )
    SELECT page.id, page.period_id, p.name AS period_name, page.risk_row_id, page.user_id, page.user_name, page.risk_level,
           page.role_profile, page.decision, page.comments, page.reviewer_id, page.reviewer_name, page.is_shared,
           page.updated_at AS decided_at, page.key_at, coalesce(sw.list, '[]'::json) AS shared_with
      FROM page JOIN review_periods p ON p.id = page.period_id LEFT JOIN shared_with sw ON sw.id = page.id
     ORDER BY page.updated_at DESC, page.id DESC`,
    ),
    searchTotal ?? countReviews(prisma, viewer, visible, periods, f),
    beyond ? prisma.$queryRaw<{ found: boolean }[]>`SELECT EXISTS (SELECT 1 ${matching} AND ${beyond}) AS found`.then((r) => Boolean(r[0]?.found)) : false,
  ]);
  // Newest first; the one more than a page is at the far end of the reading.
  const more = rows.length > limit;
  if (more) {
    if (backward) rows.shift();
    else rows.pop();
  }
  return {
    reviews: rows.map(fromRaw),
    total,
    page,
    limit,
    hasNewer: backward ? more : offset > 0 ? total > 0 : other,
    hasOlder: backward ? other : more,
  };
}

/**
 * How many decisions match. A reviewer's: counted, driven by their own
 * decisions. An administrator's: sums kept per item (services/kept/shared-items.ts)
 * without a search; with one, the search's rule split by what it matches
 * (searchSplit): the kept sums of the items whose every row matches (by user
 * id, by a user's only names, by role), plus the decisions counted on rows
 * matching by a user name their user id does not always carry, plus those of
 * matching reviewers on rows that do not match (their sums kept per item,
 * less the items matched whole, less their decisions counted on the rows
 * matched by a name): the same set as the rule.
 */
async function countReviews(
  prisma: PrismaClient,
  viewer: Viewer,
  visible: Prisma.Sql,
  periods: string[],
  f: ReturnType<typeof checkedFilter>,
): Promise<number> {
  // Without JIT: compiling the count's plan (costed by its thousands of row lookups) took 4 times as
  // long as running it (1.2 s against 0.28 s for a reviewer's 12k decisions at 1M rows).
  const count = async (matching: Prisma.Sql) =>
    Number((await withPlanSettings(prisma, { jit: 'off' }, prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n ${matching}`))[0]?.n ?? 0);
  if (viewer.role !== 'admin' || f.ids) {
    // A reviewer's decisions on the rows they see, with or without the Decision filter: the sums of
    // their days kept per period (services/kept/trend-days.ts), plus those counted in periods not kept.
    const kept = viewer.role !== 'admin' && !f.ids && !f.search && !f.shared ? await keptReviewerDecisions(prisma, viewer.user, periods, f.decision) : null;
    if (kept && !kept.notKept.length) return kept.n;
    const extra = kept ? Prisma.sql`d.period_id = ANY(${kept.notKept}::uuid[])` : undefined;
    return (kept?.n ?? 0) + (await count(matchingSql(viewer, visible, f, { lateral: viewer.role !== 'admin', reviewers: false, extra })));
  }
  if (!f.search) return countKeptDecisions(prisma, periods, f.shared, f.decision);
  const like = likeContains(f.search);
  const m = await searchSplit(prisma, like);
  // The rows that match by a name their user id does not always carry (and not by their role).
  const byNameOnly = Prisma.sql`r.user_id = ANY(${m.someNames}::text[]) AND r.user_name ILIKE ${like} AND NOT r.role_profile = ANY(${m.roles}::text[])`;
  const parts = await Promise.all([
    countKeptDecisions(prisma, periods, f.shared, f.decision, { userIds: m.wholeUsers, roles: m.roles }),
    m.someNames.length ? count(matchingSql(viewer, visible, f, { search: false, reviewers: false, extra: byNameOnly })) : 0,
    // Matching reviewers' decisions on rows that do not match: their kept sums less the items matched whole,
    m.reviewers.length ? countKeptReviewerDecisions(prisma, periods, f.shared, f.decision, m.reviewers, { userIds: m.wholeUsers, roles: m.roles }) : 0,
    // less their decisions on rows matched by a name (counted in the second part).
    m.reviewers.length && m.someNames.length
      ? count(
          matchingSql(viewer, visible, f, {
            search: false,
            reviewers: false,
            extra: Prisma.sql`d.reviewer_id = ANY(${m.reviewers}::uuid[]) AND ${byNameOnly}`,
          }),
        )
      : 0,
  ]);
  return parts[0] + parts[1] + parts[2] - parts[3];
}

/**
 * What a search (a LIKE pattern) matches, split for counting: user ids all of
 * whose rows match (the id matches, or every name it carries does), user ids
 * only some of whose rows match (by a name it carries among others), roles,
 * and reviewers. risk_terms holds every user id with each of its names and
 * every role of the rows (services/review/risks.ts), so no row is missed.
 */
async function searchSplit(db: PrismaClient, like: string): Promise<{ wholeUsers: string[]; someNames: string[]; roles: string[]; reviewers: string[] }> {
  const [terms, reviewers] = await Promise.all([
    db.$queryRaw<{ kind: string; value: string; whole: boolean }[]>`
      SELECT t.kind, t.value, bool_and(t.kind = 'role' OR t.value ILIKE ${like} OR t.label ILIKE ${like}) OR bool_or(t.value ILIKE ${like}) AS whole
        FROM risk_terms t
       WHERE (t.kind, t.value) IN (SELECT m.kind, m.value FROM risk_terms m
                                    WHERE (m.kind = 'user' AND (m.value ILIKE ${like} OR m.label ILIKE ${like})) OR (m.kind = 'role' AND m.value ILIKE ${like}))
       GROUP BY t.kind, t.value`,
    db.$queryRaw<{ id: string }[]>`SELECT u.id::text AS id FROM users u WHERE ${reviewerMatchSql(like)}`,
  ]);
  const users = terms.filter((t) => t.kind === 'user');
  return {
    wholeUsers: users.filter((t) => t.whole).map((t) => t.value),
    someNames: users.filter((t) => !t.whole).map((t) => t.value),
    roles: terms.filter((t) => t.kind === 'role').map((t) => t.value),
    reviewers: reviewers.map((r) => r.id),
  };
}

/** The given decisions as the viewer may list them (null for one they may not see or that does not exist). */
export async function getReviews(caller: Caller, ids: readonly string[]): Promise<(ReviewRecord | null)[]> {
  const wanted = ids.filter(isUuid);
  if (!wanted.length) return ids.map(() => null);
  const { reviews } = await listReviews(caller, { ids: wanted }, { limit: Math.min(wanted.length, 500) });
  const byId = new Map(reviews.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** Reports, 'Recent Risk Reviews' (SPEC §7 GET /api/dashboard/recent-reviews): the newest decisions the viewer may list. */
export async function recentReviews(caller: Caller, limit = RECENT_REVIEWS): Promise<ReviewRecord[]> {
  const { viewer } = caller;
  const n = Math.min(Math.max(Math.trunc(limit) || RECENT_REVIEWS, 1), 50);
  const { visible } = await viewer.scope();
  const where = reviewsWhere(viewer, visible, { search: null, decision: null, shared: null });
  const rows = await caller.deps.prisma.$queryRaw<RawReview[]>`
    SELECT d.id, d.period_id, p.name AS period_name, d.risk_row_id, r.user_id, r.user_name, r.risk_level::text AS risk_level,
           r.role_profile, d.decision::text AS decision, d.comments, d.reviewer_id, ${nameSql('u')} AS reviewer_name,
           false AS is_shared, NULL::json AS shared_with, d.updated_at AS decided_at, ${keyAtSql} AS key_at
      FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id JOIN users u ON u.id = d.reviewer_id
      JOIN review_periods p ON p.id = d.period_id
     WHERE ${where}
     ORDER BY d.updated_at DESC, d.id DESC LIMIT ${n}`;
  return rows.map(fromRaw);
}
