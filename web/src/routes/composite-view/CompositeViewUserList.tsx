import { Accordion, makeStyles, tokens } from '@fluentui/react-components';
import { DatabaseSearch24Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import type { CompositeViewUserList_query$key } from '../../__generated__/CompositeViewUserList_query.graphql';
import type { CompositeViewUserListPaginationQuery } from '../../__generated__/CompositeViewUserListPaginationQuery.graphql';
import { CompositeViewUser } from './CompositeViewUser';
import { EmptyState } from '../../components/layout/EmptyState';
import { LoadMoreButton } from '../../components/lists/ListTable';

const USERS_PAGE = 50;

const useStyles = makeStyles({
  list: { paddingTop: tokens.spacingVerticalS, paddingBottom: tokens.spacingVerticalS },
  more: {
    display: 'flex',
    justifyContent: 'center',
    padding: tokens.spacingVerticalM,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
});

/** The users of the composite view, a page at a time; each expands into its risk groups. */
export function CompositeViewUserList({ query, searching }: { query: CompositeViewUserList_query$key; searching: boolean }) {
  const styles = useStyles();
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<CompositeViewUserListPaginationQuery, CompositeViewUserList_query$key>(
    graphql`
      fragment CompositeViewUserList_query on Query
      @argumentDefinitions(search: { type: "String" }, count: { type: "Int!" }, cursor: { type: "String" })
      @refetchable(queryName: "CompositeViewUserListPaginationQuery") {
        compositeUsers(first: $count, after: $cursor, search: $search) @connection(key: "CompositeViewUserList_compositeUsers") {
          edges {
            node {
              id
              ...CompositeViewUser_user
            }
          }
        }
      }
    `,
    query,
  );
  const [open, setOpen] = useState<string[]>([]);
  const users = data.compositeUsers.edges.map((e) => e.node);

  if (users.length === 0) {
    return (
      <EmptyState
        icon={<DatabaseSearch24Regular />}
        heading="h3"
        title="No risk data found"
        description={searching ? 'No user matches the search.' : 'Upload an access-risk export to review users and their composite roles here.'}
      />
    );
  }

  return (
    <>
      <Accordion className={styles.list} multiple collapsible openItems={open} onToggle={(_, d) => setOpen(d.openItems.map(String))}>
        {users.map((u) => (
          <CompositeViewUser key={u.id} user={u} open={open.includes(u.id)} />
        ))}
      </Accordion>
      {hasNext ? (
        <div className={styles.more}>
          <LoadMoreButton appearance="secondary" hasNext isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(USERS_PAGE)} label="Load more users" />
        </div>
      ) : null}
    </>
  );
}
