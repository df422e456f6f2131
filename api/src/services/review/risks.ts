// The risk queue: risk rows with filters, search and paging, each with the
// viewer's decision in the active period. Administrators see every row;
// reviewers only the rows assigned to them, whichever way they ask.
import { Prisma, type CriteriaType, type PrismaClient, type User } from '../../generated/prisma/client.js';
import { ValidationError } from '../../core/errors.js';
import { MAX_CRITERIA_VALUE_LENGTH } from '../../core/validation.js';
import { CRITERIA_COLUMN, CRITERIA_TYPES, assignedRowsCondition, criteriaSetsOf, hasItemHolds } from '../holds.js';
import { liveRowCount } from '../live-rows.js';
import { LIVE_ROWS, fromRaw, scopeKey, viewerScope, type RiskRowRaw, type RowScope } from '../visibility.js';
import type { DbClient } from '../../core/types.js';
import { cached, cachedMany, decidedRowsLive, keptDecidedRows, keptReviewerDecidedRows, scopeTotals } from '../kept/index.js';
import { callerSight, type Caller } from '../caller.js';
import {
  RECOMMENDATION_COLUMNS,
  RECOMMENDATION_RANK,
  checkRecommendation,
  checkSort,
  recommendationJoins,
  recommendationValueSql,
  type RecommendationContext,
} from './recommendations.js';
import { isMultiStage } from '../stages/stages.js';
import { listStageRisks, stageSummary, viewerStage } from '../stages/stage-reviews.js';
import { DECISION_STATES, PENDING, RISK_LEVELS, likeContains, orList } from '../risk-rules.js';
import { newSinceOf } from '../mid-period/arrivals.js';

export const MAX_PAGE_SIZE = 500;
/** The highest page number asked for by number (500 rows a page: far beyond any queue). */
export const MAX_PAGE = 1_000_000;

/** The filter's fields; a value is at most as long as an assignment's criteria value. */
export const FILTER_FIELDS = [
  'search',
  'riskLevel',
  'system',
  'userGroup',
  'roleProfile',
  'compositeRole',
  'ruleId',
  'accessRiskId',
  'userId',
  'decision',
  'recommendation',
] as const;
export const MAX_FILTER_VALUE_LENGTH = MAX_CRITERIA_VALUE_LENGTH;

export interface RiskFilter {
  search?: string | null;
  riskLevel?: string | null;
  system?: string | null;
  userGroup?: string | null;
  roleProfile?: string | null;
  compositeRole?: string | null;
  ruleId?: string | null;
  accessRiskId?: string | null;
  userId?: string | null;
  decision?: string | null;
  /** The recommendation (services/review/recommendations.ts): retain, remove or review. */
  recommendation?: string | null;
}

export interface RiskPage {
  page?: number | null;
  limit?: number | null;
  /** The id of the last row of the current page, to read the next one. */
  after?: string | null;
  /** The id of the first row of the current page, to read the previous one. */
  before?: string | null;
  /** 'row' (default) or 'recommendation' (remove, review, retain; then by row): paged by number only. */
  sort?: string | null;
}

export type { RiskRowWithDecision } from '../visibility.js';

/** The values of a filter that mean 'no filter' (the screens' 'All' choices). */
export const NO_FILTER_VALUES = ['', 'all', 'All', 'All Systems'] as const;
const ALL = new Set<string>(NO_FILTER_VALUES);
/** A filter value that narrows (not empty, not 'all'). */
export const present = (v: string | null | undefined): v is string => typeof v === 'string' && !ALL.has(v.trim());

/**
 * What a search matches in risk_terms (see RiskTerm in schema.prisma): users
 * and risks by id (every row of that id), users by name and risks by
 * description (only the rows with that name or description: one risk id may
 * carry several descriptions), roles by name.
 */
interface SearchTerms {
  /** Matched by value: every row of these ids. */
  users: string[];
  roles: string[];
  risks: string[];
  /** Matched by label only: the rows of these ids whose name / description is one of the labels. */
  userNames: { ids: string[]; labels: string[] };
  riskDescriptions: { ids: string[]; labels: string[] };
}

