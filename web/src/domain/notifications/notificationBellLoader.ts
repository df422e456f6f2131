import type { PreloadedQuery } from 'react-relay';
import notificationBellQuery, { type NotificationBellQuery } from '../../__generated__/NotificationBellQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** How many notifications the bell lists; the Notifications page has them all. */
export const BELL_SIZE = 50;

export type NotificationBellPrepared = { bell: PreloadedQuery<NotificationBellQuery> };

/** The bell's query, prepared by the signed-in layout's loader (once per session, not per screen). */
export function prepareNotificationBell(session: RouteSession): NotificationBellPrepared {
  return { bell: prepareQuery<NotificationBellQuery>(session, notificationBellQuery, { count: BELL_SIZE }) };
}
