import {
  Body1,
  Button,
  Card,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  mergeClasses,
  ProgressBar,
  Spinner,
  Subtitle2,
  Tab,
  Table,
  TableBody,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TableSelectionCell,
  TabList,
  tokens,
} from '@fluentui/react-components';
import {
  Checkmark20Regular,
  ClipboardTaskListLtr24Regular,
  Dismiss20Regular,
  Search20Regular,
  SearchInfo24Regular,
} from '@fluentui/react-icons';
import { Suspense, useMemo, useState } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import type { AssignedRisksQuery } from '../../__generated__/AssignedRisksQuery.graphql';
import { PageHeader } from '../../components/PageHeader';
import { useCursorPaging, type PageEdges } from '../../components/useCursorPaging';
import { useVariablesQuery } from '../../components/useVariablesQuery';
import { useBatchDecisions } from '../../components/useBatchDecisions';
import { Pagination, RISK_PAGE_SIZE } from '../../components/Pagination';
import { formatDate } from '../../components/riskDisplay';
import { useDebounced } from '../../components/useDebounced';
import { DetailedReview } from '../risk-review/DetailedReview';
import { AssignedRiskRow } from './AssignedRiskRow';
import { AssignedSummaryTiles } from './AssignedSummaryTiles';
import { SubmissionPanel } from './SubmissionPanel';


const query = graphql`
  query AssignedRisksQuery($filter: RiskFilterInput, $page: Int, $limit: Int, $after: String, $before: String) {
    activeReviewPeriod {
      id
      name
      endDate
    }
    assignedSummary {
      totalAssigned
      ...AssignedSummaryTiles_summary
    }
    submissionStatus {
      periodActive
      isSubmitted
      ...SubmissionPanel_status
    }
    assignedRisks(filter: $filter, page: $page, limit: $limit, after: $after, before: $before) {
      total
      page
      startCursor
      endCursor
      rows {
        id
        ...AssignedRiskRow_row
      }
    }
  }
`;

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  card: { padding: 0, rowGap: 0 },
  toolbar: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalL,
  },
  search: { flexGrow: 1, minWidth: '220px', maxWidth: '460px' },
  batch: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, marginLeft: 'auto' },
  selectCol: { width: '44px' },
  retain: { color: tokens.colorPaletteGreenForeground1 },
  remove: { color: tokens.colorPaletteRedForeground1 },
  progress: { height: '2px' },
  idle: { visibility: 'hidden' },
  scroll: { overflowX: 'auto', borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  table: { minWidth: '920px' },
  actionsCol: { width: '150px' },
  userCol: { width: '15%' },
  levelCol: { width: '88px' },
  systemCol: { width: '108px' },
  decisionCol: { width: '96px' },
  footer: { borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  loading: { paddingTop: tokens.spacingVerticalXXL, paddingBottom: tokens.spacingVerticalXXL },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: tokens.spacingHorizontalXXL,
    color: tokens.colorNeutralForeground3,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  emptyIcon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '56px',
    height: '56px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
  },
});

/** SPEC §2 'My Assigned Risks': the reviewer's risks, decisions and submission. */
export function AssignedRisks() {
  const styles = useStyles();
  const [search, setSearch] = useState('');
  const { paging, goTo, reset: firstPage } = useCursorPaging();
  const applied = useDebounced(search.trim(), 300);
  const variables = useMemo(
    () => ({ filter: applied ? { search: applied } : {}, ...paging, limit: RISK_PAGE_SIZE }),
    [applied, paging],
  );
  const { queryRef, isPending, refetch } = useVariablesQuery<AssignedRisksQuery>(query, variables);
  const loading = <Spinner className={styles.loading} label="Loading your assigned risks..." />;

  return (
    <>
      <PageHeader title="My Assigned Risks" subtitle="Decide whether each user keeps the access behind a risk, then submit your decisions for approval." />
      {queryRef == null ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <Loaded
            queryRef={queryRef}
            search={search}
            onSearch={(v) => {
              setSearch(v);
              firstPage();
            }}
            onPageChange={goTo}
            busy={isPending}
            onRefetch={refetch}
          />
        </Suspense>
      )}
    </>
  );
}

