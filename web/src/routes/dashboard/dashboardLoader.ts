import type { PreloadedQuery } from 'react-relay';
import dashboardRouteQuery, { type DashboardRouteQuery } from '../../__generated__/DashboardRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

export type DashboardPrepared = { query: PreloadedQuery<DashboardRouteQuery> };

/** The dashboard's figures (and, for administrators, the review-period card). */
export function prepareDashboard(session: RouteSession): DashboardPrepared {
  return { query: prepareQuery<DashboardRouteQuery>(session, dashboardRouteQuery, { isAdmin: session.viewer.role === 'ADMIN' }) };
}