async function searchTerms(db: DbClient, search: string): Promise<SearchTerms> {
  const s = likeContains(search.trim());
  const rows = await db.$queryRaw<{ kind: string; value: string; label: string; by_value: boolean }[]>`
    SELECT t.kind, t.value, t.label, t.value ILIKE ${s} AS by_value FROM risk_terms t
     WHERE (t.kind IN ('user', 'risk') AND (t.value ILIKE ${s} OR t.label ILIKE ${s}))
        OR (t.kind = 'role' AND t.value ILIKE ${s})`;
  const byValue = { user: new Set<string>(), role: new Set<string>(), risk: new Set<string>() };
  const byLabel = { user: { ids: new Set<string>(), labels: new Set<string>() }, risk: { ids: new Set<string>(), labels: new Set<string>() } };
  for (const r of rows) {
    const kind = r.kind as keyof typeof byValue;
    if (r.by_value || kind === 'role') byValue[kind]?.add(r.value);
    else if (kind === 'user' || kind === 'risk') {
      byLabel[kind].ids.add(r.value);
      byLabel[kind].labels.add(r.label);
    }
  }
  const labelled = (k: 'user' | 'risk') => {
    const ids = [...byLabel[k].ids].filter((id) => !byValue[k].has(id));
    return { ids, labels: ids.length ? [...byLabel[k].labels] : [] };
  };
  return {
    users: [...byValue.user],
    roles: [...byValue.role],
    risks: [...byValue.risk],
    userNames: labelled('user'),
    riskDescriptions: labelled('risk'),
  };
}

/** Checks a filter's values (risk level, decision state) without touching the database. */
export function validateFilter(f: RiskFilter): void {
  for (const field of FILTER_FIELDS) {
    const v = f[field];
    if (v != null && typeof v !== 'string') throw new ValidationError(`${field} must be text`, field);
    if (v && v.length > MAX_FILTER_VALUE_LENGTH) {
      throw new ValidationError(`${field} is too long (${MAX_FILTER_VALUE_LENGTH} characters at most)`, field);
    }
  }
  if (present(f.riskLevel) && !(RISK_LEVELS as readonly string[]).includes(f.riskLevel)) {
    throw new ValidationError(`Unknown risk level '${f.riskLevel}': use ${orList(RISK_LEVELS)}`, 'riskLevel');
  }
  if (present(f.decision) && !(DECISION_STATES as readonly string[]).includes(f.decision)) {
    throw new ValidationError(`Unknown decision state '${f.decision}': use ${orList(DECISION_STATES)}`, 'decision');
  }
  if (present(f.recommendation)) checkRecommendation(f.recommendation);
}

/**
 * The SQL condition of a filter (rows alias r, the viewer's decision alias d).
 * A search covers user id and name, role and risk id and description: the
 * matching values come from risk_terms, so the rows are found by btree index.
 */
export async function filterCondition(db: DbClient, f: RiskFilter, who?: RecommendationContext): Promise<Prisma.Sql> {
  validateFilter(f);
  const parts: Prisma.Sql[] = [];
  if (present(f.search)) {
    const t = await searchTerms(db, f.search);
    const any: Prisma.Sql[] = [];
    if (t.users.length) any.push(Prisma.sql`r.user_id = ANY(${t.users}::text[])`);
    if (t.roles.length) any.push(Prisma.sql`r.role_profile = ANY(${t.roles}::text[])`);
    if (t.risks.length) any.push(Prisma.sql`r.access_risk_id = ANY(${t.risks}::text[])`);
    // By name or description: the id narrows by index, the label keeps only the rows that match.
    const u = t.userNames;
    if (u.ids.length) any.push(Prisma.sql`(r.user_id = ANY(${u.ids}::text[]) AND r.user_name = ANY(${u.labels}::text[]))`);
    const d = t.riskDescriptions;
    if (d.ids.length) any.push(Prisma.sql`(r.access_risk_id = ANY(${d.ids}::text[]) AND r.risk_description = ANY(${d.labels}::text[]))`);
    parts.push(any.length ? Prisma.sql`(${Prisma.join(any, ' OR ')})` : Prisma.sql`FALSE`);
  }
  if (present(f.riskLevel)) parts.push(Prisma.sql`r.risk_level = ${f.riskLevel.toLowerCase()}::"RiskLevel"`);
  const eq: [keyof RiskFilter, string][] = [
    ['system', 'system'],
    ['userGroup', 'user_group'],
    ['roleProfile', 'role_profile'],
    ['compositeRole', 'composite_business_role'],
    ['ruleId', 'rule_id'],
    ['accessRiskId', 'access_risk_id'],
    ['userId', 'user_id'],
  ];
  for (const [key, col] of eq) {
    const v = f[key];
    if (present(v)) parts.push(Prisma.sql`r.${Prisma.raw(col)} = ${v}`);
  }
  if (present(f.decision)) {
    parts.push(f.decision === PENDING ? Prisma.sql`d.decision IS NULL` : Prisma.sql`d.decision = ${f.decision}::"DecisionValue"`);
  }
  if (present(f.recommendation)) {
    if (!who) throw new ValidationError('This list cannot be filtered by recommendation', 'recommendation');
    parts.push(Prisma.sql`${recommendationValueSql(who)} = ${checkRecommendation(f.recommendation)}`);
  }
  return parts.length ? Prisma.join(parts, ' AND ') : Prisma.sql`TRUE`;
}

