import { Body1, Card, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { Suspense, useState } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import type { CompositeViewQuery } from '../../__generated__/CompositeViewQuery.graphql';
import { ReviewPeriodClosed } from '../../domain/risks/ReviewPeriodClosed';
import { LoadingBar, SearchToolbar } from '../../components/lists/SearchToolbar';
import { useDebouncedCallback } from '../../components/forms/useDebouncedCallback';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { CompositeViewDecisionsProvider, CompositeViewLocked } from './CompositeViewDecisions';
import { CompositeViewUserList } from './CompositeViewUserList';
import { compositeViewVariables } from './compositeViewLoader';

const query = graphql`
  query CompositeViewQuery($search: String, $count: Int!) {
    activeReviewPeriod {
      id
      name
    }
    ...CompositeViewUserList_query @arguments(search: $search, count: $count)
  }
`;

const useStyles = makeStyles({
  card: { padding: 0, rowGap: 0 },
  hint: { color: tokens.colorNeutralForeground3, marginLeft: 'auto' },
  body: { borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  banner: { margin: tokens.spacingHorizontalL, marginBottom: 0 },
  loading: { paddingTop: tokens.spacingVerticalXXL, paddingBottom: tokens.spacingVerticalXXL },
});

export type CompositeViewProps = {
  /** The first page (every user), prepared by the route's loader or when the page's tab was chosen. */
  prepared: PreloadedQuery<CompositeViewQuery> | null | undefined;
  /**
   * Set by a page that shows the view inside its own state (My Assigned
   * Risks): decisions are also locked when this is true (a submitted set),
   * and the page shows the period banner itself.
   */
  locked?: boolean;
  /** Called after decisions are saved (the page's own figures move). */
  onSaved?: () => void;
};

/**
 * SPEC §2 'Composite-role risk view' (the Detailed Review tab): users, their
 * risk groups and the composite roles under each, loaded level by level as
 * they are expanded; retain or remove per user and composite role.
 */
export function CompositeView({ prepared, locked, onSaved }: CompositeViewProps) {
  const styles = useStyles();
  const [search, setSearch] = useState('');
  // The search of the list loaded last.
  const [applied, setApplied] = useState('');
  // The current list stays on screen while a search loads.
  const { queryRef, isPending, load } = usePreparedQuery<CompositeViewQuery>(query, prepared);
  const applySearch = useDebouncedCallback((value: string) => {
    if (value === applied) return;
    setApplied(value);
    load(compositeViewVariables(value));
  }, 300);
  const onSearch = (value: string) => {
    setSearch(value);
    applySearch(value.trim());
  };

  const loading = <Spinner className={styles.loading} label="Loading risk data..." />;

  return (
    <CompositeViewDecisionsProvider onSaved={onSaved}>
      <Card className={styles.card}>
        <SearchToolbar value={search} onSearch={onSearch} placeholder="Search users by name or ID..." label="Search users">
          <Body1 className={styles.hint}>Decisions are saved automatically, 2 seconds after the last change.</Body1>
        </SearchToolbar>
        <LoadingBar active={isPending} label="Loading users" />
        <div className={styles.body}>
          {queryRef == null ? (
            loading
          ) : (
            <Suspense fallback={loading}>
              <Loaded queryRef={queryRef} searching={applied !== ''} locked={locked} />
            </Suspense>
          )}
        </div>
      </Card>
    </CompositeViewDecisionsProvider>
  );
}

function Loaded({ queryRef, searching, locked: lockedByPage }: { queryRef: PreloadedQuery<CompositeViewQuery>; searching: boolean; locked?: boolean }) {
  const styles = useStyles();
  const data = usePreloadedQuery<CompositeViewQuery>(query, queryRef);
  const noPeriod = data.activeReviewPeriod == null;
  return (
    <CompositeViewLocked value={noPeriod || Boolean(lockedByPage)}>
      {noPeriod && lockedByPage === undefined ? <ReviewPeriodClosed className={styles.banner} /> : null}
      <CompositeViewUserList query={data} searching={searching} />
    </CompositeViewLocked>
  );
}
