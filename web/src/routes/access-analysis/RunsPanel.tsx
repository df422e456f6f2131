import { Card, Subtitle2 } from '@fluentui/react-components';
import { DataHistogram24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { RunsPanel_query$key } from '../../__generated__/RunsPanel_query.graphql';
import { ListEmpty, ListTable } from '../../components/lists/ListTable';
import { useIsMobile } from '../../components/layout/useMediaQuery';
import { usePanelStyles } from './panelStyles';
import { RunRow, RUN_COLUMNS } from './RunRow';
import { StartRunForm } from './StartRunForm';

/** Analysis runs: start one, and every run, newest first, with its counts (live while it runs). */
export function RunsPanel({ query, refetch }: { query: RunsPanel_query$key; refetch: () => void }) {
  const styles = usePanelStyles();
  const isMobile = useIsMobile();
  const data = useFragment(
    graphql`
      fragment RunsPanel_query on Query @argumentDefinitions(count: { type: "Int!" }) {
        ...StartRunForm_query @arguments(count: $count)
        accessAnalyses(first: $count) {
          edges {
            node {
              id
              ...RunRow_run
            }
          }
        }
      }
    `,
    query,
  );
  const runs = data.accessAnalyses.edges.map((e) => e.node);
  return (
    <section className={styles.panel} aria-label="Analysis Runs">
      <StartRunForm query={data} onStarted={refetch} />
      <Card className={styles.listCard}>
        <Subtitle2 as="h2" className={styles.listHeader}>
          Runs
        </Subtitle2>
        <ListTable
          label="Analysis runs"
          columns={RUN_COLUMNS}
          asCards={isMobile}
          emptyAlone
          rows={runs.map((r) => (
            <RunRow key={r.id} run={r} onSettled={refetch} />
          ))}
          empty={
            <ListEmpty
              icon={<DataHistogram24Regular />}
              title="No analysis runs yet"
              description="Start a run to find the conflicts in the loaded system data."
            />
          }
        />
      </Card>
    </section>
  );
}
