import type { PreloadedQuery } from 'react-relay';
import assignedRisksQuery, { type AssignedRisksQuery } from '../../__generated__/AssignedRisksQuery.graphql';
import { FIRST_PAGE, RISK_PAGE_SIZE, type CursorPaging } from '../../domain/risks/riskPaging';
import { prepareQuery, type RouteSession } from '../../router/routeSession';
import { readListAddress } from '../../router/listAddress';

/** The recommendation shown ('' for all) and the order. */
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
export function prepareAssignedRisks(session: RouteSession, url: URL): AssignedRisksPrepared | null {
  if (session.viewer.role !== 'REVIEWER') return null;
  const { search, view, page } = assignedAddress(url.searchParams);
  return { assignedRisks: prepareQuery<AssignedRisksQuery>(session, assignedRisksQuery, assignedRisksVariables(search, { ...FIRST_PAGE, page }, view)) };
}

/** The list's search, recommendation and order as the address names them. */
export const ASSIGNED_ADDRESS_KEYS = ['search', 'recommendation', 'sort'] as const;

/** The search, view and page in the address (a value it does not know is the default). */
export function assignedAddress(params: URLSearchParams): { search: string; view: AssignedView; page: number } {
  const { values, page } = readListAddress(params, ASSIGNED_ADDRESS_KEYS);
  const recommendation = (['RETAIN', 'REMOVE', 'REVIEW'] as const).find((r) => r === values.recommendation) ?? '';
  const sort = values.sort === 'RECOMMENDATION' ? 'RECOMMENDATION' : 'ROW';
  return { search: values.search.trim(), view: { recommendation, sort }, page };
}

/** The address's values of a search and view (the default order left out). */
export function assignedAddressValues(search: string, view: AssignedView): Record<(typeof ASSIGNED_ADDRESS_KEYS)[number], string> {
  return { search, recommendation: view.recommendation, sort: view.sort === DEFAULT_VIEW.sort ? '' : view.sort };
}
