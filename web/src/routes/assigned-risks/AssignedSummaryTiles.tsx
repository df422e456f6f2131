import { makeStyles, tokens } from '@fluentui/react-components';
import { CheckmarkCircle24Regular, ClipboardTaskListLtr24Regular, Clock24Regular, Warning24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { AssignedSummaryTiles_summary$key } from '../../__generated__/AssignedSummaryTiles_summary.graphql';
import { StatTile } from '../../components/layout/StatTile';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
});

export function AssignedSummaryTiles({ summary }: { summary: AssignedSummaryTiles_summary$key }) {
  const styles = useStyles();
  const s = useFragment(
    graphql`
      fragment AssignedSummaryTiles_summary on AssignedSummary {
        totalAssigned
        highRisk
        pendingReview
        reviewed
      }
    `,
    summary,
  );
  return (
    <section className={styles.grid} aria-label="Assigned risk summary">
      <StatTile label="Total Assigned" value={s.totalAssigned} icon={<ClipboardTaskListLtr24Regular />} />
      <StatTile label="High Risk" value={s.highRisk} icon={<Warning24Regular />} tone="danger" />
      <StatTile label="Pending Review" value={s.pendingReview} icon={<Clock24Regular />} tone="warning" />
      <StatTile label="Reviewed" value={s.reviewed} icon={<CheckmarkCircle24Regular />} tone="success" />
    </section>
  );
}
