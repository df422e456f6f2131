// The composite-role view's third level: the composite roles under a risk
// group, and the Authorization Details of a role (see scope.ts for the view
// as a whole).
import { Prisma } from '../../generated/prisma/client.js';
import type { Caller } from '../caller.js';
import { DECISION_COUNTS_SQL, HIGH_BADGE_SQL, uniformDecision, type DecisionValue } from '../risk-rules.js';
import {
  DEFAULT_DETAIL_LIMIT,
  MAX_DETAIL_LIMIT,
  MAX_LIST,
  allDecided,
  decisionJoin,
  int,
  keysetWhere,
  pageLimit,
  viewScope,
  type Keyset,
  type ViewScope,
} from './scope.js';

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

export type RoleRaw = {
  user_id: string;
  access_risk_id: string;
  composite_business_role: string;
  composite_role_description: string;
  role_profiles: string[] | null;
  role_profile_description: string;
  is_high: boolean;
  conflicts: bigint;
  decided: bigint;
  /** Rows per decision value, in DECISION_VALUES order. */
  decision_counts: (bigint | number | string)[] | null;
  rule_ids: string[] | null;
  functions: string[] | null;
};

export function roleFromRaw(r: RoleRaw): CompositeRoleSummary {
  const conflicts = int(r.conflicts);
  const decided = int(r.decided);
  const isDirect = r.composite_business_role === '';
  const profiles = r.role_profiles ?? [];
  const uniform = decided < conflicts ? null : uniformDecision(r.decision_counts, conflicts);
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
    allDecided: allDecided(conflicts, decided),
    decision: uniform,
    ruleIds: r.rule_ids ?? [],
    functions: (r.functions ?? []).map((f) => {
      const [fn, ...desc] = f.split('\t');
      return { function: fn ?? '', description: desc.join('\t') };
    }),
  };
}

export const ROLE_COLUMNS = Prisma.sql`
  r.user_id, r.access_risk_id, r.composite_business_role,
  max(r.composite_role_description) AS composite_role_description,
  (array_agg(DISTINCT r.role_profile) FILTER (WHERE r.role_profile <> ''))[1:${Prisma.raw(String(MAX_LIST))}] AS role_profiles,
  max(r.role_profile_description) AS role_profile_description,
  ${HIGH_BADGE_SQL} AS is_high,
  count(*) AS conflicts,
  count(d.id) AS decided,
  ${DECISION_COUNTS_SQL} AS decision_counts,
  (array_agg(DISTINCT r.rule_id) FILTER (WHERE r.rule_id <> ''))[1:${Prisma.raw(String(MAX_LIST))}] AS rule_ids,
  (array_agg(DISTINCT r.function || chr(9) || r.function_description) FILTER (WHERE r.function <> ''))[1:${Prisma.raw(String(MAX_LIST))}] AS functions`;

/** The composite roles under one of a user's risk groups, one keyset page over the role names. */
export async function listRoles(caller: Caller, userId: string, accessRiskId: string, page: Keyset): Promise<CompositeRoleSummary[]> {
  return (await listRolesOf(caller, [{ userId, accessRiskId }], page))[0]!;
}

/** The same page of composite roles under each of several risk groups, in one query. */
export async function listRolesOf(
  caller: Caller,
  groups: readonly { userId: string; accessRiskId: string }[],
  page: Keyset,
): Promise<CompositeRoleSummary[][]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
  if (!groups.length) return [];
  const order = page.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const rows = await db.$queryRaw<RoleRaw[]>`
    SELECT * FROM (
      SELECT ${ROLE_COLUMNS},
             row_number() OVER (PARTITION BY r.user_id, r.access_risk_id ORDER BY r.composite_business_role ${order}) AS n
        FROM risk_rows r ${decisionJoin(scope)}
       WHERE (r.user_id, r.access_risk_id) IN (SELECT * FROM unnest(${groups.map((g) => g.userId)}::text[], ${groups.map((g) => g.accessRiskId)}::text[]))
         AND ${scope.visible} AND ${keysetWhere(Prisma.sql`r.composite_business_role`, page)}
       GROUP BY r.user_id, r.access_risk_id, r.composite_business_role
    ) g
     WHERE g.n <= ${pageLimit(page)}
     ORDER BY g.user_id, g.access_risk_id, g.composite_business_role ${order}`;
  const key = (u: string, a: string) => JSON.stringify([u, a]);
  const byGroup = new Map<string, CompositeRoleSummary[]>(groups.map((g) => [key(g.userId, g.accessRiskId), []]));
  for (const r of rows) byGroup.get(key(r.user_id, r.access_risk_id))?.push(roleFromRaw(r));
  return groups.map((g) => byGroup.get(key(g.userId, g.accessRiskId))!);
}

/** The given roles (user, risk, composite role) as the viewer sees them; one with no visible row is null. */
export async function getRoles(caller: Caller, keys: readonly RoleKey[]): Promise<(CompositeRoleSummary | null)[]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
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

