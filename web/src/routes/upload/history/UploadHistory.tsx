import { Caption1, Card, makeStyles, mergeClasses, Spinner, tokens } from '@fluentui/react-components';
import { DocumentSearch24Regular, History20Regular } from '@fluentui/react-icons';
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import type { UploadHistory_query$key } from '../../../__generated__/UploadHistory_query.graphql';
import type { UploadHistoryPaginationQuery } from '../../../__generated__/UploadHistoryPaginationQuery.graphql';
import { ListEmpty, ListTable, LoadMoreFooter } from '../../../components/lists/ListTable';
import { useIsMobile } from '../../../components/layout/useMediaQuery';
import { HISTORY_REFRESH_MS, type UploadMode } from '../uploadClient';
import { UploadCardHeader } from '../UploadCardHeader';
import { UploadDetailsDialog } from './UploadDetailsDialog';
import { UploadHistoryRow, type RetriedUpload } from './UploadHistoryRow';

import { HISTORY_PAGE } from '../uploadLoader';

export { HISTORY_PAGE };

const useStyles = makeStyles({
  card: {
    padding: 0,
    rowGap: 0,
  },
  header: {
    paddingTop: tokens.spacingVerticalL,
    paddingBottom: tokens.spacingVerticalL,
    paddingLeft: tokens.spacingHorizontalXL,
    paddingRight: tokens.spacingHorizontalXL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  refreshing: {
    display: 'inline-flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalXS,
    color: tokens.colorNeutralForeground3,
  },
  table: {
    minWidth: '900px',
    tableLayout: 'fixed',
  },
  recordsColumn: {
    width: '90px',
  },
  statusColumn: {
    width: '115px',
  },
  uploaderColumn: {
    width: '145px',
  },
  dateColumn: {
    width: '160px',
  },
  actionsColumn: {
    width: '195px',
  },
  footer: {
    paddingBottom: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalXL,
    paddingRight: tokens.spacingHorizontalXL,
  },
});

export type CheckingFor = {
  /** The tracked upload's key. */
  key: number;
  name: string;
  /** When the browser started sending it (ms). */
  since: number;
};

export type UploadHistoryProps = {
  query: UploadHistory_query$key;
  /** Changes whenever the history must be fetched again now (a new upload, an upload that ended). */
  refreshSignal: number;
  /** After a client timeout: the file to look for in the history (SPEC §4, the checking state). */
  checkingFor: CheckingFor | null;
  onFound: (key: number, upload: { globalId: string; status: string; mode: UploadMode; size: number }) => void;
  onRetried: (upload: RetriedUpload) => void;
  className?: string;
};

/** Clock differences between browser and server tolerated when matching a timed-out upload. */
const CLOCK_SKEW_MS = 10 * 60_000;

/** SPEC §2 'Data Upload': the Upload History table, refreshed every 5 s while anything is processing. */
export function UploadHistory({ query, refreshSignal, checkingFor, onFound, onRetried, className }: UploadHistoryProps) {
  const { data, hasNext, isLoadingNext, loadNext, refetch } = usePaginationFragment<UploadHistoryPaginationQuery, UploadHistory_query$key>(
    graphql`
      fragment UploadHistory_query on Query
      @argumentDefinitions(count: { type: "Int", defaultValue: 20 }, cursor: { type: "String" })
      @refetchable(queryName: "UploadHistoryPaginationQuery") {
        uploads(first: $count, after: $cursor) @connection(key: "UploadHistory_uploads") {
          edges {
            node {
              id
              originalName
              status
              mode
              sizeBytes
              createdAt
              ...UploadHistoryRow_upload
              ...UploadDetailsDialog_upload
            }
          }
        }
      }
    `,
    query,
  );
  const styles = useStyles();
  const isMobile = useIsMobile();
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const nodes = data.uploads.edges.map((e) => e.node);
  const anyProcessing = nodes.some((n) => n.status === 'PROCESSING');
  const loadedRef = useRef(nodes.length);
  loadedRef.current = nodes.length;

  const refresh = useCallback(() => {
    startTransition(() => {
      refetch({ count: Math.max(HISTORY_PAGE, loadedRef.current) }, { fetchPolicy: 'network-only' });
    });
  }, [refetch]);

  // Fetched again on demand (skipping the first render: the route has just loaded it).
  const firstSignal = useRef(refreshSignal);
  useEffect(() => {
    if (refreshSignal !== firstSignal.current) refresh();
  }, [refresh, refreshSignal]);

  // SPEC §4/§9: every 5 s while any upload is processing (or one is being checked for).
  const polling = anyProcessing || checkingFor != null;
  useEffect(() => {
    if (!polling) return undefined;
    const timer = window.setInterval(refresh, HISTORY_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [polling, refresh]);

  // The checking state ends when the timed-out file shows up in the history.
  useEffect(() => {
    if (!checkingFor) return;
    const match = nodes.find((n) => n.originalName === checkingFor.name && new Date(n.createdAt).getTime() >= checkingFor.since - CLOCK_SKEW_MS);
    if (match) {
      onFound(checkingFor.key, { globalId: match.id, status: match.status, mode: match.mode.toLowerCase() as UploadMode, size: match.sizeBytes });
    }
  }, [checkingFor, nodes, onFound]);

  const open = detailsId ? nodes.find((n) => n.id === detailsId) : undefined;
  const columns = [
    { label: 'File Name' },
    { label: 'Records', className: styles.recordsColumn },
    { label: 'Status', className: styles.statusColumn },
    { label: 'Uploaded By', className: styles.uploaderColumn },
    { label: 'Date', className: styles.dateColumn },
    { label: 'Actions', className: styles.actionsColumn },
  ];

  return (
    <Card className={mergeClasses(styles.card, className)} aria-label="Upload History">
      <UploadCardHeader
        className={styles.header}
        icon={<History20Regular />}
        title="Upload History"
        description="Every file uploaded, newest first"
        action={
          polling ? (
            <span className={styles.refreshing}>
              <Spinner size="extra-tiny" aria-hidden />
              <Caption1>Refreshing every 5 s</Caption1>
            </span>
          ) : undefined
        }
      />
      <ListTable
        label="Upload History"
        className={styles.table}
        columns={columns}
        asList={isMobile}
        empty={
          <ListEmpty icon={<DocumentSearch24Regular aria-hidden />} title="No uploads yet" description="Files you upload are listed here with their status." />
        }
        rows={nodes.map((n) => (
          <UploadHistoryRow key={n.id} compact={isMobile} upload={n} onViewDetails={() => setDetailsId(n.id)} onRetried={onRetried} />
        ))}
      />
      {nodes.length > 0 ? (
        <LoadMoreFooter
          className={styles.footer}
          summary={
            <Caption1>
              Showing {nodes.length} {nodes.length === 1 ? 'upload' : 'uploads'}
            </Caption1>
          }
          hasNext={hasNext}
          isLoadingNext={isLoadingNext}
          onLoadMore={() => loadNext(HISTORY_PAGE)}
          loadMoreLabel="Load more uploads"
        />
      ) : null}
      {open ? <UploadDetailsDialog key={open.id} upload={open} onClose={() => setDetailsId(null)} onRetried={onRetried} /> : null}
    </Card>
  );
}
