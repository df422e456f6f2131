import type { PreloadedQuery } from 'react-relay';
import usersRouteQuery, { type UsersRouteQuery } from '../../__generated__/UsersRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** Users listed per page (a variable: the server's cost limit multiplies literal page sizes). */
export const USERS_PAGE = 200;

export type UsersPrepared = { query: PreloadedQuery<UsersRouteQuery> };

/** The user list; administrators only (nothing is asked for anyone else). */
export function prepareUsers(session: RouteSession): UsersPrepared | null {
  if (session.viewer.role !== 'ADMIN') return null;
  return { query: prepareQuery<UsersRouteQuery>(session, usersRouteQuery, { count: USERS_PAGE }) };
}
