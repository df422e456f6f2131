import { Button, Card, Field, Input, makeStyles, Select, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, ShieldCheckmark24Regular } from '@fluentui/react-icons';
import { useState, useTransition } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import type { ConflictsTable_run$key } from '../../../__generated__/ConflictsTable_run.graphql';
import type { ConflictsTablePaginationQuery } from '../../../__generated__/ConflictsTablePaginationQuery.graphql';
import { databaseIdOf } from '../../../components/format/globalIds';
import { ListEmpty, ListTable, LoadMoreFooter } from '../../../components/lists/ListTable';
import { formatCount } from '../../../components/layout/StatTile';
import { useDebouncedCallback } from '../../../components/forms/useDebouncedCallback';
import { useIsMobile } from '../../../components/layout/useMediaQuery';
import { CONFLICTS_PAGE } from './accessRunLoader';
import { ConflictRow, CONFLICT_COLUMNS } from './ConflictRow';

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
  filters: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 160px), 1fr))',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalL,
  },
});

type Shown = '' | 'exercised' | 'latent';
type Filters = { shown: Shown; riskId: string; system: string; userId: string };

const SHOWN: ReadonlyArray<readonly [Shown, string]> = [
  ['', 'All conflicts'],
  ['exercised', 'Exercised only'],
  ['latent', 'Latent only'],
];

/** A run's conflicts by user then risk, a page at a time, filtered by exercised or latent, risk, system and user; the whole run as CSV. */
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
      ) {
        id
        systems
        conflicts(first: $count, after: $cursor, exercised: $exercised, riskId: $riskId, system: $system, userId: $userId)
          @connection(key: "ConflictsTable_conflicts", filters: ["exercised", "riskId", "system", "userId"]) {
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
  const [filters, setFilters] = useState<Filters>({ shown: '', riskId: '', system: '', userId: '' });
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
  const csv = `/api/analyses/${databaseIdOf(data.id, 'AccessAnalysis') ?? ''}/conflicts.csv`;
  return (
    <Card className={styles.card}>
      <div className={styles.head}>
        <Subtitle2 as="h2" className={styles.title}>
          Conflicts
        </Subtitle2>
        <Button as="a" href={csv} download icon={<ArrowDownload20Regular />}>
          Download CSV
        </Button>
      </div>
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
            {data.systems.map((s) => (
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
      <ListTable
        label="Conflicts"
        columns={CONFLICT_COLUMNS}
        asCards={isMobile}
        rows={edges.map((e) => <ConflictRow key={`${e.node.userId}\u0000${e.node.riskId}`} conflict={e.node} />)}
        empty={<ListEmpty icon={<ShieldCheckmark24Regular />} title="No conflicts match" description="No conflict of this run matches these filters." />}
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
