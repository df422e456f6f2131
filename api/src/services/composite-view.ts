// The composite-role risk view (SPEC §2 'Risk Review', 'Composite-role risk
// view'): the viewer's risk rows grouped by user, then by access risk, then by
// composite role, with each level's totals and whether the viewer has decided
// every row under it in the active period. Everything is grouped and paged in
// SQL (keyset on the grouping key), so a level costs the rows under the keys
// of one page, never the whole table. Visibility is the rule of
// services/risks.ts: administrators see every live row, reviewers only their
// assigned rows, whichever way they ask. Decisions from this view go through
// the one decision path (services/decisions.ts, per user and composite role).
import { Prisma } from '../generated/prisma/client.js';
import type { User } from '../generated/prisma/client.js';
import { saveDecisions, type DecisionDeps } from './decisions.js';
import { getActivePeriod } from './periods.js';
import { visibleRowsCondition } from './risks.js';
import { LIVE_ROWS } from './live-rows.js';
import type { Actor, DbClient } from '../core/types.js';

/** ARCHITECTURE.md 'High-risk rules': a rule id 02NN or 03NN. */
export const HIGH_RISK_RULE = /^0[23]\d\d$/;
const HIGH_RISK_RULE_SQL = '^0[23][0-9][0-9]$';

/** Largest page of any level, whatever is asked. */
export const MAX_PAGE = 200;
/** Authorization detail rows returned per role unless asked for fewer (a huge role does not send megabytes). */
export const DEFAULT_DETAIL_LIMIT = 200;
export const MAX_DETAIL_LIMIT = 500;
/** Distinct rule ids, functions and role profiles listed per role at most. */
export const MAX_LIST = 100;

export type DecisionValue = 'retain' | 'remove' | 'retain_mitigated';

/** Who is looking: which rows they may see and whose decisions count (theirs, in the active period). */
export interface ViewScope {
  viewerId: string;
  /** Sees every live row (administrators). */
  all: boolean;
  periodId: string | null;
  visible: Prisma.Sql;
}