/** The rows of the given roles (alias r) that the viewer may see. */
function rolesRowsWhere(scope: ViewScope, keys: readonly RoleKey[]): Prisma.Sql {
  return Prisma.sql`(r.user_id, r.access_risk_id, r.composite_business_role) IN (
      SELECT * FROM unnest(${keys.map((k) => k.userId)}::text[], ${keys.map((k) => k.accessRiskId)}::text[], ${keys.map((k) => k.compositeBusinessRole)}::text[]))
    AND ${scope.visible}`;
}

const roleKey = (u: string, a: string, c: string) => JSON.stringify([u, a, c]);

/**
 * The Authorization Details of one role in one risk group: its first `limit`
 * permission rows, by row id (see authorizationDetailCount for how many there are).
 */
export async function authorizationDetails(caller: Caller, key: RoleKey, limit: number = DEFAULT_DETAIL_LIMIT): Promise<AuthorizationDetail[]> {
  return (await authorizationDetailsOf(caller, [key], limit))[0]!;
}

/** The first `limit` Authorization Details of each of several roles, in one query. */
export async function authorizationDetailsOf(caller: Caller, keys: readonly RoleKey[], limit: number = DEFAULT_DETAIL_LIMIT): Promise<AuthorizationDetail[][]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
  const n = Math.min(Math.max(Math.trunc(limit) || 0, 0), MAX_DETAIL_LIMIT);
  if (n === 0 || !keys.length) return keys.map(() => []);
  const rows = await db.$queryRaw<Record<string, string | bigint>[]>`
    SELECT * FROM (
      SELECT r.id, r.user_id, r.access_risk_id, r.composite_business_role,
             r.resource, r.resource_description, r.resource_extn, r.resource_extn_desc, r.action, r.action_description,
             r.value_from, r.value_to, r.system, r.business_process, r.business_process_description, r.role_profile, r.rule_id, r.function,
             row_number() OVER (PARTITION BY r.user_id, r.access_risk_id, r.composite_business_role ORDER BY r.id) AS n
        FROM risk_rows r WHERE ${rolesRowsWhere(scope, keys)}
    ) x
     WHERE x.n <= ${n}
     ORDER BY x.id`;
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  const byRole = new Map<string, AuthorizationDetail[]>(keys.map((k) => [roleKey(k.userId, k.accessRiskId, k.compositeBusinessRole), []]));
  for (const r of rows) {
    const extn = s(r.resource_extn);
    byRole.get(roleKey(s(r.user_id), s(r.access_risk_id), s(r.composite_business_role)))?.push({
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
    });
  }
  return keys.map((k) => byRole.get(roleKey(k.userId, k.accessRiskId, k.compositeBusinessRole))!);
}

/** How many permission rows one role has in one risk group. */
export async function authorizationDetailCount(caller: Caller, key: RoleKey): Promise<number> {
  return (await authorizationDetailCounts(caller, [key]))[0]!;
}

/** How many permission rows each of several roles has, in one query. */
export async function authorizationDetailCounts(caller: Caller, keys: readonly RoleKey[]): Promise<number[]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
  if (!keys.length) return [];
  const rows = await db.$queryRaw<{ user_id: string; access_risk_id: string; composite_business_role: string; n: bigint }[]>`
    SELECT r.user_id, r.access_risk_id, r.composite_business_role, count(*) AS n
      FROM risk_rows r WHERE ${rolesRowsWhere(scope, keys)}
     GROUP BY r.user_id, r.access_risk_id, r.composite_business_role`;
  const byRole = new Map(rows.map((r) => [roleKey(r.user_id, r.access_risk_id, r.composite_business_role), int(r.n)]));
  return keys.map((k) => byRole.get(roleKey(k.userId, k.accessRiskId, k.compositeBusinessRole)) ?? 0);
}

/** How many composite roles carry each risk group (user, access risk) for the viewer, in one query. */
export async function countRolesOf(caller: Caller, groups: readonly { userId: string; accessRiskId: string }[]): Promise<number[]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
  if (!groups.length) return [];
  const rows = await db.$queryRaw<{ user_id: string; access_risk_id: string; n: bigint }[]>`
    SELECT r.user_id, r.access_risk_id, count(DISTINCT r.composite_business_role) AS n
      FROM risk_rows r
     WHERE (r.user_id, r.access_risk_id) IN (SELECT * FROM unnest(${groups.map((g) => g.userId)}::text[], ${groups.map((g) => g.accessRiskId)}::text[]))
       AND ${scope.visible}
     GROUP BY r.user_id, r.access_risk_id`;
  const byGroup = new Map(rows.map((r) => [JSON.stringify([r.user_id, r.access_risk_id]), int(r.n)]));
  return groups.map((g) => byGroup.get(JSON.stringify([g.userId, g.accessRiskId])) ?? 0);
}
