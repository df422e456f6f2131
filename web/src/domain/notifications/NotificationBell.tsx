import {
  Body1,
  Button,
  CounterBadge,
  Divider,
  makeStyles,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Spinner,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { Alert24Regular, AlertOff24Regular, CheckmarkCircle16Regular } from '@fluentui/react-icons';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import {
  graphql,
  useFragment,
  useMutation,
  usePreloadedQuery,
  useRelayEnvironment,
  useSubscription,
  type PreloadedQuery,
} from 'react-relay';
import { useNavigate } from 'react-router';
import { fetchQuery, type GraphQLSubscriptionConfig, type RecordProxy } from 'relay-runtime';
import type { NotificationBell_query$key } from '../../__generated__/NotificationBell_query.graphql';
import type { NotificationBellMarkAllReadMutation } from '../../__generated__/NotificationBellMarkAllReadMutation.graphql';
import type { NotificationBellQuery } from '../../__generated__/NotificationBellQuery.graphql';
import type { NotificationBellSubscription } from '../../__generated__/NotificationBellSubscription.graphql';
import { NotificationBellItem, useMarkNotificationRead } from './NotificationBellItem';
import {
  ALL_FEED_CONNECTION,
  BELL_CONNECTION,
  MY_FEED_CONNECTION,
  addNotification,
  adjustCounts,
  connectionNodes,
  setUnread,
} from './notificationStore';
import { useNotify } from '../../components/toast';
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
  surface: {
    width: '380px',
    maxWidth: 'calc(100vw - 24px)',
    boxSizing: 'border-box',
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
  },
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    columnGap: tokens.spacingHorizontalM,
    paddingTop: tokens.spacingVerticalM,
    paddingBottom: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalS,
  },
  heading: {
    margin: 0,
  },
  list: {
    height: '400px',
    overflowY: 'auto',
    margin: 0,
    padding: 0,
    listStyleType: 'none',
  },
  empty: {
    height: '100%',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    rowGap: tokens.spacingVerticalS,
    color: tokens.colorNeutralForeground3,
  },
  footer: {
    display: 'flex',
    justifyContent: 'center',
    paddingTop: tokens.spacingVerticalS,
    paddingBottom: tokens.spacingVerticalS,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  footerButton: {
    width: '100%',
    marginLeft: tokens.spacingHorizontalS,
    marginRight: tokens.spacingHorizontalS,
  },
});

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

function LoadedBell({
  queryRef,
  viewerId,
  isAdmin,
}: Omit<NotificationBellProps, 'prepared'> & { queryRef: PreloadedQuery<NotificationBellQuery> }) {
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
  const styles = useStyles();
  const environment = useRelayEnvironment();
  const notify = useNotify();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  const refetch = useCallback(() => {
    fetchQuery<NotificationBellQuery>(environment, query, { count: BELL_SIZE }, { fetchPolicy: 'network-only' }).subscribe({
      error: (error: unknown) => console.warn('Could not refresh notifications', error),
    });
  }, [environment]);

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
          const forViewer =
            mine.has(node.getDataID()) ||
            node.getValue('targetType') === 'ALL' ||
            node.getLinkedRecord('targetUser')?.getDataID() === viewerId;
          if (forViewer) markOne(node);
        }
        setUnread(store, 'notificationCounts', 0);
        adjustCounts(store, 'allNotificationCounts', { unread: -marked });
      },
      onError: () => {
        notify({ title: 'Failed to mark all notifications as read', intent: 'error' });
        refetch();
      },
    });
  };

  const unread = bell.notificationCounts.unreadCount;
  const edges = bell.notifications.edges;

  return (
    <Popover
      open={open}
      onOpenChange={(_, d) => setOpen(d.open)}
      positioning={{ position: 'below', align: 'end' }}
      trapFocus
      withArrow={false}
    >
      <PopoverTrigger disableButtonEnhancement>
        <BellButton unread={unread} />
      </PopoverTrigger>
      <PopoverSurface className={styles.surface} aria-labelledby="notification-bell-title">
        <div className={styles.header}>
          <Subtitle2 as="h2" id="notification-bell-title" className={styles.heading}>
            Notifications
          </Subtitle2>
          <Button
            appearance="subtle"
            size="small"
            icon={markingAll ? <Spinner size="extra-tiny" /> : <CheckmarkCircle16Regular />}
            onClick={markAll}
            disabled={markingAll || unread === 0}
          >
            Mark all read
          </Button>
        </div>
        <Divider />
        <ul className={styles.list} aria-label="Notification list">
          {edges.length === 0 ? (
            <li className={styles.empty}>
              <AlertOff24Regular aria-hidden />
              <Body1>No notifications</Body1>
            </li>
          ) : (
            edges.map((edge) => <NotificationBellItem key={edge.node.id} notification={edge.node} onMarkRead={markRead} />)
          )}
        </ul>
        <div className={styles.footer}>
          <Button
            appearance="transparent"
            className={styles.footerButton}
            onClick={() => {
              setOpen(false);
              navigate('/notifications');
            }}
          >
            View all notifications
          </Button>
        </div>
      </PopoverSurface>
    </Popover>
  );
}
