import { Caption1, Card, CardHeader, makeStyles, Spinner, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { DataPie24Regular } from '@fluentui/react-icons';
import { lazy, Suspense } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { RiskCategoriesCard_query$key } from '../../__generated__/RiskCategoriesCard_query.graphql';
import { useNearViewport } from '../../components/lists/useNearViewport';
import { formatCount } from '../../components/layout/StatTile';

const CategoryChart = lazy(() => import('./DashboardCharts').then((m) => ({ default: m.CategoryChart })));

const useStyles = makeStyles({
  card: { padding: tokens.spacingHorizontalL, minWidth: 0 },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  icon: { color: tokens.colorBrandForeground1 },
  body: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalL },
  chart: { minHeight: '220px', minWidth: '220px' },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, flexGrow: 1 },
  item: { display: 'flex', justifyContent: 'space-between', columnGap: tokens.spacingHorizontalM },
});

/** Percentages of a total, rounded, for the legend. */
export function percentOf(count: number, total: number): string {
  return total ? `${Math.round((count / total) * 100)}%` : '0%';
}

/** SPEC §2 'Risk Categories': the real split (accepted AI categories, the rest 'Uncategorised'), as a chart and a list. */
export function RiskCategoriesCard({ query }: { query: RiskCategoriesCard_query$key }) {
  const styles = useStyles();
  const data = useFragment(
    graphql`
      fragment RiskCategoriesCard_query on Query {
        riskCategories {
          category
          count
        }
      }
    `,
    query,
  );
  // Below the fold on a phone: the charting code (d3) loads when the card comes near the screen.
  const [chartRef, nearViewport] = useNearViewport<HTMLDivElement>();
  const chartLoading = <Spinner size="small" label="Loading chart..." />;
  const total = data.riskCategories.reduce((s, c) => s + c.count, 0);
  return (
    <Card className={styles.card}>
      <CardHeader
        image={<DataPie24Regular className={styles.icon} />}
        header={
          <Subtitle2 as="h2" className={styles.title}>
            Risk Categories
          </Subtitle2>
        }
        description={<Caption1 className={styles.muted}>Conflicts by accepted AI category</Caption1>}
      />
      {total === 0 ? (
        <Text className={styles.muted}>No conflicts loaded yet.</Text>
      ) : (
        <div className={styles.body}>
          <div ref={chartRef} className={styles.chart} role="group" aria-label="Risk categories chart">
            {nearViewport ? (
              <Suspense fallback={chartLoading}>
                <CategoryChart categories={data.riskCategories} width={220} />
              </Suspense>
            ) : (
              chartLoading
            )}
          </div>
          <ul className={styles.list} aria-label="Risk categories">
            {data.riskCategories.map((c) => (
              <li key={c.category} className={styles.item}>
                <Text>{c.category}</Text>
                <Text weight="semibold">
                  {formatCount(c.count)} ({percentOf(c.count, total)})
                </Text>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