/** Only the filter fields that change which rows match (for count cache keys). */
function filterKey(f: RiskFilter): string {
  return JSON.stringify(FILTER_FIELDS.map((k) => (present(f[k]) ? f[k]!.trim() : null)));
}

export function pageOf(p: RiskPage, defaultLimit = 25): { limit: number; offset: number; page: number } {
  const limit = Math.min(Math.max(Math.trunc(Number(p.limit) || defaultLimit), 1), MAX_PAGE_SIZE);
  const page = Math.max(Math.trunc(Number(p.page) || 1), 1);
  // A page number past any real queue would only make an OFFSET the database cannot hold.
  if (page > MAX_PAGE) throw new ValidationError(`page must be at most ${MAX_PAGE.toLocaleString('en-US')}`, 'page');
  return { limit, page, offset: (page - 1) * limit };
}

function cursorId(v: string | number | null | undefined, name: string): bigint | null {
  if (v === null || v === undefined || v === '') return null;
  if (!/^\d{1,18}$/.test(String(v))) throw new ValidationError(`'${name}' must be the id of a risk row`, name);
  return BigInt(v);
}

/**
 * Rows the viewer may see, filtered and paged, with the viewer's own decision
 * in the active period, and the exact number of matching rows.
 *
 * Paging stays fast on millions of rows (ARCHITECTURE.md 'Measured facts'):
 * Next and Previous pass the edge row of the current page (`after` /
 * `before`) and seek by id; a page in the second half of the result is read
 * backwards from the end (so the last page is as quick as the first); only a
 * page in the middle asked for by number alone is an OFFSET. The total comes
 * from the count cache (services/kept/risk-counts.ts).
 */
export async function listRisks(caller: Caller, filter: RiskFilter, paging: RiskPage) {
  const {
    deps: { prisma },
    viewer,
  } = caller;
  const user = viewer.user;
  const sort = checkSort(paging.sort);
  const [period, { visible, key }] = await Promise.all([viewer.decisionPeriod(), viewer.scope()]);
  const who = { periodId: period?.id ?? null, viewerId: user.id };
  const where = await filterCondition(prisma, filter, who);
  const { limit, offset, page } = pageOf(paging);
  // A reviewer at a later stage of a multi-stage period reads that stage's rows (never asked for a one-stage period).
  if (user.role !== 'admin' && period && isMultiStage(period)) {
    const stage = await viewerStage(caller, period);
    if (stage.number > 1) return listStageRisks(caller, period, stage, where, { limit, offset, page });
  }
  // By recommendation, pages go by number (the order is not the row id's).
  const after = sort === 'row' ? cursorId(paging.after, 'after') : null;
  const before = after === null && sort === 'row' ? cursorId(paging.before, 'before') : null;
  const join = ownDecisionJoin(period?.id ?? null, user.id);
  const total = await countRisks(prisma, user, key, filter, () => countQuery(prisma, visible, where, filter.decision ? join : Prisma.empty));
  const select = (cond: Prisma.Sql, order: Prisma.Sql, skip: number, take: number) => prisma.$queryRaw<RiskRowRaw[]>`
      SELECT r.*, d.decision::text AS decision, d.comments AS decision_comments, d.updated_at AS decided_at,
             d.mitigation_control AS decision_mitigation_control, d.mitigation_expires_at AS decision_mitigation_expires_at,
             ${RECOMMENDATION_COLUMNS}
        FROM risk_rows r ${join} ${recommendationJoins(who)}
       WHERE ${visible} AND ${where} AND ${cond}
       ORDER BY ${sort === 'recommendation' ? Prisma.sql`${RECOMMENDATION_RANK} ${order},` : Prisma.empty} r.id ${order}
       LIMIT ${take} OFFSET ${skip}`;
  let rows: RiskRowRaw[];
  if (after !== null) rows = await select(Prisma.sql`r.id > ${after}`, Prisma.sql`ASC`, 0, limit);
  else if (before !== null) rows = (await select(Prisma.sql`r.id < ${before}`, Prisma.sql`DESC`, 0, limit)).reverse();
  else if (offset > 0 && offset >= total / 2 && offset < total) {
    const take = Math.min(limit, total - offset);
    rows = (await select(Prisma.sql`TRUE`, Prisma.sql`DESC`, total - offset - take, take)).reverse();
  } else rows = await select(Prisma.sql`TRUE`, Prisma.sql`ASC`, offset, limit);
  // Rows that joined the active period after it began are marked 'new since' (one query for the page).
  const since = await newSinceOf(
    prisma,
    period,
    rows.map((r) => BigInt(r.id)),
  );
  return { risks: rows.map((raw) => ({ ...fromRaw(raw), newSince: since.get(BigInt(raw.id)) ?? null })), total, page, limit };
}

