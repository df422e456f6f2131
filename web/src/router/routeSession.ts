// The session the route loaders prepare queries for. SessionProvider records
// the session it shows (its Relay environment and authentication state) and
// then asks the router to run the loaders again, so a route's query is always
// prepared in the store the screen reads from, for the user now signed in.
import type { LoaderFunctionArgs, ShouldRevalidateFunctionArgs } from 'react-router';
import { loadQuery, type PreloadedQuery } from 'react-relay';
import type { Environment, GraphQLTaggedNode, OperationType } from 'relay-runtime';
import type { AuthState, Viewer } from '../auth/SessionProvider';

export type RouteSession = { environment: Environment; viewer: Viewer };

let shown: { environment: Environment; auth: AuthState } | null = null;
let generation = 0;

function sameSession(a: { environment: Environment; auth: AuthState }, environment: Environment, auth: AuthState): boolean {
  if (a.environment !== environment || a.auth.status !== auth.status) return false;
  if (a.auth.status === 'loading' || a.auth.status === 'signedOut' || auth.status === 'loading' || auth.status === 'signedOut') return true;
  return a.auth.viewer.id === auth.viewer.id && a.auth.viewer.role === auth.viewer.role;
}

/**
 * Called by SessionProvider when the session on screen may have changed;
 * true when the loaders must run again (another store, state, user or role:
 * not a refreshed copy of the same viewer, which keeps the screens' state).
 */
export function setRouteSession(environment: Environment, auth: AuthState): boolean {
  const changed = shown == null || !sameSession(shown, environment, auth);
  shown = { environment, auth };
  if (changed) generation += 1;
  return changed;
}

/** The signed-in session a loader prepares for; null while signed out, loading or a password reset is pending. */
export function routeSession(): RouteSession | null {
  if (shown == null || shown.auth.status !== 'signedIn') return null;
  return { environment: shown.environment, viewer: shown.auth.viewer };
}

/** Prepares a route's queries for a session (and the address: a tab, say); null when the viewer may not see the route. */
export type RoutePrepare<T> = (session: RouteSession, url: URL) => T | null | Promise<T | null>;

/**
 * A react-router loader that prepares a route's queries (Relay `loadQuery`,
 * which starts the requests and returns at once) for the signed-in session,
 * and its revalidation rule: the loader runs again when the path or the search
 * changes, or the session does; a click on the link of the page already open
 * keeps the page's state (and its queries) unchanged, as does a change of the
 * address that `sameScreen` says the screen follows itself (a list's page,
 * search and filters: the screen loads its next rows). A `perSession` loader
 * (the signed-in layout's) runs again only when the session changes.
 */
export function routeLoader<T>(
  prepare: RoutePrepare<T>,
  { perSession = false, sameScreen }: { perSession?: boolean; sameScreen?: (current: URL, next: URL) => boolean } = {},
) {
  let preparedFor = -1;
  return {
    loader: ({ request }: LoaderFunctionArgs): T | null | Promise<T | null> => {
      preparedFor = generation;
      const session = routeSession();
      return session == null ? null : prepare(session, new URL(request.url));
    },
    shouldRevalidate: ({ currentUrl, nextUrl }: ShouldRevalidateFunctionArgs): boolean =>
      preparedFor !== generation ||
      (!perSession && (currentUrl.pathname !== nextUrl.pathname || (currentUrl.search !== nextUrl.search && !(sameScreen?.(currentUrl, nextUrl) ?? false)))),
  };
}

/** Starts loading `query` in the session's store (the screens' policy: what the store has at once, then the network's). */
export function prepareQuery<T extends OperationType>(session: RouteSession, query: GraphQLTaggedNode, variables: T['variables']): PreloadedQuery<T> {
  return loadQuery<T>(session.environment, query, variables, { fetchPolicy: 'store-and-network' });
}

/**
 * Every loader on screen prepares its queries again at the next revalidation
 * (the data changed under every page: an administrator purged all risk data).
 */
export function refreshRouteData(): void {
  generation += 1;
}
