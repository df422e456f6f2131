import { Badge, Caption1, Link, ProgressBar, TableCell, TableRow, Text } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import { useNavigate, type NavigateFunction } from 'react-router';
import type { MouseEvent } from 'react';
import type { RunRow_run$key } from '../../__generated__/RunRow_run.graphql';
import { formatDateTime } from '../../components/format/dates';
import { databaseIdOf } from '../../components/format/globalIds';
import { formatCount } from '../../components/layout/StatTile';
import { AccessProgressLive } from './AccessProgressLive';
import { usePanelStyles } from './panelStyles';

export const RUN_COLUMNS = [
  { label: 'Run' },
  { label: 'Status' },
  { label: 'Conflicts' },
  { label: 'Rows' },
  { label: 'Users' },
  { label: 'Exercised' },
  { label: 'Added' },
  { label: 'Removed' },
] as const;

/** The address of a run's page: its database id (the loader makes the global id again). */
export function runPath(globalId: string): string {
  return `/access-analysis/runs/${databaseIdOf(globalId, 'AccessAnalysis') ?? ''}`;
}

/** A plain click moves within the app; a modified one (new tab, window) is the browser's. */
export function followLink(e: MouseEvent<HTMLElement>, navigate: NavigateFunction, to: string): void {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(to);
}

/** One run: rule set version, systems and date; live progress while it runs; its counts once done. */
export function RunRow({ run, onSettled }: { run: RunRow_run$key; onSettled: () => void }) {
  const styles = usePanelStyles();
  const navigate = useNavigate();
  const r = useFragment(
    graphql`
      fragment RunRow_run on AccessAnalysis {
        id
        status
        progress
        errorMessage
        asOf
        systems
        conflictCount
        rowCount
        userCount
        exercisedCount
        addedCount
        removedCount
        startedAt
        startedBy
        test
        ruleSet {
          name
          version
        }
      }
    `,
    run,
  );
  const done = r.status === 'COMPLETED';
  const count = (n: number) => (done ? formatCount(n) : '—');
  const title = `${r.ruleSet.name} v${r.ruleSet.version}`;
  return (
    <TableRow>
      <TableCell className={styles.cell}>
        <div className={styles.stack}>
          <Link href={runPath(r.id)} onClick={(e) => followLink(e, navigate, runPath(r.id))}>
            {title}
          </Link>
          {r.test ? (
            <Badge appearance="outline" color="informative" className={styles.badge}>
              Test run
            </Badge>
          ) : null}
          <Caption1 as="p" className={styles.muted}>
            {`${r.systems.join(', ')} · as of ${r.asOf} · ${formatDateTime(r.startedAt)}${r.startedBy ? ` by ${r.startedBy}` : ''}`}
          </Caption1>
        </div>
      </TableCell>
      <TableCell className={styles.cell}>
        {r.status === 'PROCESSING' ? (
          <div className={styles.progress}>
            <AccessProgressLive id={r.id} onSettled={onSettled} />
            <ProgressBar value={r.progress} max={100} thickness="large" aria-label={`Analysing ${title}`} aria-valuetext={`${r.progress}%`} />
            <Caption1>{`Running: ${r.progress}%`}</Caption1>
          </div>
        ) : r.status === 'FAILED' ? (
          <div className={styles.failed}>
            <Badge appearance="filled" color="danger">
              Failed
            </Badge>
            <Caption1 as="p" className={styles.error}>
              {r.errorMessage ?? 'The run failed.'}
            </Caption1>
          </div>
        ) : (
          <Badge appearance="filled" color="success">
            Completed
          </Badge>
        )}
      </TableCell>
      <TableCell>
        <Text weight="semibold">{count(r.conflictCount)}</Text>
      </TableCell>
      <TableCell>{count(r.rowCount)}</TableCell>
      <TableCell>{count(r.userCount)}</TableCell>
      <TableCell>{count(r.exercisedCount)}</TableCell>
      <TableCell>{count(r.addedCount)}</TableCell>
      <TableCell>{count(r.removedCount)}</TableCell>
    </TableRow>
  );
}