const ownDecisionJoin = (periodId: string | null, userId: string) =>
  Prisma.sql`LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${periodId}::uuid AND d.reviewer_id = ${userId}::uuid`;
const countQuery = (prisma: PrismaClient, visible: Prisma.Sql, where: Prisma.Sql, join: Prisma.Sql) =>
  prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM risk_rows r ${join} WHERE ${visible} AND ${where}`.then((r) => Number(r[0]?.n ?? 0));

/**
 * How many rows the viewer sees that match the filter (the total of the queue's
 * pages, and the row count an export announces before its first byte).
 */
export async function matchingRowCount(caller: Caller, filter: RiskFilter): Promise<number> {
  const {
    deps: { prisma },
    viewer,
  } = caller;
  const [period, { visible, key }] = await Promise.all([viewer.decisionPeriod(), viewer.scope()]);
  const where = await filterCondition(prisma, filter, { periodId: period?.id ?? null, viewerId: viewer.user.id });
  const join = filter.decision ? ownDecisionJoin(period?.id ?? null, viewer.user.id) : Prisma.empty;
  return countRisks(prisma, viewer.user, key, filter, () => countQuery(prisma, visible, where, join));
}

/**
 * The exact number of rows matching a filter for this viewer, cached per
 * data version (see RiskDataVersion): an upload, a purge or a change of
 * assignments gives new keys. Counts that depend on decisions are not cached.
 * With no filter, an administrator's total is the live uploads' record counts.
 */
async function countRisks(prisma: PrismaClient, user: User, scopeKey: string, filter: RiskFilter, count: () => Promise<number>): Promise<number> {
  const unfiltered = filterKey(filter) === filterKey({});
  if (user.role === 'admin' && unfiltered) return liveRowCount(prisma);
  if (present(filter.decision) || present(filter.recommendation)) return count();
  return cached(prisma, `count|${scopeKey}|${filterKey(filter)}`, count);
}

/**
 * How many rows the user sees, how many of them are high (or medium) and how
 * many distinct users have a high one: cached per data version.
 */
export async function visibleTotals(db: DbClient, user: User, scope?: RowScope): Promise<{ total: number; high: number; highUsers: number }> {
  return scopeTotals(db, scope ?? (await viewerScope(db, user)));
}

/**
 * How many rows each reviewer is assigned (Reviewer Status), cached per data
 * version like the other totals. The reviewers not cached are counted in one
 * pass: the rows any of them is assigned, grouped by the criteria columns
 * (each reduced to the values some criterion names, others to NULL, so the
 * groups stay few), and each reviewer's total summed from the groups their
 * criteria match. Counted one reviewer after another, the first view after a
 * change took 54 s (50 reviewers, 1M rows); one scan with a FILTER per
 * reviewer, 6-12 s; this, 0.9 s (npm run bench:review).
 */
export async function assignedCounts(db: DbClient, reviewerIds: string[]): Promise<Map<string, number>> {
  const setsOf = await criteriaSetsOf(db, reviewerIds);
  const keyOf = new Map([...setsOf].map(([id, sets]) => [id, `assigned|${scopeKey(sets)}`]));
  const setsByKey = new Map([...setsOf].map(([id, sets]) => [keyOf.get(id)!, sets]));
  const counts = await cachedMany(db, [...keyOf.values()], async (missing) => {
    const named = new Map<CriteriaType, Set<string>>();
    for (const key of missing) {
      const sets = setsByKey.get(key)!;
      for (const t of CRITERIA_TYPES) for (const v of sets[t]) (named.get(t) ?? named.set(t, new Set()).get(t)!).add(v);
    }
    const types = [...named.keys()];
    const out = new Map(missing.map((k) => [k, 0]));
    const col = (t: CriteriaType) => Prisma.raw(`r.${CRITERIA_COLUMN[t]}`);
    const groups = !types.length
      ? []
      : await db.$queryRaw<{ v: (string | null)[]; n: bigint }[]>`
      SELECT ARRAY[${Prisma.join(types.map((t) => Prisma.sql`CASE WHEN ${col(t)} = ANY(${[...named.get(t)!]}::text[]) THEN ${col(t)} END`))}] AS v, count(*) AS n
        FROM risk_rows r
       WHERE ${LIVE_ROWS} AND (${Prisma.join(
         types.map((t) => Prisma.sql`${col(t)} = ANY(${[...named.get(t)!]}::text[])`),
         ' OR ',
       )})
       GROUP BY 1`;
    for (const key of missing) {
      const sets = setsByKey.get(key)!;
      const lookup = types.map((t) => new Set(sets[t]));
      let n = 0;
      for (const g of groups) if (g.v.some((v, i) => v !== null && lookup[i]!.has(v))) n += Number(g.n);
      out.set(key, n);
    }
    // Reviewers with single items moved to or from them, and fallback reviewers (rare): counted by the rule itself, all in one query.
    const moved = missing.filter((k) => hasItemHolds(setsByKey.get(k)!) || setsByKey.get(k)!.fallback);
    // The others' rows of their own access (independence) are not theirs: found by the user id index and taken off.
    const owning = missing.filter((k) => !moved.includes(k) && setsByKey.get(k)!.own.length);
    if (owning.length) {
      const own = await db.$queryRaw<{ k: number; n: bigint }[]>`${Prisma.join(
        owning.map((k, i) => {
          const sets = setsByKey.get(k)!;
          return Prisma.sql`SELECT ${i}::int AS k, count(*) AS n FROM risk_rows r
            WHERE r.user_id = ANY(${sets.own}::text[]) AND ${LIVE_ROWS} AND ${assignedRowsCondition({ ...sets, own: [] })}`;
        }),
        ' UNION ALL ',
      )}`;
      for (const c of own) out.set(owning[c.k]!, out.get(owning[c.k]!)! - Number(c.n));
    }
    if (moved.length) {
      const counts = await db.$queryRaw<{ k: number; n: bigint }[]>`${Prisma.join(
        moved.map(
          (k, i) => Prisma.sql`SELECT ${i}::int AS k, count(*) AS n FROM risk_rows r WHERE ${LIVE_ROWS} AND ${assignedRowsCondition(setsByKey.get(k)!)}`,
        ),
        ' UNION ALL ',
      )}`;
      for (const c of counts) out.set(moved[c.k]!, Number(c.n));
    }
    return out;
  });
  return new Map(reviewerIds.map((id) => [id, counts.get(keyOf.get(id)!) ?? 0]));
}

/**
 * Of the rows `visible` selects (the viewer's scope), how many are decided in
 * the period: by the user (a reviewer), or by anyone (an administrator). Read
 * from the counts kept for it when they are up to date, else counted from the
 * decisions (exact, and as cheap as their number).
 */
export async function decidedRowCount(db: DbClient, user: User, periodId: string | null, visible: Prisma.Sql): Promise<number> {
  if (!periodId) return 0;
  // Kept when up to date: an administrator's (every live row) per item (services/kept/shared-items.ts),
  // a reviewer's (the live rows they see) per day of their own trend (services/kept/trend-days.ts).
  if ('$transaction' in db) {
    const prisma = db as PrismaClient;
    const kept = user.role === 'admin' ? await keptDecidedRows(prisma, periodId) : await keptReviewerDecidedRows(prisma, periodId, user);
    if (kept !== null) return kept;
  }
  return decidedRowsLive(db, periodId, visible, user.role === 'admin' ? null : user.id);
}

/** Summary tiles of a reviewer's assigned rows in the active period (totals cached, 'reviewed' exact). */
export async function assignedSummary(caller: Caller) {
  const { prisma, user, period, scope } = await callerSight(caller);
  if (period && isMultiStage(period)) {
    const stage = await viewerStage(caller, period);
    if (stage.number > 1) return stageSummary(caller, period, stage);
  }
  const [totals, reviewed] = await Promise.all([visibleTotals(prisma, user, scope), decidedRowCount(prisma, user, period?.id ?? null, scope.visible)]);
  return { totalAssigned: totals.total, highRisk: totals.high, pendingReview: totals.total - reviewed, reviewed };
}

/** The distinct systems in the data, for the system filter. */
/** The systems picker lists at most this many (a bounded list, not a connection). */
export const MAX_SYSTEMS = 1000;

export async function listSystems(caller: Caller): Promise<string[]> {
  const { visible } = await caller.viewer.scope();
  const rows = await caller.deps.prisma.$queryRaw<
    { system: string }[]
  >`SELECT DISTINCT r.system FROM risk_rows r WHERE ${visible} AND r.system <> '' ORDER BY 1 LIMIT ${MAX_SYSTEMS}`;
  return rows.map((r) => r.system);
}
