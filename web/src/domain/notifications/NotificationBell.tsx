import { Button, CounterBadge, makeStyles } from '@fluentui/react-components';
import { Alert24Regular } from '@fluentui/react-icons';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { graphql, useFragment, useMutation, usePreloadedQuery, useRelayEnvironment, useSubscription, type PreloadedQuery } from 'react-relay';
import { useNavigate } from 'react-router';
import { fetchQuery, type GraphQLSubscriptionConfig, type RecordProxy } from 'relay-runtime';
import type { NotificationBell_query$key } from '../../__generated__/NotificationBell_query.graphql';
import type { NotificationBellMarkAllReadMutation } from '../../__generated__/NotificationBellMarkAllReadMutation.graphql';
import type { NotificationBellQuery } from '../../__generated__/NotificationBellQuery.graphql';
import type { NotificationBellSubscription } from '../../__generated__/NotificationBellSubscription.graphql';
import { useMarkNotificationRead } from './NotificationBellItemMarkRead';
import { ALL_FEED_CONNECTION, BELL_CONNECTION, MY_FEED_CONNECTION, addNotification, adjustCounts, connectionNodes, setUnread } from './notificationStore';
import { useNotify } from '../../components/forms/toast';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { BELL_SIZE } from './notificationBellLoader';

/** SPEC §7/§9: the notifications poll, the fallback to live delivery. */
export const NOTIFICATIONS_POLL_MS = 30_000;

const query = graphql`
  query NotificationBellQuery($count: Int!) {
    ...NotificationBell_query @arguments(count: $count)
  }
`;

const subscription = graphql`
  subscription NotificationBellSubscription($isAdmin: Boolean!) {
    notificationAdded {
      id
      type
      isRead
      ...NotificationBellItem_notification
      ...NotificationCard_notification @arguments(isAdmin: $isAdmin)
    }
  }
`;

const markAllMutation = graphql`
  mutation NotificationBellMarkAllReadMutation {
    markAllNotificationsRead
  }
`;

const useStyles = makeStyles({
  anchor: {
    position: 'relative',
    display: 'inline-flex',
  },
  badge: {
    position: 'absolute',
    top: '-2px',
    right: '-4px',
    pointerEvents: 'none',
  },
});

const popoverCode = () => import('./NotificationBellPopover');
const NotificationBellPopover = lazy(popoverCode);
function startPopoverCode() {
  popoverCode().catch(() => {
    // React.lazy loads it again when the popover opens.
  });
}

export type NotificationBellProps = {
  /** The bell's query, prepared by the signed-in layout's loader. */
  prepared: PreloadedQuery<NotificationBellQuery> | null | undefined;
  viewerId: string;
  isAdmin: boolean;
};

/**
 * The bell in the app header (SPEC §2, 'Notification bell popover'): its own
 * query, prepared with the signed-in layout, live through `notificationAdded`
 * and polled every 30 s as the fallback.
 */
export function NotificationBell({ prepared, ...props }: NotificationBellProps) {
  const { queryRef } = usePreparedQuery<NotificationBellQuery>(query, prepared);

  const placeholder = <BellButton unread={0} disabled />;
  if (queryRef == null) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LoadedBell {...props} queryRef={queryRef} />
    </Suspense>
  );
}

function BellButton({ unread, ...rest }: { unread: number } & Record<string, unknown>) {
  const styles = useStyles();
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <span className={styles.anchor}>
      <Button appearance="subtle" icon={<Alert24Regular />} aria-label={label} {...rest} />
      {unread > 0 ? <CounterBadge className={styles.badge} count={unread} overflowCount={99} size="small" color="danger" aria-hidden /> : null}
    </span>
  );
}

