import { lazy, Suspense, useRef, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLoaderData, useLocation, type RouteObject } from 'react-router';
import { SessionProvider, useAuth } from './auth/SessionProvider';
import { signInPathFor } from './auth/nextPath';
import { prepareNotificationBell, type NotificationBellPrepared } from './domain/notifications/notificationBellLoader';
import { RouteBoundary } from './shell/RouteBoundary';
import { BootFrame, BootFrameContent, bootFramePainted } from './shell/BootFrame';
import { RouteLoading } from './components/layout/RouteLoading';
import { DASHBOARD_HEADING } from './boot/bootFrame';
import { PageHeader } from './components/layout/PageHeader';
import { routeLoader, type RoutePrepare } from './router/routeSession';
import { prepareDashboard } from './routes/dashboard/dashboardLoader';
import { readStoredUser } from './auth/storage';
import NotFoundRoute from './routes/not-found/NotFoundRoute';
import SignInRefusedRoute from './routes/sign-in-refused/SignInRefusedRoute';
import { riskReviewTab } from './routes/risk-review/riskQueueAddress';

// Each screen but the dashboard is its own chunk (RouteBoundary's Suspense
// shows the loading state while it loads). Its loader (with the query's
// artifact) is a small chunk of its own: on navigation the loader starts the
// screen's chunk and, once its own small chunk is in, the screen's query, so
// both are on their way before the screen renders.
// The signed-in shell and the dashboard are chunks of their own too, so the
// sign-in path loads neither; the layout's and the dashboard's loaders start
// their code and their queries together, so neither waits for the other.
// The signed-out screens are chunks as well (the dashboard path loads neither their
// Fluent components nor the change-password dialog); a first load that is likely
// signed out (no stored user) starts the screen's code at once, beside the session query.
const landingCode = () => import('./routes/landing/LandingRoute');
const LandingRoute = lazy(landingCode);
const internalLoginCode = () => import('./routes/internal-login/InternalLoginRoute');
const InternalLoginRoute = lazy(internalLoginCode);
const appShellCode = () => import('./shell/AppShell');
const AppShell = lazy(() => appShellCode().then((m) => ({ default: m.AppShell })));
const dashboardCode = () => import('./routes/dashboard/DashboardRoute');
const DashboardRoute = lazy(dashboardCode);
const assignedRisksCode = () => import('./routes/assigned-risks/AssignedRisksRoute');
const riskReviewCode = () => import('./routes/risk-review/RiskReviewRoute');
const AssignedRisksRoute = lazy(assignedRisksCode);
const RiskReviewRoute = lazy(riskReviewCode);

/** Starts loading a screen's code without waiting for it (React.lazy reuses the module once it is in). */
function startLoading(code: () => Promise<unknown>): void {
  code().catch(() => {
    // React.lazy loads it again and shows the route's error state if it still fails.
  });
}

// Likely signed in (a stored user): the shell's and the dashboard's code start beside the session query.
if (window.location.pathname === '/internal-login') startLoading(internalLoginCode);
else if (readStoredUser().status !== 'valid') {
  if (window.location.pathname === '/') startLoading(landingCode);
} else {
  startLoading(appShellCode);
  if (window.location.pathname === '/') startLoading(dashboardCode);
}

const prepareShell: RoutePrepare<NotificationBellPrepared> = (session) => {
  startLoading(appShellCode);
  return prepareNotificationBell(session);
};

const prepareHome: RoutePrepare<unknown> = (session) => {
  startLoading(dashboardCode);
  return prepareDashboard(session);
};

/** A list's page, search and filters change within a Risk Review tab: the screen loads its rows itself. */
const sameRiskReviewTab = (current: URL, next: URL) => riskReviewTab(current.searchParams) === riskReviewTab(next.searchParams);

/** Reviewers' Risk Review is My Assigned Risks; everyone else's the administrators' tabs. */
const prepareRisks: RoutePrepare<unknown> = async (session, url) => {
  if (session.viewer.role === 'REVIEWER') {
    startLoading(assignedRisksCode);
    return (await import('./routes/assigned-risks/assignedRisksLoader')).prepareAssignedRisks(session, url);
  }
  startLoading(riskReviewCode);
  return (await import('./routes/risk-review/riskReviewLoader')).prepareRiskReview(session, url);
};

