import { graphql, usePaginationFragment } from 'react-relay';
import type { MyNotificationsFeed_query$key } from '../../__generated__/MyNotificationsFeed_query.graphql';
import type { MyNotificationsFeedPaginationQuery } from '../../__generated__/MyNotificationsFeedPaginationQuery.graphql';
import { NotificationList, type NotificationTab } from './NotificationList';

const PAGE = 50;

/** The viewer's own notifications (reviewers). */
export function MyNotificationsFeed({ query, tab, viewerId }: { query: MyNotificationsFeed_query$key; tab: NotificationTab; viewerId: string }) {
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<MyNotificationsFeedPaginationQuery, MyNotificationsFeed_query$key>(
    graphql`
      fragment MyNotificationsFeed_query on Query
      @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" })
      @refetchable(queryName: "MyNotificationsFeedPaginationQuery") {
        notifications(first: $count, after: $cursor) @connection(key: "MyNotificationsFeed_notifications") {
          edges {
            node {
              id
              type
              ...NotificationCard_notification
            }
          }
        }
      }
    `,
    query,
  );
  return (
    <NotificationList
      items={data.notifications.edges.map((e) => e.node)}
      tab={tab}
      viewerId={viewerId}
      isAdmin={false}
      hasNext={hasNext}
      isLoadingNext={isLoadingNext}
      onLoadMore={() => loadNext(PAGE)}
    />
  );
}