function LoadedBell({ queryRef, viewerId, isAdmin }: Omit<NotificationBellProps, 'prepared'> & { queryRef: PreloadedQuery<NotificationBellQuery> }) {
  const data = usePreloadedQuery<NotificationBellQuery>(query, queryRef);
  const bell = useFragment(
    graphql`
      fragment NotificationBell_query on Query @argumentDefinitions(count: { type: "Int!" }) {
        notificationCounts {
          total
          unreadCount
        }
        notifications(first: $count) @connection(key: "NotificationBell_notifications") {
          edges {
            node {
              id
              ...NotificationBellItem_notification
            }
          }
        }
      }
    `,
    data as NotificationBell_query$key,
  );
  const environment = useRelayEnvironment();
  const notify = useNotify();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [popoverWanted, setPopoverWanted] = useState(false);

  // A poll read before a mark was saved but answered after it (the 30 s poll sent a moment
  // before a click) would show the notification unread again until the next poll: a poll
  // still in flight when a mark is saved is followed by another.
  const polling = useRef({ inFlight: 0, again: false });
  const refetch = useCallback(
    function poll() {
      const p = polling.current;
      p.inFlight += 1;
      const settle = () => {
        p.inFlight -= 1;
        if (p.inFlight === 0 && p.again) {
          p.again = false;
          // After this answer is done with: asked from its own callbacks, Relay would join the
          // request it is finishing instead of sending a new one.
          window.setTimeout(poll, 0);
        }
      };
      fetchQuery<NotificationBellQuery>(environment, query, { count: BELL_SIZE }, { fetchPolicy: 'network-only' }).subscribe({
        complete: settle,
        error: (error: unknown) => {
          console.warn('Could not refresh notifications', error);
          settle();
        },
      });
    },
    [environment],
  );
  const markSaved = useCallback(() => {
    if (polling.current.inFlight > 0) polling.current.again = true;
  }, []);

  // SPEC §9: polled every 30 s (the fallback to the subscription).
  useEffect(() => {
    const timer = window.setInterval(refetch, NOTIFICATIONS_POLL_MS);
    return () => window.clearInterval(timer);
  }, [refetch]);

  // Live delivery: each notification sent to the viewer is added to the bell
  // (and to the Notifications page when it is loaded), and the counts move.
  const config = useMemo<GraphQLSubscriptionConfig<NotificationBellSubscription>>(
    () => ({
      subscription,
      variables: { isAdmin },
      updater: (store) => {
        const node = store.getRootField('notificationAdded');
        if (node) addNotification(store, node, { visibleToViewer: true });
      },
      onError: (error) => console.warn('Live notifications stopped; polling continues', error),
    }),
    [isAdmin],
  );
  useSubscription<NotificationBellSubscription>(config);

  const markRead = useMarkNotificationRead(
    useCallback(() => {
      notify({ title: 'Failed to mark notification as read', intent: 'error' });
      refetch();
    }, [notify, refetch]),
    isAdmin,
    markSaved,
  );

  const [commitMarkAll, markingAll] = useMutation<NotificationBellMarkAllReadMutation>(markAllMutation);
  const markAll = () => {
    const readAt = new Date().toISOString();
    commitMarkAll({
      variables: {},
      updater: (store, response) => {
        const marked = response?.markAllNotificationsRead ?? 0;
        const mine = new Set<string>();
        // Each record once (the bell and the pages share records): a new reader when it was unread.
        const markOne = (node: RecordProxy) => {
          if (node.getValue('isRead') === true) return;
          node.setValue(true, 'isRead');
          node.setValue(readAt, 'readAt');
          // One more reader: the viewer ('Read by' on the administrators' Notifications page).
          const readers = node.getValue('readCount');
          if (typeof readers === 'number') node.setValue(readers + 1, 'readCount');
        };
        for (const ref of [BELL_CONNECTION, MY_FEED_CONNECTION]) {
          for (const node of connectionNodes(store, ref)) {
            mine.add(node.getDataID());
            markOne(node);
          }
        }
        for (const node of connectionNodes(store, ALL_FEED_CONNECTION)) {
          const forViewer = mine.has(node.getDataID()) || node.getValue('targetType') === 'ALL' || node.getLinkedRecord('targetUser')?.getDataID() === viewerId;
          if (forViewer) markOne(node);
        }
        setUnread(store, 'notificationCounts', 0);
        adjustCounts(store, 'allNotificationCounts', { unread: -marked });
      },
      onCompleted: markSaved,
      onError: () => {
        notify({ title: 'Failed to mark all notifications as read', intent: 'error' });
        refetch();
      },
    });
  };

  const unread = bell.notificationCounts.unreadCount;
  const edges = bell.notifications.edges;

  const bellButton = (props: Record<string, unknown>) => <BellButton unread={unread} {...props} />;
  // The popover's code (Fluent's Popover and positioning, the list's items) loads when the bell is
  // first pointed at, focused or opened: the first load of every signed-in page leaves it out.
  if (!popoverWanted) {
    const openFirst = () => {
      setPopoverWanted(true);
      setOpen(true);
    };
    return bellButton({ onPointerEnter: startPopoverCode, onFocus: startPopoverCode, onClick: openFirst });
  }
  return (
    <Suspense fallback={bellButton({})}>
      <NotificationBellPopover
        open={open}
        onOpenChange={setOpen}
        trigger={bellButton({})}
        unread={unread}
        edges={edges}
        markAll={markAll}
        markingAll={markingAll}
        onMarkRead={markRead}
        onViewAll={() => {
          setOpen(false);
          navigate('/notifications');
        }}
      />
    </Suspense>
  );
}
