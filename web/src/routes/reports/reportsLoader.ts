import type { PreloadedQuery } from 'react-relay';
import reportsRouteQuery, { type ReportsRouteQuery } from '../../__generated__/ReportsRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

export type ReportsPrepared = { query: PreloadedQuery<ReportsRouteQuery> };

/** Recent Risk Reviews: administrators everyone's, reviewers their own (the server decides). */
export function prepareReports(session: RouteSession): ReportsPrepared {
  return { query: prepareQuery<ReportsRouteQuery>(session, reportsRouteQuery, { isAdmin: session.viewer.role === 'ADMIN' }) };
}
