import type { PreloadedQuery } from 'react-relay';
import remediationRouteQuery, { type RemediationRouteQuery } from '../../__generated__/RemediationRouteQuery.graphql';
import type { RestQuery } from '../../rest/client';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** The list's filters: a review period's global id and a status ('' is all) in the SPEC's lower case, as REST's download takes it. */
export type RemediationFilters = { periodId: string; status: '' | NonNullable<RestQuery<'/api/remediation'>['status']> };

export const ALL_REMEDIATION: RemediationFilters = { periodId: '', status: '' };

/** Items read per page. */
export const REMEDIATION_PAGE = 100;

export function remediationVariables(f: RemediationFilters): RemediationRouteQuery['variables'] {
  const status = f.status ? (f.status.toUpperCase() as Uppercase<typeof f.status>) : null;
  return { count: REMEDIATION_PAGE, filter: { periodId: f.periodId || null, status } };
}

export type RemediationPrepared = { query: PreloadedQuery<RemediationRouteQuery> };

/** Administrators only: every item (the screen asks again when the filters change); nothing for others. */
export function prepareRemediation(session: RouteSession): RemediationPrepared | null {
  if (session.viewer.role !== 'ADMIN') return null;
  return { query: prepareQuery<RemediationRouteQuery>(session, remediationRouteQuery, remediationVariables(ALL_REMEDIATION)) };
}
