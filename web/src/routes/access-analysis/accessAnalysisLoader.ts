import type { PreloadedQuery } from 'react-relay';
import accessAnalysisRouteQuery, { type AccessAnalysisRouteQuery } from '../../__generated__/AccessAnalysisRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** Extracts and runs listed (a variable: the server's cost limit multiplies literal page sizes). */
export const ACCESS_LIST_PAGE = 100;

export type AccessAnalysisPrepared = { query: PreloadedQuery<AccessAnalysisRouteQuery> };

/** Rule sets, extracts and runs (administrators only; others are sent away). */
export function prepareAccessAnalysis(session: RouteSession): AccessAnalysisPrepared | null {
  if (session.viewer.role !== 'ADMIN') return null;
  return { query: prepareQuery<AccessAnalysisRouteQuery>(session, accessAnalysisRouteQuery, { count: ACCESS_LIST_PAGE }) };
}
