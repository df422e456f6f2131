import { Badge, Button, Card, Field, Input, makeStyles, Select, Spinner, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, Dismiss16Regular, Filter20Regular } from '@fluentui/react-icons';
import { Suspense, useEffect, useRef, useState } from 'react';
import { graphql, usePreloadedQuery, useRelayEnvironment, type PreloadedQuery } from 'react-relay';
import { fetchQuery } from 'relay-runtime';
import type { RiskQueueValuesQuery } from '../../__generated__/RiskQueueValuesQuery.graphql';
import { SearchCombobox, type OptionLookup } from '../../components/lists/SearchCombobox';
import type { RiskFilterInput, RiskQueueQuery } from '../../__generated__/RiskQueueQuery.graphql';
import { downloadCsv, fileStamp } from '../../components/format/download';
import { ReviewPeriodClosed } from '../../domain/risks/ReviewPeriodClosed';
import { bootScreenShown, bootVariant } from '../../shell/BootFrame';
import { LoadingBar, SearchToolbar } from '../../components/lists/SearchToolbar';
import { useNotify } from '../../components/forms/toast';
import { useDebouncedCallback } from '../../components/forms/useDebouncedCallback';
import { FIRST_PAGE, pageEdgesOf, pageRequest, type CursorPaging, type PageEdges } from '../../domain/risks/riskPaging';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { riskExportUrl } from './riskExport';
import { RiskQueueResults } from './RiskQueueResults';
import { riskQueueVariables, toFilterInput, type QueueFilters } from './riskReviewLoader';
import { QUEUE_FILTER_KEYS, queueAddress } from './riskQueueAddress';
import { listAddressKey, writeListAddress } from '../../router/listAddress';
import { useSearchParams } from 'react-router';

// The System, User Group and Role/Profile filters search as you
// type, on the server (a thousand role names are not sent whole).
const valuesQuery = graphql`
  query RiskQueueValuesQuery($criteriaType: CriteriaType!, $search: String, $limit: Int!) {
    assignmentValues(criteriaType: $criteriaType, search: $search, limit: $limit) {
      value
      label
    }
  }
`;
const VALUE_LOOKUP_SIZE = 20;

function useValueLookup(criteriaType: RiskQueueValuesQuery['variables']['criteriaType']): OptionLookup {
  const environment = useRelayEnvironment();
  return (search, done) =>
    fetchQuery<RiskQueueValuesQuery>(
      environment,
      valuesQuery,
      { criteriaType, search: search || null, limit: VALUE_LOOKUP_SIZE },
      { fetchPolicy: 'network-only' },
    ).subscribe({
      next: (d) => done(d.assignmentValues),
      error: () => done([]),
    });
}

export const riskQueueQuery = graphql`
  query RiskQueueQuery($filter: RiskFilterInput, $page: Int, $first: Int, $after: String, $before: String) {
    activeReviewPeriod {
      id
      name
    }
    riskQueue(filter: $filter, page: $page, first: $first, after: $after, before: $before) {
      totalCount
      pageNumber
      pageInfo {
        startCursor
        endCursor
      }
      edges {
        node {
          id
          ...RiskQueueRow_row
        }
      }
    }
  }
`;

const ADVANCED_KEYS = ['userGroup', 'roleProfile', 'compositeRole', 'ruleId', 'decision'] as const;

const useStyles = makeStyles({
  card: { padding: 0, rowGap: 0 },
  select: { minWidth: '150px' },
  toolbarEnd: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, marginLeft: 'auto' },
  advanced: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 190px), 1fr))',
    gap: tokens.spacingHorizontalM,
    alignItems: 'end',
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
    paddingBottom: tokens.spacingVerticalL,
    paddingTop: tokens.spacingVerticalM,
    backgroundColor: tokens.colorNeutralBackground2,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  field: { minWidth: 0 },
  divider: { borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  loading: { paddingTop: tokens.spacingVerticalXXL, paddingBottom: tokens.spacingVerticalXXL },
  banner: { marginBottom: tokens.spacingVerticalL },
});

