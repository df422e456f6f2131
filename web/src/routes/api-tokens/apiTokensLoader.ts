import type { PreloadedQuery } from 'react-relay';
import apiTokensRouteQuery, { type ApiTokensRouteQuery } from '../../__generated__/ApiTokensRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** Tokens listed per page (a variable: the server's cost limit multiplies literal page sizes). */
export const TOKENS_PAGE = 100;

export type ApiTokensPrepared = { query: PreloadedQuery<ApiTokensRouteQuery> };

/** The viewer's tokens (administrators: every user's, and the switch); the server decides who may create. */
export function prepareApiTokens(session: RouteSession): ApiTokensPrepared {
  const isAdmin = session.viewer.role === 'ADMIN';
  return { query: prepareQuery<ApiTokensRouteQuery>(session, apiTokensRouteQuery, { all: isAdmin, isAdmin, count: TOKENS_PAGE }) };
}
