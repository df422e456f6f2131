import { Badge, Button, Caption1, makeStyles, mergeClasses, Spinner, TableCell, TableCellLayout, TableRow, Text, tokens } from '@fluentui/react-components';
import {
  ArrowClockwise16Regular,
  CheckmarkCircle12Filled,
  Clock12Regular,
  DismissCircle12Filled,
  DocumentTable20Regular,
  Info16Regular,
  Warning12Filled,
} from '@fluentui/react-icons';
import { useCallback } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { UploadHistoryRow_upload$key } from '../../../__generated__/UploadHistoryRow_upload.graphql';
import type { UploadHistoryRowRetryMutation } from '../../../__generated__/UploadHistoryRowRetryMutation.graphql';
import { relativeTime } from '../../../components/format/relativeTime';
import { fullDateTime } from '../../../components/format/dates';
import { thrownMessage } from '../../../components/forms/mutationResult';
import { useNotify } from '../../../components/forms/toast';
import { formatBytes, formatNumber, type UploadMode } from '../uploadClient';
import { UploadProgressLive } from '../status/UploadProgressLive';

const useStyles = makeStyles({
  name: {
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground1,
    overflowWrap: 'anywhere',
  },
  icon: {
    color: tokens.colorBrandForeground1,
  },
  muted: {
    color: tokens.colorNeutralForeground3,
  },
  number: {
    fontVariantNumeric: 'tabular-nums',
  },
  records: {
    display: 'flex',
    flexDirection: 'column',
  },
  stack: {
    display: 'flex',
    flexDirection: 'column',
    minWidth: 0,
  },
  ellipsis: {
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  nowrap: {
    whiteSpace: 'nowrap',
  },
  item: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalM,
    paddingBottom: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  itemTop: {
    display: 'flex',
    alignItems: 'flex-start',
    columnGap: tokens.spacingHorizontalS,
  },
  itemText: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    flexGrow: 1,
    minWidth: 0,
  },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalXS,
    rowGap: tokens.spacingVerticalXXS,
  },
});

