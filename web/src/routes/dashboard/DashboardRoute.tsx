import { makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { Suspense, useCallback, useMemo, useState } from 'react';
import { graphql, usePreloadedQuery, useRelayEnvironment, useSubscription, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router';
import { fetchQuery, type GraphQLSubscriptionConfig } from 'relay-runtime';
import type { DashboardRouteQuery } from '../../__generated__/DashboardRouteQuery.graphql';
import { useAuth } from '../../auth/SessionProvider';
import { PageHeader } from '../../components/layout/PageHeader';
import { DASHBOARD_HEADING } from '../../boot/bootFrame';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import type { DashboardPrepared } from './dashboardLoader';
import { DashboardStatCards } from './DashboardStatCards';
import { ReviewerProgressCard } from './ReviewerProgressCard';
import { RiskCategoriesCard } from './RiskCategoriesCard';
import { RiskTrendCard } from './RiskTrendCard';
import { useDebouncedCallback } from '../../components/forms/useDebouncedCallback';
import type { DashboardRouteChangedSubscription } from '../../__generated__/DashboardRouteChangedSubscription.graphql';
import { ReportsCard } from './ReportsCard';
import { ReviewPeriodCard } from './ReviewPeriodCard';
import { UnassignedConflictsBar } from '../../domain/coverage/UnassignedConflictsBar';

const query = graphql`
  query DashboardRouteQuery($isAdmin: Boolean!) {
    dashboardStats {
      ...DashboardStatCards_stats
      ...UnassignedConflictsBar_stats @include(if: $isAdmin) @alias(as: "coverage")
    }
    ...ReviewPeriodCard_query @include(if: $isAdmin) @alias(as: "periodCard")
    ...RiskTrendCard_query
    ...RiskCategoriesCard_query
    ...ReviewerProgressCard_query @include(if: $isAdmin) @alias(as: "progressCard")
  }
`;

const changedSubscription = graphql`
  subscription DashboardRouteChangedSubscription {
    dashboardChanged {
      reason
    }
  }
`;

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 340px), 1fr))',
    gap: tokens.spacingHorizontalL,
    marginTop: tokens.spacingVerticalL,
    alignItems: 'start',
  },
  charts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 420px), 1fr))',
    gap: tokens.spacingHorizontalL,
    marginTop: tokens.spacingVerticalL,
    alignItems: 'start',
  },
  loading: {
    paddingTop: tokens.spacingVerticalXXL,
  },
  coverage: { marginTop: tokens.spacingVerticalL },
});

/** SPEC §2, 'Risk Management Dashboard'. */
export default function DashboardRoute() {
  const styles = useStyles();
  const auth = useAuth();
  const isAdmin = auth.status === 'signedIn' && auth.viewer.role === 'ADMIN';
  const prepared = useLoaderData() as DashboardPrepared | null;
  const { queryRef } = usePreparedQuery<DashboardRouteQuery>(query, prepared?.query);

  const loading = <Spinner className={styles.loading} label="Loading dashboard..." />;
  return (
    <>
      <PageHeader title={DASHBOARD_HEADING.title} subtitle={DASHBOARD_HEADING.subtitle} />
      {queryRef == null ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <Dashboard queryRef={queryRef} isAdmin={isAdmin} />
        </Suspense>
      )}
    </>
  );
}

function Dashboard({ queryRef, isAdmin }: { queryRef: PreloadedQuery<DashboardRouteQuery>; isAdmin: boolean }) {
  const styles = useStyles();
  const data = usePreloadedQuery<DashboardRouteQuery>(query, queryRef);
  const environment = useRelayEnvironment();
  // A period change moves the figures (pending reviews count only in an active period): refetch this page's query.
  const [version, setVersion] = useState(0);
  const refreshFigures = useCallback(() => {
    fetchQuery<DashboardRouteQuery>(environment, query, { isAdmin }, { fetchPolicy: 'network-only' }).subscribe({});
    setVersion((v) => v + 1);
  }, [environment, isAdmin]);
  // Live: while reviewers decide (or an upload goes live) the server says so; the figures are fetched
  // again at most once a second, however many decisions arrive.
  const refreshSoon = useDebouncedCallback(refreshFigures, 1000);
  const subscription = useMemo<GraphQLSubscriptionConfig<DashboardRouteChangedSubscription>>(
    () => ({
      subscription: changedSubscription,
      variables: {},
      onNext: () => refreshSoon(),
      onError: (error) => console.warn('Live dashboard updates stopped', error),
    }),
    [refreshSoon],
  );
  useSubscription<DashboardRouteChangedSubscription>(subscription);

  return (
    <>
      <DashboardStatCards stats={data.dashboardStats} />
      {data.dashboardStats.coverage ? (
        <div className={styles.coverage}>
          <UnassignedConflictsBar stats={data.dashboardStats.coverage} isAdmin={isAdmin} />
        </div>
      ) : null}
      <div className={styles.grid}>
        {data.periodCard ? <ReviewPeriodCard query={data.periodCard} onPeriodChanged={refreshFigures} /> : null}
        <ReportsCard />
        {data.progressCard ? <ReviewerProgressCard query={data.progressCard} /> : null}
      </div>
      <div className={styles.charts}>
        <RiskTrendCard query={data} version={version} />
        <RiskCategoriesCard query={data} />
      </div>
    </>
  );
}
