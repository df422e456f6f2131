import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { useAuth } from './auth/SessionProvider';
import { AppShell } from './components/AppShell';
import { RouteBoundary } from './components/RouteBoundary';
import AdminSettingsRoute from './routes/admin-settings/AdminSettingsRoute';
import AllReviewsRoute from './routes/all-reviews/AllReviewsRoute';
import AssignedRisksRoute from './routes/assigned-risks/AssignedRisksRoute';
import AssignmentsRoute from './routes/assignments/AssignmentsRoute';
import DashboardRoute from './routes/dashboard/DashboardRoute';
import InternalLoginRoute from './routes/internal-login/InternalLoginRoute';
import LandingRoute from './routes/landing/LandingRoute';
import NotFoundRoute from './routes/not-found/NotFoundRoute';
import NotificationsRoute from './routes/notifications/NotificationsRoute';
import ReportsRoute from './routes/reports/ReportsRoute';
import RiskReviewRoute from './routes/risk-review/RiskReviewRoute';
import RiskSimulationRoute from './routes/risk-simulation/RiskSimulationRoute';
import UploadRoute from './routes/upload/UploadRoute';
import UsersRoute from './routes/users/UsersRoute';

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
        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
    );
  }

  return (
    <Routes>
      <Route path="/internal-login" element={<InternalLoginRoute />} />
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
