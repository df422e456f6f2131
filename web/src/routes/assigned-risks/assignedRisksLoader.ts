import type { PreloadedQuery } from 'react-relay';
import assignedRisksQuery, { type AssignedRisksQuery } from '../../__generated__/AssignedRisksQuery.graphql';
import { FIRST_PAGE, RISK_PAGE_SIZE, type CursorPaging } from '../../domain/risks/riskPaging';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** The recommendation shown ('' for all) and the order (issue 18, point 2). */
export type AssignedView = { recommendation: '' | 'RETAIN' | 'REMOVE' | 'REVIEW'; sort: 'ROW' | 'RECOMMENDATION' };
export const DEFAULT_VIEW: AssignedView = { recommendation: '', sort: 'ROW' };

/** The list's filter: the search and the recommendation (also what 'Decide all N matching' decides on). */
export function assignedFilter(search: string, view: AssignedView): NonNullable<AssignedRisksQuery['variables']['filter']> {
  return { ...(search ? { search } : {}), ...(view.recommendation ? { recommendation: view.recommendation } : {}) };
}

/** My Assigned Risks' variables for a search ('' for every row), a recommendation and order, and a page. */
export function assignedRisksVariables(search: string, paging: CursorPaging, view: AssignedView = DEFAULT_VIEW): AssignedRisksQuery['variables'] {
  return { filter: assignedFilter(search, view), ...paging, first: RISK_PAGE_SIZE, orderBy: view.sort };
}

export type AssignedRisksPrepared = { assignedRisks: PreloadedQuery<AssignedRisksQuery> };

/**
 * The reviewer's first page of assigned risks, summary and submission state;
 * reviewers only (anyone else sees 'Access Restricted' and nothing is asked for).
 */
export function prepareAssignedRisks(session: RouteSession): AssignedRisksPrepared | null {
  if (session.viewer.role !== 'REVIEWER') return null;
  return { assignedRisks: prepareQuery<AssignedRisksQuery>(session, assignedRisksQuery, assignedRisksVariables('', FIRST_PAGE)) };
}
