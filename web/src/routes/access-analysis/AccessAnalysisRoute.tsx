import { makeStyles, Spinner, Tab, TabList, tokens } from '@fluentui/react-components';
import { Suspense } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData, useSearchParams } from 'react-router';
import type { AccessAnalysisRouteQuery } from '../../__generated__/AccessAnalysisRouteQuery.graphql';
import { PageHeader } from '../../components/layout/PageHeader';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { AdminOnly } from '../../shell/AccessGate';
import type { AccessAnalysisPrepared } from './accessAnalysisLoader';
import { RuleSetsPanel } from './RuleSetsPanel';
import { SystemsPanel } from './SystemsPanel';
import { RunsPanel } from './RunsPanel';

const query = graphql`
  query AccessAnalysisRouteQuery($count: Int!) {
    ...RuleSetsPanel_query
    ...SystemsPanel_query @arguments(count: $count)
    ...RunsPanel_query @arguments(count: $count)
  }
`;

/** The screen's tabs, kept in the address (?tab=) so a reload or Back returns to the same one. */
export const ACCESS_TABS = [
  ['rule-sets', 'Rule Sets'],
  ['systems', 'System Data'],
  ['runs', 'Analysis Runs'],
] as const;
type AccessTab = (typeof ACCESS_TABS)[number][0];

export function accessTab(params: URLSearchParams): AccessTab {
  const t = params.get('tab');
  return ACCESS_TABS.some(([v]) => v === t) ? (t as AccessTab) : 'rule-sets';
}

const useStyles = makeStyles({
  // The tabs scroll sideways on a narrow screen rather than widen the page.
  tabs: { overflowX: 'auto', marginBottom: tokens.spacingVerticalL },
  loading: { paddingTop: tokens.spacingVerticalXXL },
});

/**
 * Access Analysis (administrators): the engine's rule sets (upload, versions,
 * activate), each system's access extract (load with progress, what it holds)
 * and analysis runs (start, progress, the list; a run's page shows its conflicts).
 */
export default function AccessAnalysisRoute() {
  return (
    <AdminOnly>
      <AccessAnalysis />
    </AdminOnly>
  );
}

function AccessAnalysis() {
  const styles = useStyles();
  const prepared = useLoaderData() as AccessAnalysisPrepared | null;
  const { queryRef, refetch } = usePreparedQuery<AccessAnalysisRouteQuery>(query, prepared?.query);
  const [params, setParams] = useSearchParams();
  const tab = accessTab(params);
  const loading = <Spinner className={styles.loading} label="Loading access analysis..." />;
  return (
    <>
      <PageHeader title="Access Analysis" subtitle="Rule sets, systems' access data and the conflicts the analysis finds" />
      <TabList
        className={styles.tabs}
        selectedValue={tab}
        onTabSelect={(_, d) => setParams({ tab: String(d.value) }, { replace: true })}
        aria-label="Access Analysis sections"
      >
        {ACCESS_TABS.map(([value, label]) => (
          <Tab key={value} value={value}>
            {label}
          </Tab>
        ))}
      </TabList>
      {queryRef == null ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <Loaded queryRef={queryRef} tab={tab} refetch={refetch} />
        </Suspense>
      )}
    </>
  );
}

function Loaded({ queryRef, tab, refetch }: { queryRef: PreloadedQuery<AccessAnalysisRouteQuery>; tab: AccessTab; refetch: () => void }) {
  const data = usePreloadedQuery<AccessAnalysisRouteQuery>(query, queryRef);
  if (tab === 'systems') return <SystemsPanel query={data} refetch={refetch} />;
  if (tab === 'runs') return <RunsPanel query={data} refetch={refetch} />;
  return <RuleSetsPanel query={data} refetch={refetch} />;
}
