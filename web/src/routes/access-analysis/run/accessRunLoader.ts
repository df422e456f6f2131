import type { PreloadedQuery } from 'react-relay';
import accessRunRouteQuery, { type AccessRunRouteQuery } from '../../../__generated__/AccessRunRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../../router/routeSession';

/** Conflicts per page of the run's table (a variable: the server's cost limit multiplies literal page sizes). */
export const CONFLICTS_PAGE = 50;

/** How many groups each breakdown chart shows (most conflicts first). */
export const BREAKDOWN_GROUPS = 10;

export type AccessRunPrepared = { query: PreloadedQuery<AccessRunRouteQuery> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** No run has it: an address that names no run (not a uuid) shows 'Run not found'. */
const NO_RUN = '00000000-0000-0000-0000-000000000000';

/** The run of the address (/access-analysis/runs/<id>): its database id. */
export function runIdOf(url: URL): string {
  const id = /^\/access-analysis\/runs\/([^/]+)/.exec(url.pathname)?.[1] ?? '';
  return UUID.test(id) ? id : NO_RUN;
}

/** A run's figures, breakdowns and first page of conflicts (administrators only; others are sent away). */
export function prepareAccessRun(session: RouteSession, url: URL): AccessRunPrepared | null {
  if (session.viewer.role !== 'ADMIN') return null;
  const runId = runIdOf(url);
  return {
    query: prepareQuery<AccessRunRouteQuery>(session, accessRunRouteQuery, {
      id: window.btoa(`AccessAnalysis:${runId}`),
      count: CONFLICTS_PAGE,
      groups: BREAKDOWN_GROUPS,
    }),
  };
}