/** SPEC §2: the administrators' review queue (Risk Overview). */
export function RiskQueue({ prepared }: { prepared: PreloadedQuery<RiskQueueQuery> | null | undefined }) {
  const styles = useStyles();
  const queue = useQueueAddress(prepared);
  const { filters, update, selected, setSelected, queryRef, isPending, refetch } = queue;
  const [showAdvanced, setShowAdvanced] = useState(false);
  const advancedCount = ADVANCED_KEYS.filter((k) => filters[k].trim()).length;

  // On a first load the server framed with the period notice (no period active when the page was
  // sent), the notice stays in its place while the first page arrives, instead of a blink.
  const loading = (
    <>
      {bootVariant() === 'admin-closed' ? <ReviewPeriodClosed className={styles.banner} /> : null}
      <Spinner className={styles.loading} label="Loading risks..." />
    </>
  );

  return (
    <Card className={styles.card}>
      <QueueToolbar
        filters={filters}
        update={update}
        showAdvanced={showAdvanced}
        onToggleAdvanced={() => setShowAdvanced((s) => !s)}
        advancedCount={advancedCount}
      />
      {showAdvanced ? <AdvancedFilters filters={filters} update={update} advancedCount={advancedCount} /> : null}
      <LoadingBar active={isPending} label="Loading risks" />
      <div className={styles.divider}>
        {queryRef == null ? (
          loading
        ) : (
          <Suspense fallback={loading}>
            <LoadedQueue
              queryRef={queryRef}
              onPageChange={queue.goTo}
              selected={selected}
              onSelectedChange={setSelected}
              onBatchSaved={refetch}
              busy={isPending}
              filter={toFilterInput(queue.shown.current.filters)}
            />
          </Suspense>
        )}
      </div>
    </Card>
  );
}

/**
 * The queue's filters and page, kept in the address (a reload, a link and Back
 * show the same rows): the page loaded for them, the rows selected on it.
 */
