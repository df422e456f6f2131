import { Body1, makeStyles } from '@fluentui/react-components';
import { TaskListSquareLtr24Regular } from '@fluentui/react-icons';
import { graphql, usePaginationFragment } from 'react-relay';
import type { RemediationList_query$key } from '../../__generated__/RemediationList_query.graphql';
import type { RemediationListPaginationQuery } from '../../__generated__/RemediationListPaginationQuery.graphql';
import { ListHeading } from '../../components/lists/FilterBar';
import { ListEmpty, ListTable, LoadMoreFooter } from '../../components/lists/ListTable';
import { formatCount } from '../../components/layout/StatTile';
import { useIsMobile } from '../../components/layout/useMediaQuery';
import { REMEDIATION_PAGE } from './remediationLoader';
import { RemediationRow } from './RemediationRow';

const useStyles = makeStyles({
  table: { minWidth: '1100px' },
  actionsColumn: { width: '220px' },
});

/** The remediation items of the filters, a page at a time, with their total. */
export function RemediationList({ query, statusFilter }: { query: RemediationList_query$key; statusFilter: string }) {
  const styles = useStyles();
  const isMobile = useIsMobile();
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<RemediationListPaginationQuery, RemediationList_query$key>(
    graphql`
      fragment RemediationList_query on Query
      @argumentDefinitions(count: { type: "Int", defaultValue: 100 }, cursor: { type: "String" }, filter: { type: "RemediationFilter" })
      @refetchable(queryName: "RemediationListPaginationQuery") {
        remediationItems(filter: $filter, first: $count, after: $cursor) @connection(key: "RemediationList_remediationItems", filters: ["filter"]) {
          __id
          totalCount
          edges {
            node {
              id
              ...RemediationRow_item
            }
          }
        }
      }
    `,
    query,
  );
  const list = data.remediationItems;
  const total = list.totalCount;
  const columns = [
    { label: 'User' },
    { label: 'Role' },
    { label: 'System' },
    { label: 'Risk' },
    { label: 'Decided By' },
    { label: 'Approved By' },
    { label: 'Status' },
    { label: 'Actions', className: styles.actionsColumn },
  ];
  return (
    <>
      <ListHeading title="Approved Removals" total={total} noun="items" />
      <ListTable
        label="Remediation items"
        className={styles.table}
        asCards={isMobile}
        columns={columns}
        empty={
          <ListEmpty
            icon={<TaskListSquareLtr24Regular aria-hidden />}
            title="No remediation items"
            description="Removals appear here once an administrator approves a reviewer's decisions."
          />
        }
        rows={list.edges.map((e) => (
          <RemediationRow key={e.node.id} item={e.node} connectionId={list.__id} statusFilter={statusFilter} />
        ))}
      />
      <LoadMoreFooter
        summary={
          <Body1>
            Showing {formatCount(list.edges.length)} of {formatCount(total)}
          </Body1>
        }
        hasNext={hasNext}
        isLoadingNext={isLoadingNext}
        onLoadMore={() => loadNext(REMEDIATION_PAGE)}
        loadMoreLabel="Load more items"
      />
    </>
  );
}