/**
 * SPEC §2 'Risk Review': reviewers get 'My Assigned Risks', everyone else the administrators' tabs.
 * While the screen's code arrives on a load the server painted for this viewer, the frame's content
 * (heading, and the queue's card with the period notice) stays where the screen will draw it.
 */
function RiskReviewForRole() {
  const auth = useAuth();
  if (auth.status !== 'signedIn') return null;
  return (
    <Suspense fallback={<BootFrameContent fallback={<RouteLoading />} />}>
      {auth.viewer.role === 'REVIEWER' ? <AssignedRisksRoute /> : <RiskReviewRoute />}
    </Suspense>
  );
}

/**
 * A signed-in screen as data: its address, its code (a chunk of its own, the
 * route module's default export) and the loader that prepares its queries; the
 * lazy component, and a prepare that starts the screen's code beside its
 * queries, derive from it. `sameScreen`: a change of the address the screen
 * follows itself (a tab, a list's page), keeping its state and queries.
 */
type ScreenDef = {
  path: string;
  code: () => Promise<{ default: ComponentType }>;
  prepare: RoutePrepare<unknown>;
  sameScreen?: (current: URL, next: URL) => boolean;
};

/**
 * The routes of SPEC §2 available when signed in with no password reset
 * pending (a loader asks for nothing a viewer may not see: an administrator's
 * screen prepares nothing for a reviewer, who gets the 'Access Denied' redirect).
 */
const SCREENS: ReadonlyArray<ScreenDef> = [
  { path: '/upload', code: () => import('./routes/upload/UploadRoute'), prepare: async (s) => (await import('./routes/upload/uploadLoader')).prepareUpload(s) },
  {
    path: '/assigned-risks',
    code: assignedRisksCode,
    prepare: async (s, url) => (await import('./routes/assigned-risks/assignedRisksLoader')).prepareAssignedRisks(s, url),
    sameScreen: () => true,
  },
  {
    path: '/assignments',
    code: () => import('./routes/assignments/AssignmentsRoute'),
    prepare: async (s) => (await import('./routes/assignments/assignmentsLoader')).prepareAssignments(s),
  },
  {
    path: '/reports',
    code: () => import('./routes/reports/ReportsRoute'),
    prepare: async (s) => (await import('./routes/reports/reportsLoader')).prepareReports(s),
  },
  {
    path: '/reports/remediation',
    code: () => import('./routes/remediation/RemediationRoute'),
    prepare: async (s) => (await import('./routes/remediation/remediationLoader')).prepareRemediation(s),
  },
  { path: '/users', code: () => import('./routes/users/UsersRoute'), prepare: async (s) => (await import('./routes/users/usersLoader')).prepareUsers(s) },
  {
    path: '/notifications',
    code: () => import('./routes/notifications/NotificationsRoute'),
    prepare: async (s) => (await import('./routes/notifications/notificationsLoader')).prepareNotifications(s),
  },
  {
    path: '/risk-simulation',
    code: () => import('./routes/risk-simulation/RiskSimulationRoute'),
    prepare: async (s) => (await import('./routes/risk-simulation/riskSimulationLoader')).prepareRiskSimulation(s),
  },
  {
    path: '/all-reviews',
    code: () => import('./routes/all-reviews/AllReviewsRoute'),
    prepare: async (s, url) => (await import('./routes/all-reviews/allReviewsLoader')).prepareAllReviews(s, url),
    sameScreen: () => true,
  },
  {
    path: '/admin-settings',
    code: () => import('./routes/admin-settings/AdminSettingsRoute'),
    prepare: async (s) => (await import('./routes/admin-settings/adminSettingsLoader')).prepareAdminSettings(s),
  },
  {
    path: '/access-analysis',
    code: () => import('./routes/access-analysis/AccessAnalysisRoute'),
    prepare: async (s) => (await import('./routes/access-analysis/accessAnalysisLoader')).prepareAccessAnalysis(s),
    // The tab is in the address; every tab's data is already on the page.
    sameScreen: () => true,
  },
  {
    path: '/access-analysis/runs/:runId',
    code: () => import('./routes/access-analysis/run/AccessRunRoute'),
    prepare: async (s, url) => (await import('./routes/access-analysis/run/accessRunLoader')).prepareAccessRun(s, url),
  },
  {
    // A consult question, reached from the link of its notification.
    path: '/questions/:questionId',
    code: () => import('./routes/questions/QuestionRoute'),
    prepare: async (s, url) => (await import('./routes/questions/questionLoader')).prepareQuestion(s, url),
  },
  {
    path: '/api-tokens',
    code: () => import('./routes/api-tokens/ApiTokensRoute'),
    prepare: async (s) => (await import('./routes/api-tokens/apiTokensLoader')).prepareApiTokens(s),
  },
];

