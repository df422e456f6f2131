import { Caption1, Card, CardHeader, makeStyles, Spinner, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { lazy, Suspense } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { RunBreakdown_run$data, RunBreakdown_run$key } from '../../../__generated__/RunBreakdown_run.graphql';
import { formatCount } from '../../../components/layout/StatTile';
import { useNearViewport } from '../../../components/lists/useNearViewport';
import type { BreakdownGroup } from './BreakdownChart';
import { BREAKDOWN_GROUPS } from './accessRunLoader';

const BreakdownChart = lazy(() => import('./BreakdownChart').then((m) => ({ default: m.BreakdownChart })));

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 360px), 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
  },
  card: { padding: tokens.spacingHorizontalL, minWidth: 0 },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  chart: { minHeight: '40px', minWidth: 0 },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  item: { display: 'flex', justifyContent: 'space-between', columnGap: tokens.spacingHorizontalM, minWidth: 0 },
  key: { overflowWrap: 'anywhere', minWidth: 0 },
  figure: { flexShrink: 0 },
});

type Dimension = 'byRisk' | 'byProcess' | 'bySystem' | 'byUser';

const DIMENSIONS: ReadonlyArray<{ field: Dimension; title: string; empty: string }> = [
  { field: 'byRisk', title: 'Conflicts by Risk', empty: '(no risk)' },
  { field: 'byProcess', title: 'Conflicts by Business Process', empty: '(no business process)' },
  { field: 'bySystem', title: 'Conflicts by System', empty: '(no system)' },
  { field: 'byUser', title: 'Conflicts by User', empty: '(no user)' },
];

/** One breakdown: the bars (exercised and latent stacked) and the figures in a list beside them. */
function BreakdownCard({ title, groups, empty }: { title: string; groups: readonly BreakdownGroup[]; empty: string }) {
  const styles = useStyles();
  // Below the fold on a phone: the charting code (d3) loads when the card comes near the screen.
  const [chartRef, nearViewport] = useNearViewport<HTMLDivElement>();
  const chartLoading = <Spinner size="small" label="Loading chart..." />;
  const label = (key: string) => key || empty;
  return (
    <Card className={styles.card}>
      <CardHeader
        header={
          <Subtitle2 as="h2" className={styles.title}>
            {title}
          </Subtitle2>
        }
        description={
          <Caption1 className={styles.muted}>
            {groups.length >= BREAKDOWN_GROUPS ? `The ${groups.length} with the most conflicts; exercised in brackets` : 'Exercised in brackets'}
          </Caption1>
        }
      />
      {groups.length === 0 ? (
        <Text className={styles.muted}>No conflicts found.</Text>
      ) : (
        <>
          <div ref={chartRef} className={styles.chart} role="group" aria-label={`${title} chart`}>
            {nearViewport ? (
              <Suspense fallback={chartLoading}>
                <BreakdownChart groups={groups} label={label} />
              </Suspense>
            ) : (
              chartLoading
            )}
          </div>
          <ul className={styles.list} aria-label={title}>
            {groups.map((g) => (
              <li key={g.key} className={styles.item}>
                <Text className={styles.key}>{label(g.key)}</Text>
                <Text className={styles.figure} weight="semibold">
                  {`${formatCount(g.conflicts)} (${formatCount(g.exercised)} exercised)`}
                </Text>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

/** A run's conflicts counted by risk, business process, system and user: the figures people compare, as bars. */
export function RunBreakdown({ run }: { run: RunBreakdown_run$key }) {
  const styles = useStyles();
  const data: RunBreakdown_run$data = useFragment(
    graphql`
      fragment RunBreakdown_run on AccessAnalysis @argumentDefinitions(groups: { type: "Int!" }) {
        byRisk: breakdown(by: RISK, first: $groups) {
          key
          conflicts
          exercised
        }
        byProcess: breakdown(by: BUSINESS_PROCESS, first: $groups) {
          key
          conflicts
          exercised
        }
        bySystem: breakdown(by: SYSTEM, first: $groups) {
          key
          conflicts
          exercised
        }
        byUser: breakdown(by: USER, first: $groups) {
          key
          conflicts
          exercised
        }
      }
    `,
    run,
  );
  return (
    <div className={styles.grid}>
      {DIMENSIONS.map((d) => (
        <BreakdownCard key={d.field} title={d.title} groups={data[d.field]} empty={d.empty} />
      ))}
    </div>
  );
}
