import { Badge, Button, Caption1, Card, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { ArrowLeft16Regular, ChevronLeft16Regular, ChevronRight16Regular, Dismiss16Regular } from '@fluentui/react-icons';
import { Suspense, useEffect, useRef, useState } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData, useSearchParams } from 'react-router';
import type { AllReviewsRouteQuery } from '../../__generated__/AllReviewsRouteQuery.graphql';
import { FilterSelect, ListHeading, type FilterChoice } from '../../components/lists/FilterBar';
import { LinkButton } from '../../components/forms/LinkButton';
import { PageHeader } from '../../components/layout/PageHeader';
import { SearchToolbar } from '../../components/lists/SearchToolbar';
import { formatCount } from '../../components/layout/StatTile';
import { useDebouncedCallback } from '../../components/forms/useDebouncedCallback';
import { DecisionBadge } from '../../domain/risks/riskDisplay';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { AllReviewsTable } from './AllReviewsTable';
import {
  allReviewsVariables,
  EMPTY_REVIEW_FILTERS,
  PAGE_SIZES,
  REVIEW_ADDRESS_KEYS,
  reviewAddress,
  reviewAddressValues,
  type AllReviewsPrepared,
  type ReviewFilters,
} from './allReviewsLoader';
import { listAddressKey, writeListAddress } from '../../router/listAddress';

const query = graphql`
  query AllReviewsRouteQuery($first: Int!, $page: Int!, $search: String, $decision: ReviewDecisionFilter, $shared: ReviewSharedFilter) {
    allReviews(first: $first, page: $page, search: $search, decision: $decision, shared: $shared) {
      totalCount
      edges {
        node {
          id
          ...ReviewDecisionRow_review
          isSharedRole
          sharedWith {
            reviewerName
            decision
          }
        }
      }
    }
  }
`;

