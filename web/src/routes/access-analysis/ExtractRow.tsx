import { Badge, Caption1, ProgressBar, TableCell, TableRow, Text } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { ExtractRow_extract$key } from '../../__generated__/ExtractRow_extract.graphql';
import { formatDateTime } from '../../components/format/dates';
import { relativeTime } from '../../components/format/relativeTime';
import { formatCount } from '../../components/layout/StatTile';
import { AccessProgressLive } from './AccessProgressLive';
import { usePanelStyles } from './panelStyles';

export const EXTRACT_COLUMNS = [
  { label: 'System' },
  { label: 'Status' },
  { label: 'Users' },
  { label: 'Roles' },
  { label: 'Assignments' },
  { label: 'Authorizations' },
  { label: 'Loaded' },
] as const;

/** One extract: live progress while it loads, what it holds once loaded, the reason when it failed. */
export function ExtractRow({ extract, onSettled }: { extract: ExtractRow_extract$key; onSettled: () => void }) {
  const styles = usePanelStyles();
  const x = useFragment(
    graphql`
      fragment ExtractRow_extract on AccessExtract {
        id
        system
        status
        progress
        errorMessage
        current
        fileName
        users
        roles
        assignments
        authorizations
        loadedAt
        loadedBy
        completedAt
        supersededAt
      }
    `,
    extract,
  );
  const loaded = x.status === 'COMPLETED';
  // A loaded extract nothing has replaced is current: a row whose progress event just said 'completed' says so before the list is read again.
  const current = x.current || x.supersededAt == null;
  const count = (n: number) => (loaded ? formatCount(n) : '—');
  return (
    <TableRow>
      <TableCell className={styles.cell}>
        <div className={styles.stack}>
          <Text weight="semibold">{x.system}</Text>
          <Caption1 className={styles.muted}>{x.fileName}</Caption1>
        </div>
      </TableCell>
      <TableCell className={styles.cell}>
        {x.status === 'PROCESSING' ? (
          <div className={styles.progress}>
            <AccessProgressLive id={x.id} onSettled={onSettled} />
            <ProgressBar value={x.progress} max={100} thickness="large" aria-label={`Loading ${x.system}`} aria-valuetext={`${x.progress}%`} />
            <Caption1>{`Loading: ${x.progress}%`}</Caption1>
          </div>
        ) : x.status === 'FAILED' ? (
          <div className={styles.failed}>
            <Badge appearance="filled" color="danger">
              Failed
            </Badge>
            <Caption1 as="p" className={styles.error}>
              {x.errorMessage ?? 'The load failed.'}
            </Caption1>
          </div>
        ) : current ? (
          <Badge appearance="filled" color="success">
            Current
          </Badge>
        ) : (
          <Badge appearance="tint" color="informative" title={x.supersededAt ? `Replaced ${formatDateTime(x.supersededAt)}` : undefined}>
            Replaced
          </Badge>
        )}
      </TableCell>
      <TableCell>{count(x.users)}</TableCell>
      <TableCell>{count(x.roles)}</TableCell>
      <TableCell>{count(x.assignments)}</TableCell>
      <TableCell>{count(x.authorizations)}</TableCell>
      <TableCell>
        <div className={styles.stack}>
          <Text>{formatDateTime(x.completedAt ?? x.loadedAt)}</Text>
          <Caption1 className={styles.muted}>{`${relativeTime(x.completedAt ?? x.loadedAt)}${x.loadedBy ? ` by ${x.loadedBy}` : ''}`}</Caption1>
        </div>
      </TableCell>
    </TableRow>
  );
}