function useQueueAddress(prepared: PreloadedQuery<RiskQueueQuery> | null | undefined) {
  // The filters and page are in the address (a reload, a link and Back show the same rows).
  const [params, setParams] = useSearchParams();
  const [fromAddress] = useState(() => queueAddress(params));
  const [filters, setFilters] = useState<QueueFilters>(fromAddress.filters);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // The route's loader prepared the address's page.
  // The current page stays on screen while the next one loads.
  const { queryRef, isPending, load, refetch } = usePreparedQuery<RiskQueueQuery>(riskQueueQuery, prepared);

  // The filters and page of the results loaded last.
  const shown = useRef<{ filters: QueueFilters; paging: CursorPaging }>({ filters: fromAddress.filters, paging: { ...FIRST_PAGE, page: fromAddress.page } });
  const show = (nextFilters: QueueFilters, paging: CursorPaging, address: 'write' | 'keep' = 'write') => {
    shown.current = { filters: nextFilters, paging };
    // A new page or filter starts with nothing selected.
    setSelected(new Set());
    load(riskQueueVariables(nextFilters, paging));
    if (address === 'write') setParams((p) => writeListAddress(p, QUEUE_FILTER_KEYS, { values: nextFilters, page: paging.page }));
  };
  // Back and Forward: the address names other rows than those shown.
  const wanted = queueAddress(params);
  const addressKey = listAddressKey(QUEUE_FILTER_KEYS, { values: wanted.filters, page: wanted.page });
  useEffect(() => {
    if (addressKey === listAddressKey(QUEUE_FILTER_KEYS, { values: shown.current.filters, page: shown.current.paging.page })) return;
    setFilters(wanted.filters);
    show(wanted.filters, { ...FIRST_PAGE, page: wanted.page }, 'keep');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [addressKey]);
  const applyFilters = useDebouncedCallback((next: QueueFilters) => show(next, FIRST_PAGE), 300);
  const goTo = (page: number, current: PageEdges) => show(shown.current.filters, pageRequest(page, current));

  const update = (patch: Partial<QueueFilters>) => {
    const next = { ...filters, ...patch };
    setFilters(next);
    // A changed filter starts again at the first page at once; the filter itself applies once typing pauses.
    if (shown.current.paging.page !== FIRST_PAGE.page || shown.current.paging.after || shown.current.paging.before) {
      // Not an address of its own: the filter's (page 1) is written once typing pauses.
      show(shown.current.filters, FIRST_PAGE, 'keep');
    }
    applyFilters(next);
  };

  return { filters, update, goTo, shown, selected, setSelected, queryRef, isPending, refetch };
}

/** 'Export Results': the rows the filters match, as a CSV file. */
function useQueueExport(filters: QueueFilters) {
  const notify = useNotify();
  const [exporting, setExporting] = useState(false);
  const exportResults = async () => {
    setExporting(true);
    try {
      await downloadCsv(riskExportUrl(toFilterInput(filters) as Record<string, string>), `risk-export-${fileStamp()}.csv`);
      notify({ title: 'Export Complete', description: 'The filtered risks have been downloaded as a CSV file.', intent: 'success' });
    } catch (e) {
      notify({ title: 'Export Failed', description: (e as Error).message || 'Failed to download risk report', intent: 'error' });
    } finally {
      setExporting(false);
    }
  };

  return { exporting, exportResults };
}

type FilterProps = { filters: QueueFilters; update: (patch: Partial<QueueFilters>) => void };

/** Search, risk level, system, the advanced filters' toggle and 'Export Results'. */
function QueueToolbar({
  filters,
  update,
  showAdvanced,
  onToggleAdvanced,
  advancedCount,
}: FilterProps & { showAdvanced: boolean; onToggleAdvanced: () => void; advancedCount: number }) {
  const styles = useStyles();
  const systemLookup = useValueLookup('SYSTEM');
  const { exporting, exportResults } = useQueueExport(filters);
  return (
    <SearchToolbar value={filters.search} onSearch={(search) => update({ search })} placeholder="Search users, roles, or risk IDs..." label="Search risks">
      <Select
        className={styles.select}
        aria-label="Risk level"
        value={filters.riskLevel}
        onChange={(_, d) => update({ riskLevel: d.value as QueueFilters['riskLevel'] })}
      >
        <option value="">All</option>
        <option value="high">high</option>
        <option value="medium">medium</option>
        <option value="low">low</option>
      </Select>
      <div className={styles.select}>
        <SearchCombobox
          ariaLabel="System"
          clearable
          lookup={systemLookup}
          value={filters.system}
          onChange={(o) => update({ system: o?.value ?? '' })}
          placeholder="All Systems"
          emptyText="No matching system"
        />
      </div>
      <div className={styles.toolbarEnd}>
        <Button icon={<Filter20Regular />} appearance={showAdvanced ? 'secondary' : 'subtle'} aria-expanded={showAdvanced} onClick={onToggleAdvanced}>
          Advanced Filters
          {advancedCount ? (
            <Badge size="small" appearance="filled" color="brand">
              {advancedCount}
            </Badge>
          ) : null}
        </Button>
        <Button icon={exporting ? <Spinner size="tiny" /> : <ArrowDownload20Regular />} disabled={exporting} onClick={exportResults}>
          Export Results
        </Button>
      </div>
    </SearchToolbar>
  );
}

function AdvancedFilters({ filters, update, advancedCount }: FilterProps & { advancedCount: number }) {
  const styles = useStyles();
  return (
    <div className={styles.advanced} role="group" aria-label="Advanced filters">
      <AdvancedOptions filters={filters} onChange={update} />
      <Field className={styles.field} label="Composite Role">
        <Input value={filters.compositeRole} placeholder="e.g. CR_FIN_AP" onChange={(_, d) => update({ compositeRole: d.value })} />
      </Field>
      <Field className={styles.field} label="Rule ID">
        <Input value={filters.ruleId} placeholder="e.g. 0201" onChange={(_, d) => update({ ruleId: d.value })} />
      </Field>
      <Field className={styles.field} label="Decision">
        <Select value={filters.decision} onChange={(_, d) => update({ decision: d.value })}>
          <option value="">All Decisions</option>
          <option value="pending">Pending</option>
          <option value="retain">Retain</option>
          <option value="remove">Remove</option>
          <option value="retain_mitigated">Retain (mitigated)</option>
        </Select>
      </Field>
      <Button
        appearance="subtle"
        icon={<Dismiss16Regular />}
        disabled={advancedCount === 0}
        onClick={() => update({ userGroup: '', roleProfile: '', compositeRole: '', ruleId: '', decision: '' })}
      >
        Clear advanced filters
      </Button>
    </div>
  );
}

function AdvancedOptions({ filters, onChange }: { filters: QueueFilters; onChange: (patch: Partial<QueueFilters>) => void }) {
  const styles = useStyles();
  const groupLookup = useValueLookup('USER_GROUP');
  const roleLookup = useValueLookup('ROLE_PROFILE');
  return (
    <>
      <Field className={styles.field} label="User Group">
        <SearchCombobox
          lookup={groupLookup}
          value={filters.userGroup}
          onChange={(o) => onChange({ userGroup: o?.value ?? '' })}
          placeholder="All Groups"
          emptyText="No matching group"
        />
      </Field>
      <Field className={styles.field} label="Role/Profile">
        <SearchCombobox
          lookup={roleLookup}
          value={filters.roleProfile}
          onChange={(o) => onChange({ roleProfile: o?.value ?? '' })}
          placeholder="All Roles"
          emptyText="No matching role"
        />
      </Field>
    </>
  );
}

function LoadedQueue({
  queryRef,
  onPageChange,
  ...rest
}: {
  queryRef: PreloadedQuery<RiskQueueQuery>;
  onPageChange: (page: number, current: PageEdges) => void;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: ReadonlySet<string>) => void;
  onBatchSaved: () => void;
  busy: boolean;
  filter: RiskFilterInput;
}) {
  const styles = useStyles();
  const data = usePreloadedQuery<RiskQueueQuery>(riskQueueQuery, queryRef);
  const locked = data.activeReviewPeriod == null;
  useEffect(bootScreenShown, []);
  return (
    <>
      {locked ? <ReviewPeriodClosed className={styles.banner} /> : null}
      <RiskQueueResults
        rows={data.riskQueue.edges.map((e) => e.node)}
        total={data.riskQueue.totalCount}
        locked={locked}
        {...rest}
        page={data.riskQueue.pageNumber}
        onPageChange={(p) => onPageChange(p, pageEdgesOf(data.riskQueue))}
      />
    </>
  );
}
