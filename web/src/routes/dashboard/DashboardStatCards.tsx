import { makeStyles, tokens } from '@fluentui/react-components';
import { AlertUrgent24Regular, Clock24Regular, People24Regular, Warning24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { DashboardStatCards_stats$key } from '../../__generated__/DashboardStatCards_stats.graphql';
import { formatCount, StatTile } from '../../components/layout/StatTile';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(150px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
});

/** SPEC §2: the 'High Risk Users' trend text, from the users whose first high-risk row is recent. */
export function highRiskTrend(newUsers: number): string {
  return newUsers === 0 ? 'No new ones in the last 30 days' : `+${formatCount(newUsers)} new in the last 30 days`;
}

/** SPEC §2: the dashboard's four stat cards. */
export function DashboardStatCards({ stats }: { stats: DashboardStatCards_stats$key }) {
  const styles = useStyles();
  const data = useFragment(
    graphql`
      fragment DashboardStatCards_stats on DashboardStats {
        totalConflicts
        highRiskUsers
        newHighRiskUsers
        pendingReviews
        activeReviewers
      }
    `,
    stats,
  );
  return (
    <section className={styles.grid} aria-label="Key figures">
      <StatTile label="Total Conflicts" value={data.totalConflicts} caption="Active records" icon={<Warning24Regular />} tone="brand" />
      <StatTile
        label="High Risk Users"
        value={data.highRiskUsers}
        caption="Requiring attention"
        trend={highRiskTrend(data.newHighRiskUsers)}
        icon={<AlertUrgent24Regular />}
        tone="danger"
      />
      <StatTile label="Pending Reviews" value={data.pendingReviews} caption="Awaiting decision" icon={<Clock24Regular />} tone="warning" />
      <StatTile label="Active Reviewers" value={data.activeReviewers} caption="Online now" icon={<People24Regular />} tone="success" />
    </section>
  );
}
