import { Caption1, makeStyles, ProgressBar, Spinner, tokens } from '@fluentui/react-components';
import { ArrowLeft20Regular, DocumentSearch24Regular } from '@fluentui/react-icons';
import { Suspense } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router';
import type { AccessRunRouteQuery } from '../../../__generated__/AccessRunRouteQuery.graphql';
import { EmptyState } from '../../../components/layout/EmptyState';
import { LinkButton } from '../../../components/forms/LinkButton';
import { PageHeader } from '../../../components/layout/PageHeader';
import { usePreparedQuery } from '../../../router/usePreparedQuery';
import { AdminOnly } from '../../../shell/AccessGate';
import { AccessProgressLive } from '../AccessProgressLive';
import type { AccessRunPrepared } from './accessRunLoader';
import { ConflictsTable } from './ConflictsTable';
import { RunBreakdown } from './RunBreakdown';
import { RunFigures } from './RunFigures';
import { TestChanges } from './TestChanges';

const query = graphql`
  query AccessRunRouteQuery($id: ID!, $count: Int!, $groups: Int!) {
    node(id: $id) {
      __typename
      ... on AccessAnalysis {
        id
        status
        progress
        errorMessage
        asOf
        systems
        test
        ruleSet {
          name
          version
        }
      }
      ...RunFigures_run @alias(as: "figures")
      ...RunBreakdown_run @alias(as: "breakdown") @arguments(groups: $groups)
      ...ConflictsTable_run @alias(as: "table") @arguments(count: $count)
      ...TestChanges_run @alias(as: "changes")
    }
  }
`;

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, minWidth: 0 },
  loading: { paddingTop: tokens.spacingVerticalXXL },
  progress: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  error: { color: tokens.colorPaletteRedForeground1, overflowWrap: 'anywhere' },
});

const BACK = (
  <LinkButton to="/access-analysis?tab=runs" appearance="subtle" icon={<ArrowLeft20Regular />}>
    All Runs
  </LinkButton>
);

/** One analysis run (administrators): its figures, its conflicts by risk, process, system and user, and the conflicts themselves. */
export default function AccessRunRoute() {
  return (
    <AdminOnly>
      <AccessRun />
    </AdminOnly>
  );
}

function AccessRun() {
  const styles = useStyles();
  const prepared = useLoaderData() as AccessRunPrepared | null;
  const { queryRef, refetch } = usePreparedQuery<AccessRunRouteQuery>(query, prepared?.query);
  const loading = <Spinner className={styles.loading} label="Loading the run..." />;
  if (queryRef == null) return loading;
  return (
    <Suspense fallback={loading}>
      <LoadedRun queryRef={queryRef} refetch={refetch} />
    </Suspense>
  );
}

function LoadedRun({ queryRef, refetch }: { queryRef: PreloadedQuery<AccessRunRouteQuery>; refetch: () => void }) {
  const styles = useStyles();
  const data = usePreloadedQuery<AccessRunRouteQuery>(query, queryRef);
  const node = data.node;
  // The fragments are aliased (they apply to a run only): each is there exactly when the node is a run.
  const run = node?.__typename === 'AccessAnalysis' ? node : null;
  if (
    run?.id == null ||
    run.ruleSet == null ||
    run.systems == null ||
    run.figures == null ||
    run.breakdown == null ||
    run.table == null ||
    run.changes == null
  ) {
    return (
      <>
        <PageHeader title="Analysis Run" actions={BACK} />
        <EmptyState
          icon={<DocumentSearch24Regular />}
          heading="h2"
          title="Run not found"
          description="This analysis run does not exist; it may have been removed."
        />
      </>
    );
  }
  const title = `${run.ruleSet.name} v${run.ruleSet.version}`;
  return (
    <div className={styles.page}>
      <PageHeader title="Analysis Run" subtitle={`${title}${run.test ? ' · test run' : ''} · ${run.systems.join(', ')} · as of ${run.asOf}`} actions={BACK} />
      {run.status === 'PROCESSING' ? (
        <div className={styles.progress}>
          <AccessProgressLive id={run.id} onSettled={refetch} />
          <ProgressBar value={run.progress} max={100} thickness="large" aria-label={`Analysing ${title}`} aria-valuetext={`${run.progress}%`} />
          <Caption1>{`Running: ${run.progress}%`}</Caption1>
        </div>
      ) : null}
      {run.status === 'FAILED' ? <Caption1 className={styles.error}>{`The run failed: ${run.errorMessage ?? 'no reason was given'}`}</Caption1> : null}
      <RunFigures run={run.figures} />
      <TestChanges run={run.changes} />
      {run.status === 'COMPLETED' ? (
        <>
          <RunBreakdown run={run.breakdown} />
          <ConflictsTable run={run.table} />
        </>
      ) : null}
    </div>
  );
}
