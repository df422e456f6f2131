import { Accordion, Body1, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { DatabaseSearch24Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import type { DetailedReviewUserList_query$key } from '../../__generated__/DetailedReviewUserList_query.graphql';
import type { DetailedReviewUserListPaginationQuery } from '../../__generated__/DetailedReviewUserListPaginationQuery.graphql';
import { DetailedReviewUser } from './DetailedReviewUser';
import { LoadMoreButton } from '../../components/ListTable';

const USERS_PAGE = 50;

const useStyles = makeStyles({
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: tokens.spacingHorizontalXXL,
    color: tokens.colorNeutralForeground3,
  },
  list: { paddingTop: tokens.spacingVerticalS, paddingBottom: tokens.spacingVerticalS },
  more: {
    display: 'flex',
    justifyContent: 'center',
    padding: tokens.spacingVerticalM,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
});

/** The users of the composite view, a page at a time; each expands into its risk groups. */
export function DetailedReviewUserList({ query, searching }: { query: DetailedReviewUserList_query$key; searching: boolean }) {
  const styles = useStyles();
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<DetailedReviewUserListPaginationQuery, DetailedReviewUserList_query$key>(
    graphql`
      fragment DetailedReviewUserList_query on Query
      @argumentDefinitions(search: { type: "String" }, count: { type: "Int!" }, cursor: { type: "String" })
      @refetchable(queryName: "DetailedReviewUserListPaginationQuery") {
        compositeUsers(first: $count, after: $cursor, search: $search) @connection(key: "DetailedReviewUserList_compositeUsers") {
          edges {
            node {
              id
              ...DetailedReviewUser_user
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
      <div className={styles.empty}>
        <DatabaseSearch24Regular />
        <Subtitle2 as="h3">No risk data found</Subtitle2>
        <Body1>{searching ? 'No user matches the search.' : 'Upload an access-risk export to review users and their composite roles here.'}</Body1>
      </div>
    );
  }

  return (
    <>
      <Accordion
        className={styles.list}
        multiple
        collapsible
        openItems={open}
        onToggle={(_, d) => setOpen(d.openItems.map(String))}
      >
        {users.map((u) => (
          <DetailedReviewUser key={u.id} user={u} open={open.includes(u.id)} />
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
