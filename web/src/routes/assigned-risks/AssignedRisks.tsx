import {
  Body1,
  Button,
  Card,
  makeStyles,
  mergeClasses,
  Spinner,
  Tab,
  Table,
  TableBody,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TabList,
  tokens,
} from '@fluentui/react-components';
import { ClipboardTaskListLtr24Regular, PersonSwap20Regular, SearchInfo24Regular } from '@fluentui/react-icons';
import { Suspense, useEffect, useRef, useState } from 'react';
import { graphql, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import type { CompositeViewQuery } from '../../__generated__/CompositeViewQuery.graphql';
import type { AssignedRisksQuery } from '../../__generated__/AssignedRisksQuery.graphql';
import { EmptyState } from '../../components/layout/EmptyState';
import { PageHeader } from '../../components/layout/PageHeader';
import { ASSIGNED_RISKS_HEADING } from '../../boot/bootFrame';
import { bootScreenShown } from '../../shell/BootFrame';
import { ReviewPeriodClosed } from '../../domain/risks/ReviewPeriodClosed';
import { useReviewPeriodChanged } from '../../domain/risks/useReviewPeriodChanged';
import { BatchDecisionButtons, SelectAllRisksCell, usePageSelection } from '../../domain/risks/riskSelection';
import { LoadingBar, SearchToolbar } from '../../components/lists/SearchToolbar';
import { FIRST_PAGE, pageEdgesOf, pageRequest, type CursorPaging, type PageEdges } from '../../domain/risks/riskPaging';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { Pagination } from '../../components/lists/Pagination';
import { RISK_PAGE_SIZE } from '../../domain/risks/riskPaging';
import { formatDate } from '../../domain/risks/riskDisplay';
import { useDebouncedCallback } from '../../components/forms/useDebouncedCallback';
import { CompositeView } from '../composite-view/CompositeView';
import { compositeViewQuery, compositeViewVariables } from '../composite-view/compositeViewLoader';
import {
  ASSIGNED_ADDRESS_KEYS,
  assignedAddress,
  assignedAddressValues,
  assignedFilter,
  assignedRisksVariables,
  type AssignedView,
} from './assignedRisksLoader';
import { listAddressKey, writeListAddress } from '../../router/listAddress';
import { useSearchParams } from 'react-router';
import { RecommendationControls } from './RecommendationControls';
import { AssignedRiskRow } from './AssignedRiskRow';
import { AssignedSummaryTiles } from './AssignedSummaryTiles';
import { useCardLabels, useCardTableStyles } from '../../components/lists/cardTable';
import { useIsMobile } from '../../components/layout/useMediaQuery';
import { useRowsInSteps } from '../../components/lists/useRowsInSteps';
import { SubmissionPanel } from './SubmissionPanel';
import { useSubmissionChanged } from './useSubmissionChanged';
import { ReassignDialog } from '../../domain/assignments/ReassignDialog';

const query = graphql`
  query AssignedRisksQuery($filter: RiskFilterInput, $page: Int, $first: Int, $after: String, $before: String, $orderBy: RiskSort) {
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
      stage
      ...SubmissionPanel_status
    }
    assignedRisks(filter: $filter, page: $page, first: $first, after: $after, before: $before, orderBy: $orderBy) {
      totalCount
      pageNumber
      pageInfo {
        startCursor
        endCursor
      }
      edges {
        node {
          id
          ...AssignedRiskRow_row
        }
      }
    }
  }
`;

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  card: { padding: 0, rowGap: 0 },
  search: { maxWidth: '460px' },
  batch: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, marginLeft: 'auto' },
  scroll: { overflowX: 'auto', borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  // Fits the content width at 1280 px with the sidebar open (about 950 px): no column off screen.
  table: { minWidth: '940px' },
  actionsCol: { width: '150px' },
  userCol: { width: '12%' },
  levelCol: { width: '80px' },
  systemCol: { width: '88px' },
  roleCol: { width: '150px' },
  // The decision with the recommendation beside it (badge, then its reason on one line).
  decisionCol: { width: '200px' },
  footer: { borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  loading: { paddingTop: tokens.spacingVerticalXXL, paddingBottom: tokens.spacingVerticalXXL },
  empty: { borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
});

/** SPEC §2 'My Assigned Risks': the reviewer's risks, decisions and submission. */
export function AssignedRisks({ prepared }: { prepared: PreloadedQuery<AssignedRisksQuery> | null | undefined }) {
  const styles = useStyles();
  // The search, view and page are in the address (a reload, a link and Back show the same rows).
  const [params, setParams] = useSearchParams();
  const [fromAddress] = useState(() => assignedAddress(params));
  const [search, setSearch] = useState(fromAddress.search);
  // The route's loader prepared the address's page; the current page stays on screen while the next one loads.
  const { queryRef, isPending, load, refetch } = usePreparedQuery<AssignedRisksQuery>(query, prepared);
  // The search and page of the rows loaded last.
  const shown = useRef<{ search: string; paging: CursorPaging; view: AssignedView }>({
    search: fromAddress.search,
    paging: { ...FIRST_PAGE, page: fromAddress.page },
    view: fromAddress.view,
  });
  const show = (nextSearch: string, paging: CursorPaging, view = shown.current.view, address: 'write' | 'keep' = 'write') => {
    shown.current = { search: nextSearch, paging, view };
    load(assignedRisksVariables(nextSearch, paging, view));
    if (address === 'write')
      setParams((p) => writeListAddress(p, ASSIGNED_ADDRESS_KEYS, { values: assignedAddressValues(nextSearch, view), page: paging.page }));
  };
  // Back and Forward: the address names other rows than those shown.
  const wanted = assignedAddress(params);
  const addressKey = listAddressKey(ASSIGNED_ADDRESS_KEYS, { values: assignedAddressValues(wanted.search, wanted.view), page: wanted.page });
  useEffect(() => {
    const { search: s, view: v, paging: p } = shown.current;
    if (addressKey === listAddressKey(ASSIGNED_ADDRESS_KEYS, { values: assignedAddressValues(s, v), page: p.page })) return;
    setSearch(wanted.search);
    show(wanted.search, { ...FIRST_PAGE, page: wanted.page }, wanted.view, 'keep');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [addressKey]);
  const onView = (view: AssignedView) => show(shown.current.search, FIRST_PAGE, view);
  const applySearch = useDebouncedCallback((value: string) => {
    if (value !== shown.current.search) show(value, FIRST_PAGE);
  }, 300);
  const onSearch = (value: string) => {
    setSearch(value);
    // A new search starts again at the first page at once; the search itself applies once typing pauses.
    const { paging } = shown.current;
    if (paging.page !== FIRST_PAGE.page || paging.after || paging.before) show(shown.current.search, FIRST_PAGE, shown.current.view, 'keep');
    applySearch(value.trim());
  };
  const goTo = (page: number, current: PageEdges) => show(shown.current.search, pageRequest(page, current));
  const loading = <Spinner className={styles.loading} label="Loading your assigned risks..." />;
  // The frame's heading (boot/bootFrame.ts) stood in for this screen until now.
  useEffect(bootScreenShown, []);

  return (
    <>
      <PageHeader title={ASSIGNED_RISKS_HEADING.title} subtitle={ASSIGNED_RISKS_HEADING.subtitle} />
      {queryRef == null ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <Loaded
            queryRef={queryRef}
            search={search}
            shownSearch={shown.current.search}
            view={shown.current.view}
            onView={onView}
            onSearch={onSearch}
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
  shownSearch,
  view: listView,
  onView,
  onSearch,
  onPageChange,
  busy,
  onRefetch,
}: {
  queryRef: PreloadedQuery<AssignedRisksQuery>;
  search: string;
  /** The search of the rows on screen (what 'Decide all N matching' decides on). */
  shownSearch: string;
  /** The recommendation filter and order on screen, and how to change them. */
  view: AssignedView;
  onView: (view: AssignedView) => void;
  onSearch: (value: string) => void;
  onPageChange: (page: number, current: PageEdges) => void;
  busy: boolean;
  onRefetch: () => void;
}) {
  const styles = useStyles();
  const data = usePreloadedQuery<AssignedRisksQuery>(query, queryRef);
  const status = data.submissionStatus;
  const editable = status.periodActive && !status.isSubmitted;
  // A period closed or opened meanwhile locks or unlocks the page at once.
  useReviewPeriodChanged(onRefetch);
  // So does the viewer's set submitted, recalled, approved or returned from another page or by an administrator.
  useSubmissionChanged(onRefetch);
  const rows = data.assignedRisks.edges.map((e) => e.node);
  const { selected, setSelected, selection } = usePageSelectionReset(rows, data.assignedRisks.pageNumber);
  const shown = useRowsInSteps(rows);

  // The chosen items handed to another reviewer.
  const [reassigning, setReassigning] = useState(false);
  const onBatchSaved = () => {
    setSelected(new Set());
    // The tiles and the submission state move with a batch: refetch this page's query.
    onRefetch();
  };
  const { view: chosenView, chooseView, compositeRef } = useAssignedViews();
  // The composite view groups stage 1's rows and decisions: a later stage's reviewer works in the list only.
  const laterStage = status.stage > 1;
  const view = laterStage ? 'list' : chosenView;

  return (
    <div className={styles.stack}>
      <PeriodLine periodActive={status.periodActive} period={data.activeReviewPeriod} />
      <AssignedSummaryTiles summary={data.assignedSummary} />
      {reassigning ? (
        <ReassignDialog
          target={{ items: selection.chosen }}
          what={selection.chosen.length === 1 ? '1 selected item' : `${selection.chosen.length} selected items`}
          onClose={() => setReassigning(false)}
          onDone={onBatchSaved}
        />
      ) : null}
      {status.periodActive ? <SubmissionPanel status={data.submissionStatus} /> : null}
      {data.assignedSummary.totalAssigned > 0 && !laterStage ? (
        <TabList selectedValue={view} onTabSelect={(_, d) => chooseView(d.value as 'list' | 'roles')} aria-label="Views of your assigned risks">
          <Tab value="list">Risk List</Tab>
          <Tab value="roles">By Composite Role</Tab>
        </TabList>
      ) : null}
      {view === 'roles' && data.assignedSummary.totalAssigned > 0 ? (
        <CompositeView prepared={compositeRef} locked={!editable} onSaved={onRefetch} />
      ) : (
        <Card className={styles.card}>
          <SearchToolbar
            value={search}
            onSearch={onSearch}
            placeholder="Search users, roles, or descriptions..."
            label="Search assigned risks"
            searchClassName={styles.search}
          >
            <RecommendationControls view={listView} onView={onView} />
            <div className={styles.batch} role="toolbar" aria-label="Batch decisions">
              <BatchDecisionButtons
                chosen={selection.chosen}
                disabled={!editable}
                onSaved={onBatchSaved}
                filter={assignedFilter(shownSearch, listView)}
                total={data.assignedRisks.totalCount}
                stage={status.stage}
              />
              <Button icon={<PersonSwap20Regular />} disabled={selection.chosen.length === 0} onClick={() => setReassigning(true)}>
                Reassign Selected
              </Button>
            </div>
          </SearchToolbar>
          <LoadingBar active={busy} label="Loading risks" />
          {data.assignedSummary.totalAssigned === 0 ? (
            <EmptyState
              className={styles.empty}
              framed
              icon={<ClipboardTaskListLtr24Regular />}
              heading="h2"
              title="No Risks Assigned"
              description="No risks are assigned to you yet. An administrator assigns risks to reviewers."
            />
          ) : rows.length === 0 ? (
            <EmptyState
              className={styles.empty}
              icon={<SearchInfo24Regular />}
              heading="h2"
              title="No matching risks"
              description="No assigned risk matches your search."
            />
          ) : (
            <RiskTable
              risks={data.assignedRisks}
              shown={shown}
              editable={editable}
              selected={selected}
              selection={selection}
              busy={busy}
              onPageChange={onPageChange}
            />
          )}
        </Card>
      )}
    </div>
  );
}

type Data = AssignedRisksQuery['response'];
type Row = Data['assignedRisks']['edges'][number]['node'];

/** The rows selected on the page on screen: a new page or search starts with nothing selected. */
function usePageSelectionReset(rows: readonly Row[], pageNumber: number) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const ids = rows.map((r) => r.id);
  const selection = usePageSelection(ids, selected, setSelected);
  const pageKey = `${pageNumber}:${ids.join(',')}`;
  const [seenKey, setSeenKey] = useState(pageKey);
  if (seenKey !== pageKey) {
    setSeenKey(pageKey);
    setSelected(new Set());
  }
  return { selected, setSelected, selection };
}

/**
 * The same rows as a list, or grouped by user, risk and composite role (decided per role):
 * choosing 'By Composite Role' prepares the composite view's query.
 */
function useAssignedViews() {
  const [view, setView] = useState<'list' | 'roles'>('list');
  const [compositeRef, loadComposite] = useQueryLoader<CompositeViewQuery>(compositeViewQuery);
  const chooseView = (next: 'list' | 'roles') => {
    if (next === 'roles' && next !== view) loadComposite(compositeViewVariables(''), { fetchPolicy: 'store-and-network' });
    setView(next);
  };
  return { view, chooseView, compositeRef };
}

function PeriodLine({ periodActive, period }: { periodActive: boolean; period: Data['activeReviewPeriod'] }) {
  if (!periodActive) {
    return <ReviewPeriodClosed>No review period is active. Decisions, submissions and recalls are locked until an administrator opens one.</ReviewPeriodClosed>;
  }
  return period ? (
    <Body1>
      Review period <strong>{period.name}</strong>
      {period.endDate ? ` · ends ${formatDate(period.endDate)}` : ''}
    </Body1>
  ) : null;
}

/** The page's rows (cards on a phone), shown in steps, and the pages. */
function RiskTable({
  risks,
  shown,
  editable,
  selected,
  selection,
  busy,
  onPageChange,
}: {
  risks: Data['assignedRisks'];
  /** The page's rows shown so far (useRowsInSteps). */
  shown: readonly Row[];
  editable: boolean;
  selected: ReadonlySet<string>;
  selection: ReturnType<typeof usePageSelection>;
  busy: boolean;
  onPageChange: (page: number, current: PageEdges) => void;
}) {
  const styles = useStyles();
  // Cards on a phone.
  const cards = useCardTableStyles();
  const isMobile = useIsMobile();
  const tableRef = useRef<HTMLTableElement>(null);
  useCardLabels(tableRef, isMobile);
  return (
    <>
      <div className={styles.scroll}>
        <Table ref={tableRef} className={mergeClasses(styles.table, isMobile && cards.cards)} aria-label="Assigned risks" aria-busy={busy}>
          <TableHeader>
            <TableRow>
              <SelectAllRisksCell selection={selection} />
              <TableHeaderCell className={styles.userCol}>User</TableHeaderCell>
              <TableHeaderCell>Risk ID</TableHeaderCell>
              <TableHeaderCell className={styles.levelCol}>Risk Level</TableHeaderCell>
              <TableHeaderCell className={styles.systemCol}>System</TableHeaderCell>
              <TableHeaderCell className={styles.roleCol}>Role Profile</TableHeaderCell>
              <TableHeaderCell className={styles.decisionCol}>Decision</TableHeaderCell>
              <TableHeaderCell className={styles.actionsCol}>Actions</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.map((r) => (
              <AssignedRiskRow key={r.id} row={r} editable={editable} selected={selected.has(r.id)} onToggle={() => selection.toggle(r.id)} />
            ))}
          </TableBody>
        </Table>
      </div>
      <Pagination
        className={styles.footer}
        page={risks.pageNumber}
        pageSize={RISK_PAGE_SIZE}
        total={risks.totalCount}
        onPageChange={(p) => onPageChange(p, pageEdgesOf(risks))}
        disabled={busy}
      />
    </>
  );
}
