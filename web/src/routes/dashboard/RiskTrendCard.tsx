import { Caption1, Card, CardHeader, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { ChartMultiple24Regular } from '@fluentui/react-icons';
import { lazy, Suspense, useEffect, useRef, useState, useTransition } from 'react';
import { graphql, useRefetchableFragment } from 'react-relay';
import type { RiskTrendCard_query$key } from '../../__generated__/RiskTrendCard_query.graphql';
import type { RiskTrendCardRefetchQuery, TrendRange } from '../../__generated__/RiskTrendCardRefetchQuery.graphql';
import { NativeSelect } from '../../components/forms/NativeSelect';
import { useNearViewport } from '../../components/lists/useNearViewport';
import { formatCount } from '../../components/layout/StatTile';

const TrendChart = lazy(() => import('./DashboardCharts').then((m) => ({ default: m.TrendChart })));

/** SPEC §2: the trend chart's period selector. */
export const TREND_RANGES: { value: TrendRange; label: string }[] = [
  { value: 'LAST_30_DAYS', label: 'Last 30 days' },
  { value: 'LAST_90_DAYS', label: 'Last 90 days' },
  { value: 'LAST_6_MONTHS', label: 'Last 6 months' },
];

const useStyles = makeStyles({
  card: { padding: tokens.spacingHorizontalL, minWidth: 0 },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  icon: { color: tokens.colorBrandForeground1 },
  chart: { minHeight: '270px', minWidth: 0, overflowX: 'hidden' },
  summary: { color: tokens.colorNeutralForeground2 },
});

/** The risk trend (loaded, retained, removed, pending over the chosen period); refetched when `version` moves. */
export function RiskTrendCard({ query, version }: { query: RiskTrendCard_query$key; version: number }) {
  const styles = useStyles();
  const [data, refetch] = useRefetchableFragment<RiskTrendCardRefetchQuery, RiskTrendCard_query$key>(
    graphql`
      fragment RiskTrendCard_query on Query
      @argumentDefinitions(range: { type: "TrendRange", defaultValue: LAST_30_DAYS })
      @refetchable(queryName: "RiskTrendCardRefetchQuery") {
        dashboardTrend(range: $range) {
          date
          loaded
          retained
          removed
          pending
        }
      }
    `,
    query,
  );
  const [range, setRange] = useState<TrendRange>('LAST_30_DAYS');
  const [isPending, startTransition] = useTransition();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    startTransition(() => {
      refetch({ range }, { fetchPolicy: 'network-only' });
    });
    // The range is applied by choose(); only a new version refetches here.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- range and refetch are read as they are when the version changes
  }, [version]);
  const choose = (next: TrendRange) => {
    setRange(next);
    startTransition(() => {
      refetch({ range: next }, { fetchPolicy: 'store-or-network' });
    });
  };
  // Below the fold on a phone: the charting code (d3) loads when the card comes near the screen.
  const [chartRef, nearViewport] = useNearViewport<HTMLDivElement>();
  const chartLoading = <Spinner size="small" label="Loading chart..." />;
  const last = data.dashboardTrend[data.dashboardTrend.length - 1];
  const label = TREND_RANGES.find((r) => r.value === range)!.label;
  return (
    <Card className={styles.card}>
      <CardHeader
        image={<ChartMultiple24Regular className={styles.icon} />}
        header={
          <Subtitle2 as="h2" className={styles.title}>
            Risk Trends
          </Subtitle2>
        }
        description={<Caption1 className={styles.muted}>Conflicts loaded and decided over time</Caption1>}
        action={
          // Fluent's Select as drawn, without its chunk in the dashboard's first load (components/NativeSelect.tsx).
          <NativeSelect aria-label="Trend period" value={range} disabled={isPending} onChange={(value) => choose(value as TrendRange)}>
            {TREND_RANGES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </NativeSelect>
        }
      />
      <div ref={chartRef} className={styles.chart} role="figure" aria-label={`Risk trend, ${label}`}>
        {nearViewport ? (
          <Suspense fallback={chartLoading}>
            <TrendChart points={data.dashboardTrend} title={`Risk trend, ${label}`} />
          </Suspense>
        ) : (
          chartLoading
        )}
      </div>
      {last ? (
        <Caption1 className={styles.summary} aria-live="polite" data-testid="trend-summary">
          Today: {formatCount(last.loaded)} loaded, {formatCount(last.retained)} retained, {formatCount(last.removed)} removed, {formatCount(last.pending)}{' '}
          pending
        </Caption1>
      ) : null}
    </Card>
  );
}