function Loaded({
  queryRef,
  search,
  onSearch,
  onPageChange,
  busy,
  onRefetch,
}: {
  queryRef: PreloadedQuery<AssignedRisksQuery>;
  search: string;
  onSearch: (value: string) => void;
  onPageChange: (page: number, current: PageEdges) => void;
  busy: boolean;
  onRefetch: () => void;
}) {
  const styles = useStyles();
  const data = usePreloadedQuery<AssignedRisksQuery>(query, queryRef);
  const status = data.submissionStatus;
  const editable = status.periodActive && !status.isSubmitted;
  const rows = data.assignedRisks.rows;
  const period = data.activeReviewPeriod;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const ids = rows.map((r) => r.id);
  const chosen = ids.filter((id) => selected.has(id));
  const allChecked = ids.length > 0 && chosen.length === ids.length;
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  // A new page or search starts with nothing selected.
  const pageKey = `${data.assignedRisks.page}:${ids.join(',')}`;
  const [seenKey, setSeenKey] = useState(pageKey);
  if (seenKey !== pageKey) {
    setSeenKey(pageKey);
    setSelected(new Set());
  }

  const [decide, saving] = useBatchDecisions(() => {
    setSelected(new Set());
    // The tiles and the submission state move with a batch: refetch this page's query.
    onRefetch();
  });
  const decideSelected = (decision: 'retain' | 'remove') => decide(chosen, decision);
  // The same rows as a list, or grouped by user, risk and composite role (decided per role).
  const [view, setView] = useState<'list' | 'roles'>('list');

  return (
    <div className={styles.stack}>
      {!status.periodActive ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Review Period Closed</MessageBarTitle>
            No review period is active. Decisions, submissions and recalls are locked until an administrator opens one.
          </MessageBarBody>
        </MessageBar>
      ) : period ? (
        <Body1>
          Review period <strong>{period.name}</strong>
          {period.endDate ? ` · ends ${formatDate(period.endDate)}` : ''}
        </Body1>
      ) : null}
      <AssignedSummaryTiles summary={data.assignedSummary} />
      {status.periodActive ? <SubmissionPanel status={data.submissionStatus} /> : null}
      {data.assignedSummary.totalAssigned > 0 ? (
        <TabList selectedValue={view} onTabSelect={(_, d) => setView(d.value as 'list' | 'roles')} aria-label="Views of your assigned risks">
          <Tab value="list">Risk List</Tab>
          <Tab value="roles">By Composite Role</Tab>
        </TabList>
      ) : null}
      {view === 'roles' && data.assignedSummary.totalAssigned > 0 ? (
        <DetailedReview locked={!editable} onSaved={onRefetch} />
      ) : (
        <Card className={styles.card}>
          <div className={styles.toolbar} role="search">
            <Input
              className={styles.search}
              contentBefore={<Search20Regular />}
              placeholder="Search users, roles, or descriptions..."
              aria-label="Search assigned risks"
              value={search}
              onChange={(_, d) => onSearch(d.value)}
            />
            <div className={styles.batch} role="toolbar" aria-label="Batch decisions">
              <Button
                size="small"
                icon={saving ? <Spinner size="tiny" /> : <Checkmark20Regular className={styles.retain} />}
                disabled={!editable || saving}
                onClick={() => decideSelected('retain')}
              >
                Retain Selected ({chosen.length})
              </Button>
              <Button
                size="small"
                icon={saving ? <Spinner size="tiny" /> : <Dismiss20Regular className={styles.remove} />}
                disabled={!editable || saving}
                onClick={() => decideSelected('remove')}
              >
                Remove Selected ({chosen.length})
              </Button>
            </div>
          </div>
          <ProgressBar className={mergeClasses(styles.progress, !busy && styles.idle)} aria-label="Loading risks" />
          {data.assignedSummary.totalAssigned === 0 ? (
            <div className={styles.empty}>
              <div className={styles.emptyIcon} aria-hidden>
                <ClipboardTaskListLtr24Regular />
              </div>
              <Subtitle2 as="h2">No Risks Assigned</Subtitle2>
              <Body1>No risks are assigned to you yet. An administrator assigns risks to reviewers.</Body1>
            </div>
          ) : rows.length === 0 ? (
            <div className={styles.empty}>
              <SearchInfo24Regular />
              <Subtitle2 as="h2">No matching risks</Subtitle2>
              <Body1>No assigned risk matches your search.</Body1>
            </div>
          ) : (
            <>
              <div className={styles.scroll}>
                <Table className={styles.table} aria-label="Assigned risks" aria-busy={busy}>
                  <TableHeader>
                    <TableRow>
                      <TableSelectionCell
                        className={styles.selectCol}
                        checked={allChecked ? true : chosen.length > 0 ? 'mixed' : false}
                        onClick={() => setSelected(allChecked ? new Set() : new Set(ids))}
                        checkboxIndicator={{ 'aria-label': 'Select all risks on this page' }}
                      />
                      <TableHeaderCell className={styles.userCol}>User</TableHeaderCell>
                      <TableHeaderCell>Risk ID</TableHeaderCell>
                      <TableHeaderCell className={styles.levelCol}>Risk Level</TableHeaderCell>
                      <TableHeaderCell className={styles.systemCol}>System</TableHeaderCell>
                      <TableHeaderCell>Role Profile</TableHeaderCell>
                      <TableHeaderCell className={styles.decisionCol}>Decision</TableHeaderCell>
                      <TableHeaderCell className={styles.actionsCol}>Actions</TableHeaderCell>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {rows.map((r) => (
                      <AssignedRiskRow key={r.id} row={r} editable={editable} selected={selected.has(r.id)} onToggle={() => toggle(r.id)} />
                    ))}
                  </TableBody>
                </Table>
              </div>
              <Pagination
                className={styles.footer}
                page={data.assignedRisks.page}
                pageSize={RISK_PAGE_SIZE}
                total={data.assignedRisks.total}
                onPageChange={(p) => onPageChange(p, data.assignedRisks)}
                disabled={busy}
              />
            </>
          )}
        </Card>
      )}
    </div>
  );
}
