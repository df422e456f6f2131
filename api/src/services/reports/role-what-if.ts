// What if a composite role were removed from everyone:
// how many users lose how many risks, and which users would turn green. The
// same semantics as one simulation (simulation.ts), for every user holding the
// role at once, in one SQL query over the loaded data the viewer may see:
// - a (user, risk) holding the role is lost when some function of it is then
//   granted only through the role (no row of another role grants it);
// - a user is red (risk-rules.ts, high-risk rule) before when any of their
//   rows carries a high-risk rule, and after when such a row is kept (not under
//   the role) in a risk that persists; green after and red before: turns green.
// Saved decisions are not applied: this is about access as loaded.
import { ValidationError } from '../../core/errors.js';
import { HIGH_RISK_RULE_SQL, likeContains } from '../risk-rules.js';
import type { Caller } from '../caller.js';
import { MAX_ID_LENGTH } from './risk-analysis.js';

/** Users listed in the answer at most (the totals count every one). */
export const WHAT_IF_USER_LIMIT = 200;

export interface WhatIfUser {
  userId: string;
  userName: string;
  risksHeld: number;
  risksLost: number;
  redBefore: boolean;
  redAfter: boolean;
}

export interface RoleWhatIf {
  compositeBusinessRole: string;
  usersAffected: number;
  risksLost: number;
  usersLosingRisks: number;
  usersTurningGreen: number;
  /** Users holding the role: those turning green first, then by risks lost; at most WHAT_IF_USER_LIMIT. */
  users: WhatIfUser[];
}

type Raw = {
  user_id: string;
  user_name: string;
  risks_held: bigint;
  risks_lost: bigint;
  red_before: boolean;
  red_after: boolean;
  users_affected: bigint;
  total_lost: bigint;
  users_losing: bigint;
  users_green: bigint;
};

export async function roleWhatIf(caller: Caller, role: string): Promise<RoleWhatIf> {
  const { viewer } = caller;
  const { prisma } = caller.deps;
  const name = typeof role === 'string' ? role.trim() : '';
  if (!name) throw new ValidationError('Choose a composite role', 'compositeBusinessRole');
  if (name.length > MAX_ID_LENGTH)
    throw new ValidationError(`compositeBusinessRole is too long (${MAX_ID_LENGTH} characters at most)`, 'compositeBusinessRole');
  const { visible } = await viewer.scope();
  const rows = await prisma.$queryRaw<Raw[]>`
    WITH holders AS MATERIALIZED (
      SELECT DISTINCT r.user_id FROM risk_rows r WHERE r.composite_business_role = ${name} AND ${visible}
    ), access AS MATERIALIZED (
      SELECT r.user_id, r.user_name, r.access_risk_id, r.function, r.composite_business_role <> ${name} AS kept, ${HIGH_RISK_RULE_SQL} AS high
        FROM risk_rows r JOIN holders h ON h.user_id = r.user_id
       WHERE ${visible}
    ), fns AS (
      SELECT user_id, access_risk_id, function, bool_or(kept) AS granted FROM access GROUP BY 1, 2, 3
    ), risks AS (
      SELECT user_id, access_risk_id, bool_and(granted) AS persists FROM fns GROUP BY 1, 2
    ), per_user AS (
      SELECT a.user_id, max(a.user_name) AS user_name,
             count(DISTINCT a.access_risk_id) AS risks_held,
             count(DISTINCT a.access_risk_id) FILTER (WHERE NOT k.persists) AS risks_lost,
             bool_or(a.high) AS red_before,
             coalesce(bool_or(a.high AND a.kept AND k.persists), false) AS red_after
        FROM access a JOIN risks k ON k.user_id = a.user_id AND k.access_risk_id = a.access_risk_id
       GROUP BY a.user_id
    )
    SELECT p.*, count(*) OVER () AS users_affected, sum(p.risks_lost) OVER () AS total_lost,
           count(*) FILTER (WHERE p.risks_lost > 0) OVER () AS users_losing,
           count(*) FILTER (WHERE p.red_before AND NOT p.red_after) OVER () AS users_green
      FROM per_user p
     ORDER BY (p.red_before AND NOT p.red_after) DESC, p.risks_lost DESC, p.user_id
     LIMIT ${WHAT_IF_USER_LIMIT}`;
  const n = (v: unknown) => Number(v ?? 0);
  const first = rows[0];
  return {
    compositeBusinessRole: name,
    usersAffected: n(first?.users_affected),
    risksLost: n(first?.total_lost),
    usersLosingRisks: n(first?.users_losing),
    usersTurningGreen: n(first?.users_green),
    users: rows.map((r) => ({
      userId: r.user_id,
      userName: r.user_name,
      risksHeld: n(r.risks_held),
      risksLost: n(r.risks_lost),
      redBefore: r.red_before,
      redAfter: r.red_after,
    })),
  };
}

/**
 * Composite roles whose name contains `search`, by name (the what-if's
 * picker): the distinct names are walked through the index on the column,
 * one probe per name, never a scan of the rows.
 */
export async function searchCompositeRoles(caller: Caller, search: string | null | undefined, limit: number | null | undefined) {
  const { viewer } = caller;
  const { prisma } = caller.deps;
  const s = (search ?? '').trim();
  if (s.length > MAX_ID_LENGTH) throw new ValidationError(`The search is too long (${MAX_ID_LENGTH} characters at most)`, 'search');
  const n = Math.min(Math.max(Math.trunc(limit ?? 20) || 1, 1), 50);
  const { visible } = await viewer.scope();
  return prisma.$queryRaw<{ value: string; label: string }[]>`
    WITH RECURSIVE names(v) AS (
      SELECT (SELECT min(r.composite_business_role) FROM risk_rows r WHERE r.composite_business_role > '' AND ${visible})
      UNION ALL
      SELECT (SELECT min(r.composite_business_role) FROM risk_rows r WHERE r.composite_business_role > names.v AND ${visible})
        FROM names WHERE names.v IS NOT NULL
    )
    SELECT v AS value, v AS label FROM names WHERE v IS NOT NULL AND v ILIKE ${likeContains(s)} LIMIT ${n}`;
}
