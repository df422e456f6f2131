import type { PreloadedQuery } from 'react-relay';
import assignmentManagerQuery, { type AssignmentManagerQuery } from '../../__generated__/AssignmentManagerQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

export type AssignmentsPrepared = { assignments: PreloadedQuery<AssignmentManagerQuery> };

/** /assignments: administrators only (nothing is asked for anyone else). */
export function prepareAssignments(session: RouteSession): AssignmentsPrepared | null {
  if (session.viewer.role !== 'ADMIN') return null;
  return { assignments: prepareQuery<AssignmentManagerQuery>(session, assignmentManagerQuery, {}) };
}
