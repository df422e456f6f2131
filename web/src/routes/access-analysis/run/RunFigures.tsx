import { makeStyles, tokens } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { RunFigures_run$key } from '../../../__generated__/RunFigures_run.graphql';
import { StatTile } from '../../../components/layout/StatTile';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 150px), 1fr))',
    gap: tokens.spacingHorizontalM,
  },
});

/** A run's counts: conflicts, rows, users, exercised and latent, and what changed against the previous run of its rule set version (of a test run: what it would add and remove against the active version). */
export function RunFigures({ run }: { run: RunFigures_run$key }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment RunFigures_run on AccessAnalysis {
        status
        test
        conflictCount
        rowCount
        userCount
        exercisedCount
        addedCount
        removedCount
        recomputedUsers
        baseRunId
      }
    `,
    run,
  );
  if (r.status !== 'COMPLETED') return null;
  return (
    <div className={styles.grid}>
      <StatTile label="Conflicts" value={r.conflictCount} caption="(user, risk) pairs" />
      <StatTile label="Users" value={r.userCount} caption="with a conflict" tone="warning" />
      <StatTile label="Exercised" value={r.exercisedCount} caption="used, per USAGE" tone="danger" />
      <StatTile label="Latent" value={r.conflictCount - r.exercisedCount} caption="held, never run" tone="neutral" />
      <StatTile label="Rows" value={r.rowCount} caption="lines of the CSV" tone="neutral" />
      {r.recomputedUsers != null && (
        <StatTile
          label="Recomputed"
          value={r.recomputedUsers}
          caption={r.baseRunId ? 'users a new extract touched; the rest copied' : 'users: a full analysis'}
          tone="neutral"
        />
      )}
      {r.test ? (
        <>
          <StatTile label="Would Add" value={r.addedCount} caption="against the active version" tone="warning" />
          <StatTile label="Would Remove" value={r.removedCount} caption="against the active version" tone="success" />
        </>
      ) : (
        <>
          <StatTile label="Added" value={r.addedCount} caption="since the previous run" tone="warning" />
          <StatTile label="Removed" value={r.removedCount} caption="since the previous run" tone="success" />
        </>
      )}
    </div>
  );
}