/** A screen's route: its lazy component, and its loader starting the screen's code beside its queries. */
function screenRoute({ path, code, prepare, sameScreen }: ScreenDef) {
  const Component = lazy(code);
  const prepareWithCode: RoutePrepare<unknown> = (session, url) => {
    startLoading(code);
    return prepare(session, url);
  };
  return { path, element: <Component />, prepare: prepareWithCode, sameScreen };
}

/** Every signed-in route: Risk Review by role, then the screens of the table. */
const SIGNED_IN_ROUTES: ReadonlyArray<{
  path: string;
  element: ReactNode;
  prepare?: RoutePrepare<unknown>;
  sameScreen?: (current: URL, next: URL) => boolean;
}> = [
  { path: '/risks', element: <RiskReviewForRole />, prepare: prepareRisks, sameScreen: sameRiskReviewTab },
  { path: '/risk-review', element: <RiskReviewForRole />, prepare: prepareRisks, sameScreen: sameRiskReviewTab },
  ...SCREENS.map(screenRoute),
];

/** The session around every route (it navigates, so it lives inside the router). */
function Root() {
  return (
    <SessionProvider>
      {/* While a signed-out screen's code loads (the signed-in screens have boundaries of their own). */}
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    </SessionProvider>
  );
}

/**
 * Signed in: the shell (with the bell's query, prepared once per session) around the screens; otherwise the screens alone.
 * While the session loads on a page the server sent with the signed-in frame (a request with a session
 * cookie), and while the shell's code arrives, that frame: not the landing
 * page, which would flash between the frame and the dashboard.
 */
function Layout() {
  const auth = useAuth();
  const prepared = useLoaderData() as NotificationBellPrepared | null;
  if (auth.status === 'loading' && bootFramePainted) return <BootFrame />;
  if (auth.status !== 'signedIn') return <Outlet />;
  return (
    <Suspense fallback={<BootFrame />}>
      <AppShell viewer={auth.viewer} prepared={prepared} />
    </Suspense>
  );
}

/**
 * SPEC §2: while authentication loads, or when signed out or a password reset
 * is pending, / is the landing page and every other path except
 * /internal-login is the not-found screen.
 */
function Screen({ children, signedOut }: { children: ReactNode; signedOut?: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  // A signed-out deep link goes to sign-in, and back to the link afterwards
  // (not a screen left by signing out here: sign-out goes where SPEC §4 says).
  const wasSignedIn = useRef(false);
  if (auth.status === 'signedIn') wasSignedIn.current = true;
  if (auth.status === 'signedOut' && signedOut == null && !wasSignedIn.current) {
    return <Navigate to={signInPathFor(`${location.pathname}${location.search}${location.hash}`)} replace />;
  }
  // While the session loads, a deep link shows nothing rather than flashing the not-found screen.
  if (auth.status === 'loading' && signedOut == null) return null;
  if (auth.status !== 'signedIn') return <>{signedOut ?? <NotFoundRoute />}</>;
  return <RouteBoundary>{children}</RouteBoundary>;
}

function NotFound() {
  const auth = useAuth();
  return <NotFoundRoute inShell={auth.status === 'signedIn'} />;
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/internal-login', element: <InternalLoginRoute /> },
      { path: '/sign-in-refused', element: <SignInRefusedRoute /> },
      {
        element: <Layout />,
        ...routeLoader(prepareShell, { perSession: true }),
        children: [
          {
            index: true,
            ...routeLoader(prepareHome),
            element: (
              <Screen signedOut={<LandingRoute />}>
                {/* The heading stays on screen from the frame to the dashboard while its code arrives. */}
                <Suspense fallback={<PageHeader title={DASHBOARD_HEADING.title} subtitle={DASHBOARD_HEADING.subtitle} />}>
                  <DashboardRoute />
                </Suspense>
              </Screen>
            ),
          },
          ...SIGNED_IN_ROUTES.map(({ path, element, prepare, sameScreen }) => ({
            path,
            ...(prepare ? routeLoader(prepare, { sameScreen }) : {}),
            element: <Screen>{element}</Screen>,
          })),
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