const retryMutation = graphql`
  mutation UploadHistoryRowRetryMutation($id: ID!) {
    retryUpload(id: $id) {
      __typename
      ... on MutationRetryUploadSuccess {
        data {
          id
          status
          errorMessage
          rowsProcessed
          bytesProcessed
          duplicatesSkipped
          recordCount
          completedAt
          live
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

export type RetriedUpload = { globalId: string; name: string; size: number; mode: UploadMode };

/**
 * Retry of a failed upload (ARCHITECTURE 'Beyond the spec'): re-runs it from
 * its stored file, with a toast either way; the row turns 'Processing' from
 * the mutation's result.
 */
export function useRetryUpload(onRetried: (upload: RetriedUpload) => void): [(upload: RetriedUpload) => void, boolean] {
  const notify = useNotify();
  const [commit, inFlight] = useMutation<UploadHistoryRowRetryMutation>(retryMutation);
  const retry = useCallback(
    (upload: RetriedUpload) => {
      const fail = (message?: string) => notify({ title: 'Retry Failed', description: message || 'Failed to retry the upload', intent: 'error' });
      commit({
        variables: { id: upload.globalId },
        onCompleted: ({ retryUpload: result }) => {
          if (result.__typename === 'MutationRetryUploadSuccess') {
            notify({
              title: 'Retry Started',
              description: `${upload.name} has been queued for processing again`,
              intent: 'success',
            });
            onRetried(upload);
          } else {
            fail('message' in result ? result.message : undefined);
          }
        },
        onError: (error) => fail(thrownMessage(error)),
      });
    },
    [commit, notify, onRetried],
  );
  return [retry, inFlight];
}

/** 'Queued': accepted, waiting for one of the ingestion slots shared by all servers (not started yet). */
export function isQueued(u: { status: string; startedAt?: unknown }): boolean {
  return u.status === 'PROCESSING' && u.startedAt == null;
}

export function StatusBadge({ status, warnings = 0, queued = false }: { status: string; warnings?: number; queued?: boolean }) {
  if (queued) {
    return (
      <Badge appearance="tint" color="warning" icon={<Clock12Regular />}>
        Queued
      </Badge>
    );
  }
  if (status === 'COMPLETED' && warnings > 0) {
    return (
      <Badge appearance="tint" color="warning" icon={<Warning12Filled />}>
        Completed with warnings
      </Badge>
    );
  }
  if (status === 'COMPLETED') {
    return (
      <Badge appearance="tint" color="success" icon={<CheckmarkCircle12Filled />}>
        Completed
      </Badge>
    );
  }
  if (status === 'FAILED') {
    return (
      <Badge appearance="tint" color="danger" icon={<DismissCircle12Filled />}>
        Failed
      </Badge>
    );
  }
  return (
    <Badge appearance="tint" color="informative" icon={<Spinner size="extra-tiny" />}>
      Processing
    </Badge>
  );
}

export function uploaderName(u: { firstName: string; lastName: string; email: string } | null | undefined): string {
  if (!u) return 'Unknown';
  const name = `${u.firstName} ${u.lastName}`.trim();
  return name || u.email;
}

export type UploadHistoryRowProps = {
  upload: UploadHistoryRow_upload$key;
  /** A list item for narrow screens instead of a table row. */
  compact?: boolean;
  onViewDetails: () => void;
  onRetried: (upload: RetriedUpload) => void;
};

/** One row of the Upload History table (SPEC §2). */
export function UploadHistoryRow({ upload, compact = false, onViewDetails, onRetried }: UploadHistoryRowProps) {
  const u = useFragment(
    graphql`
      fragment UploadHistoryRow_upload on DataUpload {
        id
        originalName
        sizeBytes
        mode
        status
        warnings
        recordCount
        rowsProcessed
        createdAt
        startedAt
        uploadedBy {
          firstName
          lastName
          email
        }
      }
    `,
    upload,
  );
  const styles = useStyles();
  const [retry, retrying] = useRetryUpload(onRetried);

  const records =
    u.status === 'COMPLETED' ? (
      <Text className={styles.number}>{formatNumber(u.recordCount)}</Text>
    ) : u.status === 'PROCESSING' ? (
      <span className={styles.records}>
        <Text className={styles.number}>{formatNumber(u.rowsProcessed)}</Text>
        <Caption1 className={styles.muted}>so far</Caption1>
      </span>
    ) : (
      <Text className={styles.muted}>—</Text>
    );
  const actions = (
    <div className={styles.actions}>
      <Button size="small" appearance="subtle" icon={<Info16Regular />} onClick={onViewDetails}>
        View Details
      </Button>
      {u.status === 'FAILED' ? (
        <Button
          size="small"
          appearance="subtle"
          icon={retrying ? <Spinner size="extra-tiny" /> : <ArrowClockwise16Regular />}
          disabled={retrying}
          onClick={() => retry({ globalId: u.id, name: u.originalName, size: u.sizeBytes, mode: u.mode.toLowerCase() as UploadMode })}
        >
          Retry
        </Button>
      ) : null}
      {u.status === 'PROCESSING' ? <UploadProgressLive globalId={u.id} /> : null}
    </div>
  );
  const date = (
    <time dateTime={u.createdAt} title={relativeTime(u.createdAt)}>
      {fullDateTime(u.createdAt)}
    </time>
  );

  if (compact) {
    return (
      <li className={styles.item}>
        <div className={styles.itemTop}>
          <DocumentTable20Regular className={styles.icon} aria-hidden />
          <div className={styles.itemText}>
            <Text className={styles.name}>{u.originalName}</Text>
            <Caption1 className={styles.muted}>
              {formatBytes(u.sizeBytes)} ·{' '}
              {u.status === 'COMPLETED'
                ? `${formatNumber(u.recordCount)} records`
                : u.status === 'PROCESSING'
                  ? `${formatNumber(u.rowsProcessed)} records so far`
                  : 'No records'}
            </Caption1>
            <Caption1 className={styles.muted}>
              {uploaderName(u.uploadedBy)} · {date}
            </Caption1>
          </div>
          <StatusBadge status={u.status} warnings={u.warnings.length} queued={isQueued(u)} />
        </div>
        {actions}
      </li>
    );
  }

  return (
    <TableRow>
      <TableCell>
        <TableCellLayout
          truncate
          media={<DocumentTable20Regular className={styles.icon} aria-hidden />}
          description={<Caption1 className={styles.muted}>{formatBytes(u.sizeBytes)}</Caption1>}
        >
          <Text className={mergeClasses(styles.name, styles.ellipsis)} title={u.originalName}>
            {u.originalName}
          </Text>
        </TableCellLayout>
      </TableCell>
      <TableCell>{records}</TableCell>
      <TableCell>
        <StatusBadge status={u.status} warnings={u.warnings.length} queued={isQueued(u)} />
      </TableCell>
      <TableCell>
        <div className={styles.stack}>
          <Text className={styles.ellipsis}>{uploaderName(u.uploadedBy)}</Text>
          {u.uploadedBy ? (
            <Caption1 className={mergeClasses(styles.muted, styles.ellipsis)} title={u.uploadedBy.email}>
              {u.uploadedBy.email}
            </Caption1>
          ) : null}
        </div>
      </TableCell>
      <TableCell>
        <div className={styles.stack}>
          <Text className={styles.nowrap}>{date}</Text>
          <Caption1 className={styles.muted}>{relativeTime(u.createdAt)}</Caption1>
        </div>
      </TableCell>
      <TableCell>{actions}</TableCell>
    </TableRow>
  );
}
