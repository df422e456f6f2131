// The composite-role view's second level: a user's risk groups, one per
// access risk id (see scope.ts for the view as a whole).
import { Prisma } from '../../generated/prisma/client.js';
import type { Caller } from '../caller.js';
import { isHighLevel, type RiskLevel } from '../risk-rules.js';
import { allDecided, decisionJoin, int, keysetWhere, pageLimit, viewScope, type Keyset } from './scope.js';

export interface RiskGroupSummary {
  kind: 'CompositeRiskGroup';
  userId: string;
  accessRiskId: string;
  riskDescription: string;
  riskLevel: RiskLevel;
  /** High or medium: shown as RISK; low as NO RISK. */
  isRisk: boolean;
  totalRisks: number;
  decidedRisks: number;
  allDecided: boolean;
}

export type GroupRaw = {
  user_id: string;
  access_risk_id: string;
  risk_description: string;
  risk_level: RiskLevel;
  total: bigint;
  decided: bigint;
};

export function groupFromRaw(r: GroupRaw): RiskGroupSummary {
  const total = int(r.total);
  const decided = int(r.decided);
  return {
    kind: 'CompositeRiskGroup',
    userId: r.user_id,
    accessRiskId: r.access_risk_id,
    riskDescription: r.risk_description,
    riskLevel: r.risk_level,
    isRisk: isHighLevel(r.risk_level),
    totalRisks: total,
    decidedRisks: decided,
    allDecided: allDecided(total, decided),
  };
}

// min() over the RiskLevel enum is its first value in declaration order: high, medium, low.
export const GROUP_COLUMNS = Prisma.sql`
  r.user_id, r.access_risk_id, max(r.risk_description) AS risk_description, min(r.risk_level)::text AS risk_level,
  count(*) AS total, count(d.id) AS decided`;

/** One user's risk groups (per access risk id), one keyset page over the risk ids. */
export async function listRiskGroups(caller: Caller, userId: string, page: Keyset): Promise<RiskGroupSummary[]> {
  return (await listRiskGroupsOf(caller, [userId], page))[0]!;
}

/**
 * The same page of risk groups for each of several users, in one query (a
 * list of users asking for their groups costs one query, not one per user).
 */
export async function listRiskGroupsOf(caller: Caller, userIds: readonly string[], page: Keyset): Promise<RiskGroupSummary[][]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
  if (!userIds.length) return [];
  const order = page.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const rows = await db.$queryRaw<GroupRaw[]>`
    SELECT * FROM (
      SELECT ${GROUP_COLUMNS}, row_number() OVER (PARTITION BY r.user_id ORDER BY r.access_risk_id ${order}) AS n
        FROM risk_rows r ${decisionJoin(scope)}
       WHERE r.user_id = ANY(${[...userIds]}::text[]) AND ${scope.visible} AND ${keysetWhere(Prisma.sql`r.access_risk_id`, page)}
       GROUP BY r.user_id, r.access_risk_id
    ) g
     WHERE g.n <= ${pageLimit(page)}
     ORDER BY g.user_id, g.access_risk_id ${order}`;
  const byUser = new Map<string, RiskGroupSummary[]>(userIds.map((u) => [u, []]));
  for (const r of rows) byUser.get(r.user_id)?.push(groupFromRaw(r));
  return userIds.map((u) => byUser.get(u)!);
}

/** The given risk groups as the viewer sees them; one with no visible row is null. */
export async function getRiskGroups(caller: Caller, keys: readonly { userId: string; accessRiskId: string }[]): Promise<(RiskGroupSummary | null)[]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
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

/** How many risk groups (distinct access risk ids) each user has that the viewer may see, in one query. */
export async function countRiskGroupsOf(caller: Caller, userIds: readonly string[]): Promise<number[]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
  if (!userIds.length) return [];
  const rows = await db.$queryRaw<{ user_id: string; n: bigint }[]>`
    SELECT r.user_id, count(DISTINCT r.access_risk_id) AS n
      FROM risk_rows r
     WHERE r.user_id = ANY(${[...userIds]}::text[]) AND ${scope.visible}
     GROUP BY r.user_id`;
  const byUser = new Map(rows.map((r) => [r.user_id, int(r.n)]));
  return userIds.map((u) => byUser.get(u) ?? 0);
}
