import {
  Component,
  Suspense,
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { RelayEnvironmentProvider, graphql, loadQuery, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useNavigate, useRevalidator } from 'react-router';
import { commitLocalUpdate, commitMutation, fetchQuery, type Environment } from 'relay-runtime';
import type { SessionProviderLogoutMutation } from '../__generated__/SessionProviderLogoutMutation.graphql';
import type { SessionProviderQuery, SessionProviderQuery$data } from '../__generated__/SessionProviderQuery.graphql';
import { useNotify } from '../components/forms/toast';
import { createEnvironment } from '../relay/environment';
import { onUnauthenticated } from '../relay/errors';
import { SIGN_IN_PATH, signInPathFor } from './nextPath';
import { closeSubscriptions } from '../relay/network';
import { setRouteSession } from '../router/routeSession';
import { INTERNAL_USER_KEY, clearStoredUser, corruptStoredUserFound, parseStoredUser, readStoredUser, writeStoredUser } from './storage';
import { endServerSession, SSO_LOGIN_URL } from './sso';

const viewerQuery = graphql`
  query SessionProviderQuery {
    viewer {
      id
      userId
      firstName
      lastName
      email
      role
      isActive
      passwordResetRequired
      ...Sidebar_viewer
      ...ChangePasswordDialog_viewer
    }
  }
`;

const logoutMutation = graphql`
  mutation SessionProviderLogoutMutation {
    logout
  }
`;

export type Viewer = NonNullable<SessionProviderQuery$data['viewer']>;

/** SPEC §2/§4: authenticated only when a user exists and needs no password reset. */
export type AuthState = { status: 'loading' } | { status: 'signedOut' } | { status: 'resetRequired'; viewer: Viewer } | { status: 'signedIn'; viewer: Viewer };

export type SessionActions = {
  /** Starts a fresh Relay store and loads the viewer from the server (after sign-in or password change). */
  reload: () => Promise<Viewer | null>;
  /** Ends the server session, clears the stored user and goes to / (single sign-on: to /internal-login, through the provider's sign-out). */
  signOut: () => Promise<void>;
  /** Forgets the session locally (the server already considers it gone). */
  resetSignedOut: () => void;
};

/** SPEC §6/§8: redirect delay after the server reports the session gone. */
export const UNAUTHORIZED_REDIRECT_MS = 500;
/** Routes whose unauthenticated users go to the external login endpoint. */
const EXTERNAL_LOGIN_PATHS = ['/reports', '/assigned-risks'];

/** The status last rendered; a 401 matters only to a session the client believes is live. */
let liveStatus: AuthState['status'] = 'loading';

const AuthStateContext = createContext<AuthState>({ status: 'loading' });
const SessionActionsContext = createContext<SessionActions | null>(null);

export function useAuth(): AuthState {
  return useContext(AuthStateContext);
}

export function useSession(): SessionActions {
  const actions = useContext(SessionActionsContext);
  if (actions == null) throw new Error('useSession must be used inside <SessionProvider>');
  return actions;
}

type Session = {
  generation: number;
  environment: Environment;
  queryRef: PreloadedQuery<SessionProviderQuery> | null;
};

let generations = 0;

function signedOutSession(): Session {
  const environment = createEnvironment();
  // Record `viewer: null` so the query is fulfilled from the store, without a request.
  commitLocalUpdate(environment, (store) => {
    store.getRoot().setValue(null, 'viewer');
  });
  return {
    generation: ++generations,
    environment,
    queryRef: loadQuery<SessionProviderQuery>(environment, viewerQuery, {}, { fetchPolicy: 'store-or-network' }),
  };
}

function logout(environment: Environment): Promise<void> {
  return new Promise((resolve) => {
    commitMutation<SessionProviderLogoutMutation>(environment, {
      mutation: logoutMutation,
      variables: {},
      onCompleted: () => resolve(),
      onError: (error) => {
        console.warn('Sign-out request failed', error);
        resolve();
      },
    });
  });
}

function initialSession(): Session {
  const environment = createEnvironment();
  if (readStoredUser().status === 'corrupt' || corruptStoredUserFound()) {
    // SPEC §4: a corrupt stored user is logged (by readStoredUser), removed and treated as signed out,
    // on the server too: a session cookie left valid would sign the user in again at the next load.
    void endServerSession().catch((error: unknown) => console.error('Could not end the server session', error));
    return { generation: ++generations, environment, queryRef: null };
  }
  return {
    generation: ++generations,
    environment,
    queryRef: loadQuery<SessionProviderQuery>(environment, viewerQuery, {}, { fetchPolicy: 'network-only' }),
  };
}

// Started at module load, so the viewer request runs before the first render.
let bootSession: Session | null = null;
function getBootSession(): Session {
  bootSession ??= initialSession();
  return bootSession;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session>(getBootSession);
  // The state shown, with the environment it was read from: the routed tree
  // switches store and state together, never a new store with an old viewer.
  const [shown, setShown] = useState<{ environment: Environment; auth: AuthState }>(() => ({
    environment: session.environment,
    auth: { status: 'loading' },
  }));
  // As a transition, so a first load stays responsive: the screen the new state shows (on a first load,
  // the whole shell and its page) renders in slices that yield to the browser, not as one long
  // task; what is on screen (the frame, or the previous state) stays until it is ready.
  const reportAuth = useCallback((environment: Environment) => (auth: AuthState) => startTransition(() => setShown({ environment, auth })), []);
  const onChange = useMemo(() => reportAuth(session.environment), [reportAuth, session.environment]);
  // The latest session asked for (state may lag behind while a transition renders).
  const sessionRef = useRef(session);
  const navigate = useNavigate();
  const notify = useNotify();

  // The route loaders prepare queries for the session on screen: when it
  // changes (signed in, out, another user, a new store), they run again.
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  useLayoutEffect(() => {
    if (shown.auth.status === 'loading') return;
    if (setRouteSession(shown.environment, shown.auth)) void revalidateRef.current();
  }, [shown]);

  const replaceSession = useCallback((next: Session) => {
    const previous = sessionRef.current;
    sessionRef.current = next;
    if (previous.environment !== next.environment) closeSubscriptions();
    startTransition(() => setSession(next));
    // Let the new tree commit before releasing the previous query.
    window.setTimeout(() => previous.queryRef?.dispose(), 0);
  }, []);

  const resetSignedOut = useCallback(() => {
    liveStatus = 'signedOut';
    clearStoredUser();
    replaceSession(signedOutSession());
  }, [replaceSession]);

  const reload = useCallback(async () => {
    const environment = createEnvironment();
    const data = await fetchQuery<SessionProviderQuery>(
      environment,
      viewerQuery,
      {},
      {
        fetchPolicy: 'network-only',
      },
    ).toPromise();
    replaceSession({
      generation: ++generations,
      environment,
      queryRef: loadQuery<SessionProviderQuery>(environment, viewerQuery, {}, { fetchPolicy: 'store-or-network' }),
    });
    return data?.viewer ?? null;
  }, [replaceSession]);

  const signOut = useCallback(async () => {
    // SPEC §4: an internal user goes to /; a single sign-on user through the
    // provider's sign-out (when it has one) to /internal-login, as the server answers.
    let next: string | null = null;
    try {
      next = await endServerSession();
    } catch (error) {
      console.warn('Sign-out request failed', error);
      await logout(sessionRef.current.environment);
    }
    if (next && !next.startsWith('/')) {
      // Leaving for the provider: forget the user here (and in other tabs) without re-rendering signed out first.
      liveStatus = 'signedOut';
      clearStoredUser();
      window.location.assign(next);
      return;
    }
    resetSignedOut();
    navigate(next ?? '/');
  }, [navigate, resetSignedOut]);

  // A corrupt stored user found at start-up: end any server session, then start signed out.
  useEffect(() => {
    if (session.queryRef != null) return;
    let cancelled = false;
    void logout(session.environment).then(() => {
      if (!cancelled) replaceSession(signedOutSession());
    });
    return () => {
      cancelled = true;
    };
  }, [session, replaceSession]);

  // Sign-in and sign-out in other tabs (SPEC §4).
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea !== window.localStorage) return;
      if (event.key !== INTERNAL_USER_KEY && event.key !== null) return;
      const stored = parseStoredUser(event.key === null ? null : event.newValue);
      if (stored.status === 'valid') {
        void reload().catch((error: unknown) => console.error('Could not refresh the session', error));
      } else if (stored.status === 'corrupt') {
        void signOut();
      } else {
        resetSignedOut();
        navigate('/');
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [navigate, reload, resetSignedOut, signOut]);

  // The server reports the session gone (HTTP 401 in SPEC §6/§8).
  const redirectPending = useRef(false);
  useEffect(
    () =>
      onUnauthenticated(() => {
        if (redirectPending.current) return;
        if (liveStatus !== 'signedIn' && liveStatus !== 'resetRequired') return;
        redirectPending.current = true;
        // Held: the failure of the request that found the session gone must not replace it.
        notify({
          title: 'Unauthorized',
          description: 'You are logged out. Logging in again...',
          intent: 'error',
          holdMs: UNAUTHORIZED_REDIRECT_MS + 1000,
        });
        window.setTimeout(() => {
          redirectPending.current = false;
          const path = window.location.pathname;
          resetSignedOut();
          if (EXTERNAL_LOGIN_PATHS.some((p) => path === p || path.startsWith(`${p}/`))) {
            window.location.assign(SSO_LOGIN_URL);
          } else {
            // Marked as a sign-out, so the sign-in page does not send a session still on screen back to '/';
            // signing in again returns to the page (its address, filters included) the session ended on.
            const here = `${path}${window.location.search}${window.location.hash}`;
            navigate(here === '/' ? SIGN_IN_PATH : signInPathFor(here), { state: { signedOut: true } });
          }
        }, UNAUTHORIZED_REDIRECT_MS);
      }),
    [navigate, notify, resetSignedOut],
  );

  const actions = useMemo<SessionActions>(() => ({ reload, signOut, resetSignedOut }), [reload, signOut, resetSignedOut]);

  return (
    <SessionActionsContext.Provider value={actions}>
      {session.queryRef == null ? null : (
        <RelayEnvironmentProvider environment={session.environment}>
          <ViewerErrorBoundary key={session.generation} onError={() => onChange({ status: 'signedOut' })}>
            <Suspense fallback={null}>
              <ViewerReader queryRef={session.queryRef} onChange={onChange} />
            </Suspense>
          </ViewerErrorBoundary>
        </RelayEnvironmentProvider>
      )}
      {/* The routed tree stays mounted while the viewer loads, so typed input is never lost. */}
      <RelayEnvironmentProvider environment={shown.environment}>
        <AuthStateContext.Provider value={shown.auth}>{children}</AuthStateContext.Provider>
      </RelayEnvironmentProvider>
    </SessionActionsContext.Provider>
  );
}

