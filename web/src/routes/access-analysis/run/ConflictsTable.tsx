import { Button, Caption1, Card, Field, Input, makeStyles, Select, Subtitle2, Tab, TabList, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, ShieldCheckmark24Regular } from '@fluentui/react-icons';
import { useState, useTransition } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import type { ConflictsTable_run$key } from '../../../__generated__/ConflictsTable_run.graphql';
import type { AccessConflictChange, ConflictsTablePaginationQuery } from '../../../__generated__/ConflictsTablePaginationQuery.graphql';
import { formatDateTime } from '../../../components/format/dates';
import { databaseIdOf } from '../../../components/format/globalIds';
import { ListEmpty, ListTable, LoadMoreFooter } from '../../../components/lists/ListTable';
import { formatCount } from '../../../components/layout/StatTile';
import { useDebouncedCallback } from '../../../components/forms/useDebouncedCallback';
import { useIsMobile } from '../../../components/layout/useMediaQuery';
import { restUrl } from '../../../rest/client';
import { CONFLICTS_PAGE } from './accessRunLoader';
import { ConflictRow, CONFLICT_COLUMNS } from './ConflictRow';
import { changeEmpty, type Change } from './changeWording';

const useStyles = makeStyles({
  card: { padding: 0, rowGap: 0, minWidth: 0 },
  head: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalL,
    paddingBottom: 0,
  },
  title: { margin: 0 },
  downloads: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  tabs: { paddingLeft: tokens.spacingHorizontalS, paddingRight: tokens.spacingHorizontalS, paddingTop: tokens.spacingVerticalS, overflowX: 'auto' },
  note: {
    color: tokens.colorNeutralForeground3,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
    paddingTop: tokens.spacingVerticalS,
  },
  filters: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 160px), 1fr))',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalL,
  },
});

type Shown = '' | 'exercised' | 'latent';
type Filters = { change: Change; shown: Shown; riskId: string; system: string; userId: string };

const SHOWN: ReadonlyArray<readonly [Shown, string]> = [
  ['', 'All conflicts'],
  ['exercised', 'Exercised only'],
  ['latent', 'Latent only'],
];

/**
 * A run's conflicts by user then risk, a page at a time: all of them, or those
 * new, resolved or unchanged against the previous run of the same rule set
 * version (tabs with their counts; resolved ones as the previous run found
 * them), filtered by exercised or latent, risk, system and user; the whole
 * run as CSV or XLSX.
 */
