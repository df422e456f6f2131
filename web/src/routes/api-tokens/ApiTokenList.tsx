import { Body1, makeStyles } from '@fluentui/react-components';
import { Key24Regular } from '@fluentui/react-icons';
import { graphql, usePaginationFragment } from 'react-relay';
import { ConnectionHandler, ROOT_ID } from 'relay-runtime';
import type { ApiTokenListPaginationQuery } from '../../__generated__/ApiTokenListPaginationQuery.graphql';
import type { ApiTokenList_query$key } from '../../__generated__/ApiTokenList_query.graphql';
import { ListEmpty, ListTable, LoadMoreFooter } from '../../components/lists/ListTable';
import { useIsMobile } from '../../components/layout/useMediaQuery';
import { ApiTokenRow } from './ApiTokenRow';

const PAGE = 100;

/** The connection the list shows (its key and its `all` filter), for mutations that add to it. */
export function apiTokensConnectionId(all: boolean): string {
  return ConnectionHandler.getConnectionID(ROOT_ID, 'ApiTokenList_apiTokens', { all });
}

const useStyles = makeStyles({
  table: {
    minWidth: '900px',
  },
  actionsColumn: {
    width: '110px',
  },
});

export function ApiTokenList({ query, showOwner }: { query: ApiTokenList_query$key; showOwner: boolean }) {
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<ApiTokenListPaginationQuery, ApiTokenList_query$key>(
    graphql`
      fragment ApiTokenList_query on Query
      @argumentDefinitions(all: { type: "Boolean", defaultValue: false }, count: { type: "Int", defaultValue: 100 }, cursor: { type: "String" })
      @refetchable(queryName: "ApiTokenListPaginationQuery") {
        apiTokens(all: $all, first: $count, after: $cursor) @connection(key: "ApiTokenList_apiTokens") {
          edges {
            node {
              id
              ...ApiTokenRow_token
            }
          }
        }
      }
    `,
    query,
  );
  const styles = useStyles();
  const isMobile = useIsMobile();
  const nodes = data.apiTokens.edges.map((e) => e.node);

  const columns = [
    { label: 'Name' },
    ...(showOwner ? [{ label: 'Owner' }] : []),
    { label: 'Scope' },
    { label: 'Created' },
    { label: 'Last Used' },
    { label: 'Expires' },
    { label: 'Status' },
    { label: 'Actions', className: styles.actionsColumn },
  ];

  return (
    <>
      <ListTable
        label="API tokens"
        className={styles.table}
        columns={columns}
        asList={isMobile}
        empty={<ListEmpty icon={<Key24Regular aria-hidden />} title="No API tokens" description="Tokens you create appear here." />}
        rows={nodes.map((n) => (
          <ApiTokenRow key={n.id} token={n} showOwner={showOwner} compact={isMobile} />
        ))}
      />
      <LoadMoreFooter
        summary={
          <Body1>
            {nodes.length} {nodes.length === 1 ? 'token' : 'tokens'}
          </Body1>
        }
        hasNext={hasNext}
        isLoadingNext={isLoadingNext}
        onLoadMore={() => loadNext(PAGE)}
        loadMoreLabel="Load more tokens"
      />
    </>
  );
}
