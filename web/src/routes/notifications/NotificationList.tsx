import { Body1, Button, Card, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { AlertOff24Regular } from '@fluentui/react-icons';
import { useCallback } from 'react';
import type { NotificationCard_notification$key } from '../../__generated__/NotificationCard_notification.graphql';
import { useMarkNotificationRead } from '../../domain/notifications/NotificationBellItemMarkRead';
import { useNotify } from '../../components/forms/toast';
import { NotificationCard } from './NotificationCard';

/** SPEC §2: the tabs filter by type (GraphQL's NotificationType); General holds general and info. */
export type NotificationTab = 'all' | 'general' | 'urgent' | 'warning';

export function matchesTab(tab: NotificationTab, type: string): boolean {
  if (tab === 'all') return true;
  if (tab === 'general') return type === 'GENERAL' || type === 'INFO';
  return type === tab.toUpperCase();
}

const useStyles = makeStyles({
  list: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalXXXL,
    paddingBottom: tokens.spacingVerticalXXXL,
    color: tokens.colorNeutralForeground3,
  },
  more: {
    alignSelf: 'center',
  },
});

export type NotificationListItem = {
  id: string;
  type: string;
  ' $fragmentSpreads': NotificationCard_notification$key[' $fragmentSpreads'];
};

export type NotificationListProps = {
  items: ReadonlyArray<NotificationListItem>;
  tab: NotificationTab;
  viewerId: string;
  isAdmin: boolean;
  hasNext: boolean;
  isLoadingNext: boolean;
  onLoadMore: () => void;
};

export function NotificationList({ items, tab, viewerId, isAdmin, hasNext, isLoadingNext, onLoadMore }: NotificationListProps) {
  const styles = useStyles();
  const notify = useNotify();
  const markRead = useMarkNotificationRead(
    useCallback(() => notify({ title: 'Failed to mark notification as read', intent: 'error' }), [notify]),
    isAdmin,
  );
  const shown = items.filter((item) => matchesTab(tab, item.type));

  return (
    <div className={styles.list}>
      {shown.length === 0 ? (
        <Card appearance="filled-alternative" className={styles.empty}>
          <AlertOff24Regular aria-hidden />
          <Body1>No notifications found</Body1>
        </Card>
      ) : (
        shown.map((item) => <NotificationCard key={item.id} notification={item} viewerId={viewerId} isAdmin={isAdmin} onMarkRead={markRead} />)
      )}
      {hasNext ? (
        <Button className={styles.more} onClick={onLoadMore} disabled={isLoadingNext} icon={isLoadingNext ? <Spinner size="tiny" /> : undefined}>
          Load more
        </Button>
      ) : null}
    </div>
  );
}