/** Reads the viewer and reports the authentication state it implies. */
function ViewerReader({ queryRef, onChange }: { queryRef: PreloadedQuery<SessionProviderQuery>; onChange: (state: AuthState) => void }) {
  const { viewer } = usePreloadedQuery<SessionProviderQuery>(viewerQuery, queryRef);

  const state = useMemo<AuthState>(() => {
    if (viewer == null) return { status: 'signedOut' };
    if (viewer.passwordResetRequired) return { status: 'resetRequired', viewer };
    return { status: 'signedIn', viewer };
  }, [viewer]);

  useLayoutEffect(() => {
    liveStatus = state.status;
    onChange(state);
  }, [state, onChange]);

  // Keep the stored copy in step with the server session.
  useEffect(() => {
    if (viewer == null) {
      if (readStoredUser().status !== 'none') clearStoredUser();
    } else if (!viewer.passwordResetRequired) {
      // SPEC §3: the internal user's id is the stored id the REST calls take, not the global id.
      writeStoredUser({ ...viewer, id: viewer.userId });
    }
  }, [viewer]);

  return null;
}

/** If the viewer cannot be loaded (server unreachable), the app behaves as signed out. */
class ViewerErrorBoundary extends Component<{ children: ReactNode; onError: () => void }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Could not load the signed-in user', error, info.componentStack);
    liveStatus = 'signedOut';
    this.props.onError();
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
