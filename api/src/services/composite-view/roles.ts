// The composite-role view's third level: the composite roles under a risk
// group, and the Authorization Details of a role (see scope.ts for the view
// as a whole).
import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import {
  DEFAULT_DETAIL_LIMIT,
  HIGH_RISK_RULE_SQL,
  MAX_DETAIL_LIMIT,
  MAX_LIST,
  decisionJoin,
  int,
  keysetWhere,
  pageLimit,
  type DecisionValue,
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
  retained: bigint;
  removed: bigint;
  mitigated: bigint;
  rule_ids: string[] | null;
  functions: string[] | null;
};

export function roleFromRaw(r: RoleRaw): CompositeRoleSummary {
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

export const ROLE_COLUMNS = Prisma.sql`
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