export async function viewScope(db: DbClient, viewer: User): Promise<ViewScope> {
  const [period, visible] = await Promise.all([getActivePeriod(db), visibleRowsCondition(db, viewer)]);
  return { viewerId: viewer.id, all: viewer.role === 'admin', periodId: period?.id ?? null, visible };
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

export interface CompositeUserSummary {
  kind: 'CompositeUser';
  userId: string;
  userName: string;
  userGroup: string;
  totalRisks: number;
  highRisks: number;
  decidedRisks: number;
  allDecided: boolean;
}

export interface RiskGroupSummary {
  kind: 'CompositeRiskGroup';
  userId: string;
  accessRiskId: string;
  riskDescription: string;
  riskLevel: 'high' | 'medium' | 'low';
  /** High or medium: shown as RISK; low as NO RISK. */
  isRisk: boolean;
  totalRisks: number;
  decidedRisks: number;
  allDecided: boolean;
}

export interface RoleFunction {
  function: string;
  description: string;
}

export interface CompositeRoleSummary {
  kind: 'CompositeRole';
  userId: string;
  accessRiskId: string;
  /** '' when the role was assigned directly (not through a composite role). */
  compositeBusinessRole: string;
  isDirect: boolean;
  /** The composite role, or for direct assignments the role profile(s). */
  name: string;
  description: string;
  roleProfiles: string[];
  /** A high-risk rule (02NN, 03NN) or a high risk level under the role. */
  isHigh: boolean;
  conflictCount: number;
  decidedCount: number;
  allDecided: boolean;
  /** The viewer's decision when every row under the role carries the same one; else null (undecided or mixed). */
  decision: DecisionValue | null;
  ruleIds: string[];
  functions: RoleFunction[];
}

export interface AuthorizationDetail {
  id: bigint;
  /** The authorization object: the export's Resource column. */
  authObject: string;
  authObjectDescription: string;
  /** The authorization field: Resource Extn, or the Action when the export leaves it empty. */
  field: string;
  fieldDescription: string;
  valueFrom: string;
  valueTo: string;
  system: string;
  businessProcess: string;
  businessProcessDescription: string;
  roleProfile: string;
  ruleId: string;
  function: string;
}

export interface RoleKey {
  userId: string;
  accessRiskId: string;
  compositeBusinessRole: string;
}

const int = (v: unknown) => Number(v ?? 0);

function decisionJoin(scope: ViewScope): Prisma.Sql {
  return Prisma.sql`LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${scope.periodId}::uuid AND d.reviewer_id = ${scope.viewerId}::uuid`;
}

function pageLimit(k: Keyset): number {
  return Math.min(Math.max(Math.trunc(k.limit) || 1, 1), MAX_PAGE + 1);
}

/** `col > after AND col < before`, for a keyset over one text column. */
function keysetWhere(col: Prisma.Sql, k: Keyset): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (k.after != null) parts.push(Prisma.sql`${col} > ${k.after}`);
  if (k.before != null) parts.push(Prisma.sql`${col} < ${k.before}`);
  return parts.length ? Prisma.join(parts, ' AND ') : Prisma.sql`TRUE`;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

// ---------------------------------------------------------------- users

type UserRaw = { user_id: string; user_name: string; user_group: string; total: bigint; high: bigint; decided: bigint };

function userFromRaw(r: UserRaw): CompositeUserSummary {
  const total = int(r.total);
  const decided = int(r.decided);
  return {
    kind: 'CompositeUser',
    userId: r.user_id,
    userName: r.user_name,
    userGroup: r.user_group,
    totalRisks: total,
    highRisks: int(r.high),
    decidedRisks: decided,
    allDecided: total > 0 && decided >= total,
  };
}

/** The totals of the given users over the rows the viewer may see (users with none are left out). */
async function userSummaries(db: DbClient, scope: ViewScope, keys: Prisma.Sql): Promise<CompositeUserSummary[]> {
  const rows = await db.$queryRaw<UserRaw[]>`
    SELECT r.user_id, max(r.user_name) AS user_name, max(r.user_group) AS user_group, count(*) AS total,
           count(*) FILTER (WHERE r.risk_level IN ('high', 'medium')) AS high, count(d.id) AS decided
      FROM risk_rows r ${decisionJoin(scope)}
     WHERE r.user_id IN (${keys}) AND ${scope.visible}
     GROUP BY r.user_id
     ORDER BY r.user_id`;
  return rows.map(userFromRaw);
}

/**
 * The users the viewer may see, optionally filtered by a search on user id
 * or name, one keyset page over user ids. The page's ids are found first
 * (userIds, searchUserIds), then only their rows are totalled.
 */
export async function listUsers(db: DbClient, scope: ViewScope, filter: { search?: string | null }, page: Keyset): Promise<CompositeUserSummary[]> {
  const search = filter.search?.trim();
  const limit = pageLimit(page);
  const ids = search ? await searchUserIds(db, scope, search, page, limit) : await userIds(db, scope, page, limit);
  if (!ids.length) return [];
  const list = ids.map((r) => r.user_id);
  const summaries = await userSummaries(db, scope, Prisma.sql`SELECT unnest(${list}::text[])`);
  const byId = new Map(summaries.map((s) => [s.userId, s]));
  // Keep the page's order (descending when read backwards).
  return list.map((id) => byId.get(id)).filter((s): s is CompositeUserSummary => s != null);
}

/**
 * One page of the ids of the users with a visible row. When most rows are
 * visible (administrators, broad assignments) the (user_id, ...) index is
 * walked in key order and the walk stops when the page is full. When the
 * viewer's rows are a small part of the table, that walk would pass over
 * the rows of every user outside them; the viewer's rows are then found
 * through the criteria's own indexes and their distinct users sorted.
 */
async function userIds(db: DbClient, scope: ViewScope, page: Keyset, limit: number): Promise<{ user_id: string }[]> {
  const order = page.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const keyset = keysetWhere(Prisma.sql`r.user_id`, page);
  if (!scope.all && (await isSelective(db, scope))) {
    return db.$queryRaw<{ user_id: string }[]>`
      WITH mine AS MATERIALIZED (SELECT DISTINCT r.user_id FROM risk_rows r WHERE ${scope.visible} AND ${keyset})
      SELECT user_id FROM mine ORDER BY user_id ${order} LIMIT ${limit}`;
  }
  return db.$queryRaw<{ user_id: string }[]>`
    SELECT r.user_id FROM risk_rows r
     WHERE ${scope.visible} AND ${keyset}
     GROUP BY r.user_id
     ORDER BY r.user_id ${order}
     LIMIT ${limit}`;
}

/** Below this share of the table, a viewer's rows are found through the criteria indexes (see userIds). */
const SELECTIVE_SHARE = 0.05;

/** Whether the planner expects the viewer's visible rows to be a small share of the table (an estimate, no scan). */
async function isSelective(db: DbClient, scope: ViewScope): Promise<boolean> {
  const estimate = async (cond: Prisma.Sql) => {
    const plan = await db.$queryRaw<Record<string, unknown>[]>`EXPLAIN (FORMAT JSON) SELECT 1 FROM risk_rows r WHERE ${cond}`;
    const raw = Object.values(plan[0] ?? {})[0];
    const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
    return Number(json?.[0]?.Plan?.['Plan Rows'] ?? 0);
  };
  const [mine, all] = await Promise.all([estimate(scope.visible), estimate(LIVE_ROWS)]);
  return mine < all * SELECTIVE_SHARE;
}

/**
 * One page of the ids of the users whose id or name contains `search` and
 * who have a visible row. Neither risk_rows column has an index a substring
 * search can use (filtering every row costs seconds on a million rows), so
 * the matching users are found in risk_terms (each user id with its names,
 * kept by a trigger, trigram-indexed: the risk queue's search does the same),
 * and only they are checked for a row the viewer may see.
 */
async function searchUserIds(db: DbClient, scope: ViewScope, search: string, page: Keyset, limit: number): Promise<{ user_id: string }[]> {
  const like = `%${escapeLike(search)}%`;
  const order = page.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  return db.$queryRaw<{ user_id: string }[]>`
    SELECT t.value AS user_id FROM risk_terms t
     WHERE t.kind = 'user' AND (t.value ILIKE ${like} OR t.label ILIKE ${like}) AND ${keysetWhere(Prisma.sql`t.value`, page)}
       AND EXISTS (SELECT 1 FROM risk_rows r WHERE r.user_id = t.value AND ${scope.visible})
     GROUP BY t.value
     ORDER BY t.value ${order}
     LIMIT ${limit}`;
}

/** The given users as the viewer sees them; a user with no visible row is null. */
export async function getUsers(db: DbClient, scope: ViewScope, userIds: readonly string[]): Promise<(CompositeUserSummary | null)[]> {
  if (!userIds.length) return [];
  const found = await userSummaries(db, scope, Prisma.sql`SELECT unnest(${[...userIds]}::text[])`);
  const byId = new Map(found.map((s) => [s.userId, s]));
  return userIds.map((id) => byId.get(id) ?? null);
}

// ---------------------------------------------------------------- risk groups

type GroupRaw = {
  user_id: string;
  access_risk_id: string;
  risk_description: string;
  risk_level: 'high' | 'medium' | 'low';
  total: bigint;
  decided: bigint;
};

function groupFromRaw(r: GroupRaw): RiskGroupSummary {
  const total = int(r.total);
  const decided = int(r.decided);
  return {
    kind: 'CompositeRiskGroup',
    userId: r.user_id,
    accessRiskId: r.access_risk_id,
    riskDescription: r.risk_description,
    riskLevel: r.risk_level,
    isRisk: r.risk_level === 'high' || r.risk_level === 'medium',
    totalRisks: total,
    decidedRisks: decided,
    allDecided: total > 0 && decided >= total,
  };
}

// min() over the RiskLevel enum is its first value in declaration order: high, medium, low.
const GROUP_COLUMNS = Prisma.sql`
  r.user_id, r.access_risk_id, max(r.risk_description) AS risk_description, min(r.risk_level)::text AS risk_level,
  count(*) AS total, count(d.id) AS decided`;

/** One user's risk groups (per access risk id), one keyset page over the risk ids. */
export async function listRiskGroups(db: DbClient, scope: ViewScope, userId: string, page: Keyset): Promise<RiskGroupSummary[]> {
  const order = page.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const rows = await db.$queryRaw<GroupRaw[]>`
    SELECT ${GROUP_COLUMNS}
      FROM risk_rows r ${decisionJoin(scope)}
     WHERE r.user_id = ${userId} AND ${scope.visible} AND ${keysetWhere(Prisma.sql`r.access_risk_id`, page)}
     GROUP BY r.user_id, r.access_risk_id
     ORDER BY r.access_risk_id ${order}
     LIMIT ${pageLimit(page)}`;
  return rows.map(groupFromRaw);
}

/** The given risk groups as the viewer sees them; one with no visible row is null. */
export async function getRiskGroups(
  db: DbClient,
  scope: ViewScope,
  keys: readonly { userId: string; accessRiskId: string }[],
): Promise<(RiskGroupSummary | null)[]> {
  if (!keys.length) return [];
  const rows = await db.$queryRaw<GroupRaw[]>`
    SELECT ${GROUP_COLUMNS}
      FROM risk_rows r ${decisionJoin(scope)}
     WHERE (r.user_id, r.access_risk_id) IN (SELECT * FROM unnest(${keys.map((k) => k.userId)}::text[], ${keys.map((k) => k.accessRiskId)}::text[]))
       AND ${scope.visible}
     GROUP BY r.user_id, r.access_risk_id`;
  const byKey = new Map(rows.map((r) => [JSON.stringify([r.user_id, r.access_risk_id]), groupFromRaw(r)]));
  return keys.map((k) => byKey.get(JSON.stringify([k.userId, k.accessRiskId])) ?? null);
}

// ---------------------------------------------------------------- composite roles

type RoleRaw = {
  user_id: string;
  access_risk_id: string;
  composite_business_role: string;
  composite_role_description: string;
  role_profiles: string[] | null;
  role_profile_description: string;
  is_high: boolean;
  conflicts: bigint;
  decided: bigint;
  retained: bigint;
  removed: bigint;
  mitigated: bigint;
  rule_ids: string[] | null;
  functions: string[] | null;
};

function roleFromRaw(r: RoleRaw): CompositeRoleSummary {
  const conflicts = int(r.conflicts);
  const decided = int(r.decided);
  const isDirect = r.composite_business_role === '';
  const profiles = r.role_profiles ?? [];
  const uniform: DecisionValue | null =
    decided < conflicts || conflicts === 0
      ? null
      : int(r.removed) === conflicts
        ? 'remove'
        : int(r.retained) === conflicts
          ? 'retain'
          : int(r.mitigated) === conflicts
            ? 'retain_mitigated'
            : null;
  return {
    kind: 'CompositeRole',
    userId: r.user_id,
    accessRiskId: r.access_risk_id,
    compositeBusinessRole: r.composite_business_role,
    isDirect,
    name: isDirect ? profiles.join(', ') : r.composite_business_role,
    description: isDirect ? r.role_profile_description : r.composite_role_description,
    roleProfiles: profiles,
    isHigh: r.is_high,
    conflictCount: conflicts,
    decidedCount: decided,
    allDecided: conflicts > 0 && decided >= conflicts,
    decision: uniform,
    ruleIds: r.rule_ids ?? [],
    functions: (r.functions ?? []).map((f) => {
      const [fn, ...desc] = f.split('\t');
      return { function: fn ?? '', description: desc.join('\t') };
    }),
  };
}

const ROLE_COLUMNS = Prisma.sql`
  r.user_id, r.access_risk_id, r.composite_business_role,
  max(r.composite_role_description) AS composite_role_description,
  (array_agg(DISTINCT r.role_profile) FILTER (WHERE r.role_profile <> ''))[1:${Prisma.raw(String(MAX_LIST))}] AS role_profiles,
  max(r.role_profile_description) AS role_profile_description,
  bool_or(r.rule_id ~ ${HIGH_RISK_RULE_SQL} OR r.risk_level = 'high') AS is_high,
  count(*) AS conflicts,
  count(d.id) AS decided,
  count(*) FILTER (WHERE d.decision = 'retain') AS retained,
  count(*) FILTER (WHERE d.decision = 'remove') AS removed,
  count(*) FILTER (WHERE d.decision = 'retain_mitigated') AS mitigated,
  (array_agg(DISTINCT r.rule_id) FILTER (WHERE r.rule_id <> ''))[1:${Prisma.raw(String(MAX_LIST))}] AS rule_ids,
  (array_agg(DISTINCT r.function || chr(9) || r.function_description) FILTER (WHERE r.function <> ''))[1:${Prisma.raw(String(MAX_LIST))}] AS functions`;

/** The composite roles under one of a user's risk groups, one keyset page over the role names. */
export async function listRoles(db: DbClient, scope: ViewScope, userId: string, accessRiskId: string, page: Keyset): Promise<CompositeRoleSummary[]> {
  const order = page.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const rows = await db.$queryRaw<RoleRaw[]>`
    SELECT ${ROLE_COLUMNS}
      FROM risk_rows r ${decisionJoin(scope)}
     WHERE r.user_id = ${userId} AND r.access_risk_id = ${accessRiskId} AND ${scope.visible}
       AND ${keysetWhere(Prisma.sql`r.composite_business_role`, page)}
     GROUP BY r.user_id, r.access_risk_id, r.composite_business_role
     ORDER BY r.composite_business_role ${order}
     LIMIT ${pageLimit(page)}`;
  return rows.map(roleFromRaw);
}

/** The given roles (user, risk, composite role) as the viewer sees them; one with no visible row is null. */
export async function getRoles(db: DbClient, scope: ViewScope, keys: readonly RoleKey[]): Promise<(CompositeRoleSummary | null)[]> {
  if (!keys.length) return [];
  const rows = await db.$queryRaw<RoleRaw[]>`
    SELECT ${ROLE_COLUMNS}
      FROM risk_rows r ${decisionJoin(scope)}
     WHERE (r.user_id, r.access_risk_id, r.composite_business_role) IN (
             SELECT * FROM unnest(${keys.map((k) => k.userId)}::text[], ${keys.map((k) => k.accessRiskId)}::text[],
                                  ${keys.map((k) => k.compositeBusinessRole)}::text[]))
       AND ${scope.visible}
     GROUP BY r.user_id, r.access_risk_id, r.composite_business_role`;
  const key = (u: string, a: string, c: string) => JSON.stringify([u, a, c]);
  const byKey = new Map(rows.map((r) => [key(r.user_id, r.access_risk_id, r.composite_business_role), roleFromRaw(r)]));
  return keys.map((k) => byKey.get(key(k.userId, k.accessRiskId, k.compositeBusinessRole)) ?? null);
}

function roleRowsWhere(scope: ViewScope, key: RoleKey): Prisma.Sql {
  return Prisma.sql`r.user_id = ${key.userId} AND r.access_risk_id = ${key.accessRiskId}
    AND r.composite_business_role = ${key.compositeBusinessRole} AND ${scope.visible}`;
}

/**
 * The Authorization Details of one role in one risk group: its first `limit`
 * permission rows, by row id (see authorizationDetailCount for how many there are).
 */
export async function authorizationDetails(
  db: DbClient,
  scope: ViewScope,
  key: RoleKey,
  limit: number = DEFAULT_DETAIL_LIMIT,
): Promise<AuthorizationDetail[]> {
  const n = Math.min(Math.max(Math.trunc(limit) || 0, 0), MAX_DETAIL_LIMIT);
  if (n === 0) return [];
  const rows = await db.$queryRaw<Record<string, string | bigint>[]>`
    SELECT r.id, r.resource, r.resource_description, r.resource_extn, r.resource_extn_desc, r.action, r.action_description,
           r.value_from, r.value_to, r.system, r.business_process, r.business_process_description, r.role_profile, r.rule_id, r.function
      FROM risk_rows r WHERE ${roleRowsWhere(scope, key)} ORDER BY r.id LIMIT ${n}`;
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  return rows.map((r) => {
    const extn = s(r.resource_extn);
    return {
      id: BigInt(r.id!),
      authObject: s(r.resource),
      authObjectDescription: s(r.resource_description),
      field: extn || s(r.action),
      fieldDescription: extn ? s(r.resource_extn_desc) : s(r.action_description),
      valueFrom: s(r.value_from),
      valueTo: s(r.value_to),
      system: s(r.system),
      businessProcess: s(r.business_process),
      businessProcessDescription: s(r.business_process_description),
      roleProfile: s(r.role_profile),
      ruleId: s(r.rule_id),
      function: s(r.function),
    };
  });
}

/** How many permission rows one role has in one risk group. */
export async function authorizationDetailCount(db: DbClient, scope: ViewScope, key: RoleKey): Promise<number> {
  const r = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM risk_rows r WHERE ${roleRowsWhere(scope, key)}`;
  return int(r[0]?.n);
}

// ---------------------------------------------------------------- decisions

export interface RoleDecisionInput {
  userId: string;
  compositeBusinessRole: string;
  decision: string;
  comments?: string | null;
}

export interface RoleDecisionResult {
  saved: number;
  /** Everything the decisions changed, as the viewer now sees it, so a client can update in place. */
  users: CompositeUserSummary[];
  riskGroups: RiskGroupSummary[];
  roles: CompositeRoleSummary[];
}

/**
 * Saves decisions on users' composite roles (SPEC §4: retain or remove per
 * user and composite role) through the one decision path, all or nothing,
 * then reads back the users, risk groups and roles they touched.
 */
export async function decideRoles(deps: DecisionDeps, actor: Actor, items: readonly RoleDecisionInput[]): Promise<RoleDecisionResult> {
  const { saved } = await saveDecisions(
    deps,
    actor,
    items.map((i) => ({ userId: i.userId, compositeBusinessRole: i.compositeBusinessRole, decision: i.decision, comments: i.comments ?? null })),
  );
  // saveDecisions refused an anonymous actor already.
  const scope = await viewScope(deps.prisma, actor.user!);
  const users = [...new Set(items.map((i) => i.userId))];
  const pairs = [...new Map(items.map((i) => [JSON.stringify([i.userId, i.compositeBusinessRole]), i])).values()];
  const us = pairs.map((p) => p.userId);
  const cs = pairs.map((p) => p.compositeBusinessRole);
  const touched = Prisma.sql`(r.user_id, r.composite_business_role) IN (SELECT * FROM unnest(${us}::text[], ${cs}::text[]))`;
  const [userRows, groupRows, roleRows] = await Promise.all([
    getUsers(deps.prisma, scope, users),
    deps.prisma.$queryRaw<GroupRaw[]>`
      SELECT ${GROUP_COLUMNS}
        FROM risk_rows r ${decisionJoin(scope)}
       WHERE (r.user_id, r.access_risk_id) IN (SELECT DISTINCT r.user_id, r.access_risk_id FROM risk_rows r WHERE ${touched} AND ${scope.visible})
         AND ${scope.visible}
       GROUP BY r.user_id, r.access_risk_id
       ORDER BY r.user_id, r.access_risk_id`,
    deps.prisma.$queryRaw<RoleRaw[]>`
      SELECT ${ROLE_COLUMNS}
        FROM risk_rows r ${decisionJoin(scope)}
       WHERE ${touched} AND ${scope.visible}
       GROUP BY r.user_id, r.access_risk_id, r.composite_business_role
       ORDER BY r.user_id, r.access_risk_id, r.composite_business_role`,
  ]);
  return {
    saved,
    users: userRows.filter((u): u is CompositeUserSummary => u != null),
    riskGroups: groupRows.map(groupFromRaw),
    roles: roleRows.map(roleFromRaw),
  };
}
