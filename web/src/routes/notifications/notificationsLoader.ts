import type { PreloadedQuery } from 'react-relay';
import notificationsRouteQuery, { type NotificationsRouteQuery } from '../../__generated__/NotificationsRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** Page sizes are variables: the server's cost limit multiplies literal ones. */
const FEED_PAGE = 50;
const USER_CHOICES = 500;

export type NotificationsPrepared = { query: PreloadedQuery<NotificationsRouteQuery> };

/** Administrators' view of every notification sent, or the viewer's own. */
export function prepareNotifications(session: RouteSession): NotificationsPrepared {
  return {
    query: prepareQuery<NotificationsRouteQuery>(session, notificationsRouteQuery, {
      isAdmin: session.viewer.role === 'ADMIN',
      count: FEED_PAGE,
      userCount: USER_CHOICES,
    }),
  };
}
