import { lazy, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { useAuth } from './auth/SessionProvider';
import { AppShell } from './components/AppShell';
import { RouteBoundary } from './components/RouteBoundary';
import DashboardRoute from './routes/dashboard/DashboardRoute';
import InternalLoginRoute from './routes/internal-login/InternalLoginRoute';
import LandingRoute from './routes/landing/LandingRoute';
import NotFoundRoute from './routes/not-found/NotFoundRoute';
import SignInRefusedRoute from './routes/sign-in-refused/SignInRefusedRoute';

// Each screen but the dashboard is its own chunk, loaded when first opened
// (RouteBoundary's Suspense shows the loading state meanwhile).
const AdminSettingsRoute = lazy(() => import('./routes/admin-settings/AdminSettingsRoute'));
const ApiTokensRoute = lazy(() => import('./routes/api-tokens/ApiTokensRoute'));
const AllReviewsRoute = lazy(() => import('./routes/all-reviews/AllReviewsRoute'));
const AssignedRisksRoute = lazy(() => import('./routes/assigned-risks/AssignedRisksRoute'));
const AssignmentsRoute = lazy(() => import('./routes/assignments/AssignmentsRoute'));
const NotificationsRoute = lazy(() => import('./routes/notifications/NotificationsRoute'));
const ReportsRoute = lazy(() => import('./routes/reports/ReportsRoute'));
const RiskReviewRoute = lazy(() => import('./routes/risk-review/RiskReviewRoute'));
const RiskSimulationRoute = lazy(() => import('./routes/risk-simulation/RiskSimulationRoute'));
const UploadRoute = lazy(() => import('./routes/upload/UploadRoute'));
const UsersRoute = lazy(() => import('./routes/users/UsersRoute'));

/** The routes of SPEC §2 available when signed in with no password reset pending. */
const SIGNED_IN_ROUTES: ReadonlyArray<{ path: string; element: ReactNode }> = [
  { path: '/upload', element: <UploadRoute /> },
  { path: '/risks', element: <RiskReviewRoute /> },
  { path: '/risk-review', element: <RiskReviewRoute /> },
  { path: '/assigned-risks', element: <AssignedRisksRoute /> },
  { path: '/assignments', element: <AssignmentsRoute /> },
  { path: '/reports', element: <ReportsRoute /> },
  { path: '/users', element: <UsersRoute /> },
  { path: '/notifications', element: <NotificationsRoute /> },
  { path: '/risk-simulation', element: <RiskSimulationRoute /> },
  { path: '/all-reviews', element: <AllReviewsRoute /> },
  { path: '/admin-settings', element: <AdminSettingsRoute /> },
  { path: '/api-tokens', element: <ApiTokensRoute /> },
];

/**
 * SPEC §2: while authentication loads, or when signed out or a password reset
 * is pending, / is the landing page and every other path except
 * /internal-login is the not-found screen.
 */
export function App() {
  const auth = useAuth();

  if (auth.status !== 'signedIn') {
    return (
      <Routes>
        <Route path="/" element={<LandingRoute />} />
        <Route path="/internal-login" element={<InternalLoginRoute />} />
        <Route path="/sign-in-refused" element={<SignInRefusedRoute />} />
        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
    );
  }

  return (
    <Routes>
      <Route path="/internal-login" element={<InternalLoginRoute />} />
      <Route path="/sign-in-refused" element={<SignInRefusedRoute />} />
      <Route element={<AppShell viewer={auth.viewer} />}>
        <Route
          index
          element={
            <RouteBoundary>
              <DashboardRoute />
            </RouteBoundary>
          }
        />
        {SIGNED_IN_ROUTES.map(({ path, element }) => (
          <Route key={path} path={path} element={<RouteBoundary>{element}</RouteBoundary>} />
        ))}
        <Route path="*" element={<NotFoundRoute inShell />} />
      </Route>
    </Routes>
  );
}
