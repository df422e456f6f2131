import { graphql, usePaginationFragment } from 'react-relay';
import type { AllNotificationsFeed_query$key } from '../../__generated__/AllNotificationsFeed_query.graphql';
import type { AllNotificationsFeedPaginationQuery } from '../../__generated__/AllNotificationsFeedPaginationQuery.graphql';
import { NotificationList, type NotificationTab } from './NotificationList';

const PAGE = 50;

/** Every notification sent (administrators). */
export function AllNotificationsFeed({ query, tab, viewerId }: { query: AllNotificationsFeed_query$key; tab: NotificationTab; viewerId: string }) {
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<AllNotificationsFeedPaginationQuery, AllNotificationsFeed_query$key>(
    graphql`
      fragment AllNotificationsFeed_query on Query
      @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" })
      @refetchable(queryName: "AllNotificationsFeedPaginationQuery") {
        allNotifications(first: $count, after: $cursor) @connection(key: "AllNotificationsFeed_allNotifications") {
          edges {
            node {
              id
              type
              ...NotificationCard_notification @arguments(isAdmin: true)
            }
          }
        }
      }
    `,
    query,
  );
  return (
    <NotificationList
      items={data.allNotifications.edges.map((e) => e.node)}
      tab={tab}
      viewerId={viewerId}
      isAdmin
      hasNext={hasNext}
      isLoadingNext={isLoadingNext}
      onLoadMore={() => loadNext(PAGE)}
    />
  );
}
