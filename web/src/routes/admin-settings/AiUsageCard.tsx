import { Caption1, Card, CardHeader, makeStyles, Text, tokens } from '@fluentui/react-components';
import { DataUsage24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { AiUsageCard_stats$key } from '../../__generated__/AiUsageCard_stats.graphql';
import { UsageChart } from './UsageChart';
import { formatCount } from '../../components/layout/StatTile';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  tiles: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(110px, 1fr))', gap: tokens.spacingHorizontalM, margin: 0 },
  tile: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, margin: 0 },
  label: { color: tokens.colorNeutralForeground3, margin: 0 },
  value: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, fontVariantNumeric: 'tabular-nums', margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** SPEC §2: AI Usage Statistics (last 30 days), with calls and cost per day. */
export function AiUsageCard({ stats }: { stats: AiUsageCard_stats$key }) {
  const styles = useStyles();
  const s = useFragment(
    graphql`
      fragment AiUsageCard_stats on AiUsageStats {
        totalCalls
        successfulCalls
        failedCalls
        totalCost
        totalTokens
        days {
          day
          calls
          failed
          cost
        }
      }
    `,
    stats,
  );
  const tiles: [string, string][] = [
    ['Total Calls', formatCount(s.totalCalls)],
    ['Successful', formatCount(s.successfulCalls)],
    ['Failed', formatCount(s.failedCalls)],
    ['Total Cost', `$${s.totalCost.toFixed(4)}`],
    ['Total Tokens', formatCount(s.totalTokens)],
  ];
  return (
    <Card className={styles.card} aria-label="AI Usage Statistics">
      <CardHeader
        image={<DataUsage24Regular />}
        header={<Text weight="semibold">AI Usage Statistics</Text>}
        description={<Caption1 className={styles.muted}>Last 30 days</Caption1>}
      />
      <dl className={styles.tiles}>
        {tiles.map(([label, value]) => (
          <div key={label} className={styles.tile}>
            <dt className={styles.label}>{label}</dt>
            <dd className={styles.value}>{value}</dd>
          </div>
        ))}
      </dl>
      <UsageChart days={s.days} />
    </Card>
  );
}
