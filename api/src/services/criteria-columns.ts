// The criteria types and the risk_rows column each matches: what the
// assignment rule (assignments.ts) and the rules built on it (shared items,
// scope figures, the queue's scope) share, in a module of its own so that
// assignments.ts may use those rules without an import cycle.
import type { CriteriaType } from '../generated/prisma/client.js';

export const CRITERIA_TYPES = ['risk_id', 'user_id', 'user_group', 'system', 'role_profile'] as const;

/** The risk_rows column each criteria type matches. */
export const CRITERIA_COLUMN: Record<CriteriaType, string> = {
  risk_id: 'access_risk_id',
  user_id: 'user_id',
  user_group: 'user_group',
  system: 'system',
  role_profile: 'role_profile',
};
