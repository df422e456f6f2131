// Decisions from the composite-role view: per user and composite role,
// through the one decision path (services/review/decisions.ts), then the levels they
// touched read back as the viewer now sees them.
import { Prisma } from '../../generated/prisma/client.js';
import { saveDecisions } from '../review/decisions.js';
import type { Caller } from '../caller.js';
import { decisionJoin, viewScope } from './scope.js';
import { getUsers, type CompositeUserSummary } from './users.js';
import { GROUP_COLUMNS, groupFromRaw, type GroupRaw, type RiskGroupSummary } from './risk-groups.js';
import { ROLE_COLUMNS, roleFromRaw, type CompositeRoleSummary, type RoleRaw } from './roles.js';

export interface RoleDecisionInput {
  userId: string;
  compositeBusinessRole: string;
  decision: string;
  comments?: string | null;
  /** A mitigation (decision retain_mitigated): its control and expiry, as on the lists. */
  mitigationControl?: string | null;
  mitigationExpiresAt?: Date | string | null;
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
export async function decideRoles(caller: Caller, items: readonly RoleDecisionInput[]): Promise<RoleDecisionResult> {
  const { deps, viewer } = caller;
  const { saved } = await saveDecisions(
    caller,
    items.map((i) => ({
      userId: i.userId,
      compositeBusinessRole: i.compositeBusinessRole,
      decision: i.decision,
      comments: i.comments ?? null,
      mitigationControl: i.mitigationControl ?? null,
      mitigationExpiresAt: i.mitigationExpiresAt ?? null,
    })),
  );
  const scope = await viewScope(viewer);
  const users = [...new Set(items.map((i) => i.userId))];
  const pairs = [...new Map(items.map((i) => [JSON.stringify([i.userId, i.compositeBusinessRole]), i])).values()];
  const us = pairs.map((p) => p.userId);
  const cs = pairs.map((p) => p.compositeBusinessRole);
  const touched = Prisma.sql`(r.user_id, r.composite_business_role) IN (SELECT * FROM unnest(${us}::text[], ${cs}::text[]))`;
  const [userRows, groupRows, roleRows] = await Promise.all([
    getUsers(caller, users),
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
