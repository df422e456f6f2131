import { Button, makeStyles, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, tokens } from '@fluentui/react-components';
import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { isForbidden, isUnauthenticated } from '../relay/errors';
import { AccessDeniedRedirect } from './AccessGate';
import { RouteLoading } from '../components/layout/RouteLoading';

const useStyles = makeStyles({
  error: {
    maxWidth: '720px',
    marginTop: tokens.spacingVerticalL,
  },
});

function RouteError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const styles = useStyles();
  if (isUnauthenticated(error)) {
    // The session handler shows 'Unauthorized' and redirects.
    return <RouteLoading />;
  }
  if (isForbidden(error)) {
    return <AccessDeniedRedirect />;
  }
  return (
    <MessageBar intent="error" layout="multiline" className={styles.error}>
      <MessageBarBody>
        <MessageBarTitle>Something went wrong</MessageBarTitle>
        {error.message || 'Unknown error'}
      </MessageBarBody>
      <MessageBarActions>
        <Button onClick={onRetry}>Try again</Button>
      </MessageBarActions>
    </MessageBar>
  );
}

type BoundaryState = { error: Error | null };

class ErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    if (!isUnauthenticated(error) && !isForbidden(error)) {
      console.error('Route failed to render', error, info.componentStack);
    }
  }

  render() {
    if (this.state.error) {
      return <RouteError error={this.state.error} onRetry={() => this.setState({ error: null })} />;
    }
    return this.props.children;
  }
}

/** Suspense and an error boundary around one route (ARCHITECTURE.md, Web). */
export function RouteBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return (
    <ErrorBoundary key={location.pathname}>
      <Suspense fallback={<RouteLoading />}>{children}</Suspense>
    </ErrorBoundary>
  );
}
