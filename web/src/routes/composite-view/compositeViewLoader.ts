import type { PreloadedQuery } from 'react-relay';
import compositeViewQuery, { type CompositeViewQuery } from '../../__generated__/CompositeViewQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** Users per page of the composite view. */
export const COMPOSITE_USERS_PAGE = 50;

/** The composite view's variables for a search ('' for every user). */
export function compositeViewVariables(search: string): CompositeViewQuery['variables'] {
  return { search: search || null, count: COMPOSITE_USERS_PAGE };
}

export { compositeViewQuery };

/** The composite view's first page (every user), for a route that opens on it. */
export function prepareCompositeView(session: RouteSession): PreloadedQuery<CompositeViewQuery> {
  return prepareQuery<CompositeViewQuery>(session, compositeViewQuery, compositeViewVariables(''));
}