const useStyles = makeStyles({
  card: { padding: 0, rowGap: 0 },
  toolbar: { borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  pager: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'flex-end',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
  },
  loading: { paddingTop: tokens.spacingVerticalXXL, paddingBottom: tokens.spacingVerticalXXL },
  legend: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalXL,
    rowGap: tokens.spacingVerticalS,
    marginTop: tokens.spacingVerticalL,
    color: tokens.colorNeutralForeground2,
  },
  legendItem: { display: 'inline-flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  swatch: {
    display: 'inline-block',
    width: '16px',
    height: '16px',
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: tokens.colorPaletteYellowBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteYellowBorder1}`,
  },
});

const DECISION_CHOICES: readonly FilterChoice[] = [
  ['', 'All'],
  ['RETAIN', 'Retain Only'],
  ['REMOVE', 'Remove Only'],
];
const SHARED_CHOICES: readonly FilterChoice[] = [
  ['', 'All'],
  ['SHARED', 'Shared Only'],
  ['UNIQUE', 'Unique Only'],
];

/** SPEC §2, 'All Review Decisions'. */
export default function AllReviewsRoute() {
  const styles = useStyles();
  const prepared = useLoaderData() as AllReviewsPrepared | null;
  const { queryRef, isPending, load } = usePreparedQuery<AllReviewsRouteQuery>(query, prepared?.query);
  // The filters and page are in the address (a reload, a link and Back show the same rows).
  const [params, setParams] = useSearchParams();
  const [fromAddress] = useState(() => reviewAddress(params));
  const [filters, setFilters] = useState<ReviewFilters>(fromAddress.filters);
  // The filters and page of the results loaded last.
  const shown = useRef(fromAddress);
  const show = (next: ReviewFilters, page: number, address: 'write' | 'keep' = 'write') => {
    shown.current = { filters: next, page };
    load(allReviewsVariables(next, page));
    if (address === 'write') setParams((p) => writeListAddress(p, REVIEW_ADDRESS_KEYS, { values: reviewAddressValues(next), page }));
  };
  // Back and Forward: the address names other rows than those shown.
  const wanted = reviewAddress(params);
  const addressKey = listAddressKey(REVIEW_ADDRESS_KEYS, { values: reviewAddressValues(wanted.filters), page: wanted.page });
  useEffect(() => {
    if (addressKey === listAddressKey(REVIEW_ADDRESS_KEYS, { values: reviewAddressValues(shown.current.filters), page: shown.current.page })) return;
    latest.current = wanted.filters;
    setFilters(wanted.filters);
    show(wanted.filters, wanted.page, 'keep');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [addressKey]);
  // The filters as last set: a search typed just before another change (say the page size) is applied
  // with that change, and the delayed search then applies the latest filters, never the older ones.
  const latest = useRef(fromAddress.filters);
  const applySearch = useDebouncedCallback(() => {
    if (JSON.stringify(latest.current) !== JSON.stringify(shown.current.filters)) show(latest.current, 1);
  }, 300);
  // Any change of filter or page size goes back to page 1 (SPEC §9).
  const update = (patch: Partial<ReviewFilters>, debounce = false) => {
    const next = { ...latest.current, ...patch };
    latest.current = next;
    setFilters(next);
    if (debounce) applySearch();
    else show(next, 1);
  };

  const loading = <Spinner className={styles.loading} label="Loading reviews..." />;
  return (
    <>
      <PageHeader
        title="All Review Decisions"
        subtitle="Complete review history with shared role analysis"
        actions={
          <LinkButton to="/" appearance="subtle" icon={<ArrowLeft16Regular />}>
            Back to Dashboard
          </LinkButton>
        }
      />
      <Card className={styles.card}>
        <SearchToolbar
          className={styles.toolbar}
          value={filters.search}
          onSearch={(search) => update({ search }, true)}
          placeholder="Search by user, role or reviewer..."
          label="Search reviews"
        >
          <FilterSelect inline label="Decision" value={filters.decision} choices={DECISION_CHOICES} onChange={(decision) => update({ decision })} />
          <FilterSelect inline label="Shared Roles" value={filters.shared} choices={SHARED_CHOICES} onChange={(shared) => update({ shared })} />
          <FilterSelect
            inline
            label="Page Size"
            value={String(filters.pageSize)}
            choices={PAGE_SIZES.map((n) => [String(n), `${n} rows`] as const)}
            onChange={(size) => update({ pageSize: Number(size) })}
          />
          <Button appearance="subtle" icon={<Dismiss16Regular />} onClick={() => update(EMPTY_REVIEW_FILTERS)}>
            Clear Filters
          </Button>
        </SearchToolbar>
        {queryRef == null ? (
          loading
        ) : (
          <Suspense fallback={loading}>
            <LoadedReviews queryRef={queryRef} isPending={isPending} onPage={(page) => show(shown.current.filters, page)} />
          </Suspense>
        )}
      </Card>
      <Legend />
    </>
  );
}

function LoadedReviews({
  queryRef,
  isPending,
  onPage,
}: {
  queryRef: PreloadedQuery<AllReviewsRouteQuery>;
  isPending: boolean;
  onPage: (page: number) => void;
}) {
  const styles = useStyles();
  const data = usePreloadedQuery<AllReviewsRouteQuery>(query, queryRef);
  const { page, first } = queryRef.variables;
  const total = data.allReviews.totalCount;
  const pageCount = Math.max(1, Math.ceil(total / first));
  return (
    <>
      <ListHeading title="Review Decisions" total={total} noun="reviews" />
      <AllReviewsTable reviews={data.allReviews.edges.map((e) => e.node)} loading={isPending} />
      {pageCount > 1 ? (
        <nav className={styles.pager} aria-label="Pagination">
          <Button size="small" icon={<ChevronLeft16Regular />} disabled={isPending || page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <Text aria-live="polite">
            Page {formatCount(page)} of {formatCount(pageCount)}
          </Text>
          <Button size="small" icon={<ChevronRight16Regular />} iconPosition="after" disabled={isPending || page >= pageCount} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </nav>
      ) : null}
    </>
  );
}

/** What the highlight, the badge and the decisions mean. */
function Legend() {
  const styles = useStyles();
  return (
    <section className={styles.legend} aria-label="Legend">
      <span className={styles.legendItem}>
        <span className={styles.swatch} aria-hidden />
        <Caption1>Highlighted row: a shared role (the same user and role reviewed by more than one reviewer)</Caption1>
      </span>
      <span className={styles.legendItem}>
        <Badge appearance="filled" color="warning" size="small">
          Shared
        </Badge>
        <Caption1>Role reviewed by several reviewers</Caption1>
      </span>
      <span className={styles.legendItem}>
        <DecisionBadge decision="RETAIN" />
        <Caption1>Access kept</Caption1>
      </span>
      <span className={styles.legendItem}>
        <DecisionBadge decision="REMOVE" />
        <Caption1>Access to be revoked</Caption1>
      </span>
    </section>
  );
}
