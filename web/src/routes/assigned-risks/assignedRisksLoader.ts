import type { PreloadedQuery } from 'react-relay';
import assignedRisksQuery, { type AssignedRisksQuery } from '../../__generated__/AssignedRisksQuery.graphql';
import { FIRST_PAGE, RISK_PAGE_SIZE, type CursorPaging } from '../../domain/risks/riskPaging';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** My Assigned Risks' variables for a search ('' for every row) and a page. */
export function assignedRisksVariables(search: string, paging: CursorPaging): AssignedRisksQuery['variables'] {
  return { filter: search ? { search } : {}, ...paging, first: RISK_PAGE_SIZE };
}

export type AssignedRisksPrepared = { assignedRisks: PreloadedQuery<AssignedRisksQuery> };

/**
 * The reviewer's first page of assigned risks, summary and submission state;
 * reviewers only (anyone else sees 'Access Restricted' and nothing is asked for).
 */
export function prepareAssignedRisks(session: RouteSession): AssignedRisksPrepared | null {
  if (session.viewer.role !== 'reviewer') return null;
  return { assignedRisks: prepareQuery<AssignedRisksQuery>(session, assignedRisksQuery, assignedRisksVariables('', FIRST_PAGE)) };
}