export function ConflictsTable({ run }: { run: ConflictsTable_run$key }) {
  const styles = useStyles();
  const isMobile = useIsMobile();
  const { data, hasNext, isLoadingNext, loadNext, refetch } = usePaginationFragment<ConflictsTablePaginationQuery, ConflictsTable_run$key>(
    graphql`
      fragment ConflictsTable_run on AccessAnalysis
      @refetchable(queryName: "ConflictsTablePaginationQuery")
      @argumentDefinitions(
        count: { type: "Int!" }
        cursor: { type: "String" }
        exercised: { type: "Boolean" }
        riskId: { type: "String" }
        system: { type: "String" }
        userId: { type: "String" }
        change: { type: "AccessConflictChange" }
      ) {
        id
        systems
        changes {
          newCount
          resolvedCount
          unchangedCount
        }
        conflictCount
        previousRun {
          startedAt
        }
        conflicts(first: $count, after: $cursor, exercised: $exercised, riskId: $riskId, system: $system, userId: $userId, change: $change)
          @connection(key: "ConflictsTable_conflicts", filters: ["exercised", "riskId", "system", "userId", "change"]) {
          totalCount
          edges {
            node {
              userId
              riskId
              ...ConflictRow_conflict
            }
          }
        }
      }
    `,
    run,
  );
  const [filters, setFilters] = useState<Filters>({ change: '', shown: '', riskId: '', system: '', userId: '' });
  const [isPending, startTransition] = useTransition();
  const apply = (f: Filters) =>
    startTransition(() => {
      refetch(
        {
          count: CONFLICTS_PAGE,
          exercised: f.shown === '' ? null : f.shown === 'exercised',
          riskId: f.riskId.trim() || null,
          system: f.system || null,
          userId: f.userId.trim() || null,
          change: f.change === '' ? null : (f.change.toUpperCase() as AccessConflictChange),
        },
        { fetchPolicy: 'store-and-network' },
      );
    });
  const applyTyped = useDebouncedCallback(apply, 400);
  const change = (next: Partial<Filters>, typed = false) => {
    const f = { ...filters, ...next };
    setFilters(f);
    if (typed) applyTyped(f);
    else apply(f);
  };

  const edges = data.conflicts.edges;
  const files = { path: { id: databaseIdOf(data.id, 'AccessAnalysis') ?? '' } };
  const tabs: ReadonlyArray<readonly [Change, string, number]> = [
    ['', 'All', data.conflictCount],
    ['new', 'New', data.changes.newCount],
    ['resolved', 'Resolved', data.changes.resolvedCount],
    ['unchanged', 'Unchanged', data.changes.unchangedCount],
  ];
  const filtered = filters.shown !== '' || filters.riskId.trim() !== '' || filters.system !== '' || filters.userId.trim() !== '';
  const empty = filtered
    ? { title: 'No conflicts match', description: 'No conflict of this run matches these filters.' }
    : changeEmpty(filters.change, data.previousRun != null);
  return (
    <Card className={styles.card}>
      <div className={styles.head}>
        <Subtitle2 as="h2" className={styles.title}>
          Conflicts
        </Subtitle2>
        <div className={styles.downloads}>
          <Button as="a" href={restUrl('/api/analyses/{id}/conflicts.csv', files)} download icon={<ArrowDownload20Regular />}>
            Download CSV
          </Button>
          <Button as="a" href={restUrl('/api/analyses/{id}/conflicts.xlsx', files)} download icon={<ArrowDownload20Regular />}>
            Download XLSX
          </Button>
        </div>
      </div>
      <TabList
        className={styles.tabs}
        aria-label="Change against the previous run"
        selectedValue={filters.change}
        onTabSelect={(_, d) => change({ change: d.value as Change })}
      >
        {tabs.map(([value, label, n]) => (
          <Tab key={value} value={value}>{`${label} (${formatCount(n)})`}</Tab>
        ))}
      </TabList>
      {filters.change === 'resolved' && data.previousRun ? (
        <Caption1 as="p" className={styles.note}>
          {`Conflicts of the previous run (started ${formatDateTime(data.previousRun.startedAt)}) that this run no longer finds, as that run found them.`}
        </Caption1>
      ) : null}
      <ConflictFilters filters={filters} systems={data.systems} onChange={change} />
      <ListTable
        label="Conflicts"
        columns={CONFLICT_COLUMNS}
        asCards={isMobile}
        rows={edges.map((e) => (
          <ConflictRow key={`${e.node.userId}\u0000${e.node.riskId}`} conflict={e.node} />
        ))}
        empty={<ListEmpty icon={<ShieldCheckmark24Regular />} title={empty.title} description={empty.description} />}
      />
      <LoadMoreFooter
        summary={isPending ? 'Loading...' : `Showing ${formatCount(edges.length)} of ${formatCount(data.conflicts.totalCount)} conflicts`}
        hasNext={hasNext}
        isLoadingNext={isLoadingNext}
        onLoadMore={() => loadNext(CONFLICTS_PAGE)}
        loadMoreLabel="Load More"
      />
    </Card>
  );
}

/** The filter bar above a run's conflicts: exercised or latent, risk, system and user. */
function ConflictFilters({
  filters,
  systems,
  onChange: change,
}: {
  filters: Filters;
  systems: readonly string[];
  onChange: (next: Partial<Filters>, typed?: boolean) => void;
}) {
  const styles = useStyles();
  return (
    <div className={styles.filters} role="search" aria-label="Filter conflicts">
      <Field label="Show">
        <Select value={filters.shown} onChange={(_, d) => change({ shown: d.value as Shown })}>
          {SHOWN.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Risk">
        <Input value={filters.riskId} placeholder="Risk id" onChange={(_, d) => change({ riskId: d.value }, true)} />
      </Field>
      <Field label="System">
        <Select value={filters.system} onChange={(_, d) => change({ system: d.value })}>
          <option value="">All systems</option>
          {systems.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="User">
        <Input value={filters.userId} placeholder="User id" onChange={(_, d) => change({ userId: d.value }, true)} />
      </Field>
    </div>
  );
}
