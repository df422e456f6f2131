import { Body1, Card, makeStyles, Subtitle1, tokens } from '@fluentui/react-components';
import { LockClosed24Regular } from '@fluentui/react-icons';
import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../auth/SessionProvider';
import { IconTile } from '../components/layout/IconTile';
import { RouteLoading } from '../components/layout/RouteLoading';
import { useNotify } from '../components/forms/toast';

/** SPEC §9: access-denied redirect delay. */
export const ACCESS_DENIED_REDIRECT_MS = 1000;

const useStyles = makeStyles({
  card: {
    maxWidth: '560px',
    marginTop: tokens.spacingVerticalXXL,
    marginLeft: 'auto',
    marginRight: 'auto',
    padding: tokens.spacingHorizontalXXL,
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalM,
    textAlign: 'center',
  },
  muted: {
    color: tokens.colorNeutralForeground3,
  },
});

/**
 * SPEC §6: a non-administrator on an administrator page gets an 'Access Denied'
 * toast and goes to / after one second.
 */
export function AccessDeniedRedirect() {
  const notify = useNotify();
  const navigate = useNavigate();
  useEffect(() => {
    notify({ title: 'Access Denied', description: 'Only administrators can access this page', intent: 'error' });
    const timer = window.setTimeout(() => navigate('/', { replace: true }), ACCESS_DENIED_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate, notify]);
  return <RouteLoading />;
}

/** Renders its children only for administrators. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const auth = useAuth();
  if (auth.status !== 'signedIn') return null;
  if (auth.viewer.role !== 'ADMIN') return <AccessDeniedRedirect />;
  return <>{children}</>;
}

/** SPEC §2 (My Assigned Risks): non-reviewers see an 'Access Restricted' card. */
export function ReviewerOnly({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const styles = useStyles();
  if (auth.status !== 'signedIn') return null;
  if (auth.viewer.role !== 'REVIEWER') {
    return (
      <Card className={styles.card} role="alert">
        <IconTile size="disc" tone="danger">
          <LockClosed24Regular />
        </IconTile>
        <Subtitle1 as="h1">Access Restricted</Subtitle1>
        <Body1 className={styles.muted}>Only reviewers can access this page.</Body1>
      </Card>
    );
  }
  return <>{children}</>;
}
