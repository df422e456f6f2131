import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  mergeClasses,
  Spinner,
  Subtitle2,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { Checkmark16Regular, Delete20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import { LinkButton } from '../../components/forms/LinkButton';
import type { NotificationCard_notification$data, NotificationCard_notification$key } from '../../__generated__/NotificationCard_notification.graphql';
import type { NotificationCardDeleteMutation } from '../../__generated__/NotificationCardDeleteMutation.graphql';
import { shownName } from '../../domain/users/userNames';
import { typeBadgeColor, typeEmoji, typeLabel } from '../../domain/notifications/notificationKinds';
import { ALL_FEED_CONNECTION, BELL_CONNECTION, MY_FEED_CONNECTION, adjustCounts, connectionId } from '../../domain/notifications/notificationStore';
import { relativeTime } from '../../components/format/relativeTime';
import { fullDateTime } from '../../components/format/dates';
import { useNotify } from '../../components/forms/toast';
import { dangerButton } from '../../components/layout/pageStyles';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'row',
    alignItems: 'flex-start',
    columnGap: tokens.spacingHorizontalL,
    padding: tokens.spacingHorizontalL,
  },
  unread: {
    borderLeft: `${tokens.strokeWidthThicker} solid ${tokens.colorBrandStroke1}`,
  },
  emoji: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    width: '40px',
    height: '40px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground3,
    fontSize: tokens.fontSizeBase500,
  },
  body: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
    flexGrow: 1,
    minWidth: 0,
  },
  titleRow: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXXS,
  },
  title: {
    margin: 0,
    overflowWrap: 'anywhere',
  },
  message: {
    color: tokens.colorNeutralForeground2,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  meta: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    color: tokens.colorNeutralForeground3,
  },
  actions: {
    display: 'flex',
    flexShrink: 0,
    columnGap: tokens.spacingHorizontalXS,
  },
  danger: {
    color: tokens.colorPaletteRedForeground1,
  },
  dangerButton,
});

const deleteMutation = graphql`
  mutation NotificationCardDeleteMutation($id: ID!, $connections: [ID!]!) {
    deleteNotification(id: $id) {
      __typename
      ... on MutationDeleteNotificationSuccess {
        data @deleteEdge(connections: $connections)
      }
      ... on Error {
        message
      }
    }
  }
`;

export type NotificationCardProps = {
  notification: NotificationCard_notification$key;
  viewerId: string;
  isAdmin: boolean;
  onMarkRead: (id: string) => void;
};

/** One notification on the Notifications page (SPEC §2). */
export function NotificationCard({ notification, viewerId, isAdmin, onMarkRead }: NotificationCardProps) {
  const n = useFragment(
    graphql`
      fragment NotificationCard_notification on Notification @argumentDefinitions(isAdmin: { type: "Boolean", defaultValue: false }) {
        id
        type
        title
        message
        link
        senderName
        targetType
        createdAt
        isRead
        targetUser @include(if: $isAdmin) {
          id
          firstName
          lastName
          displayName
          email
        }
        readCount @include(if: $isAdmin)
      }
    `,
    notification,
  );
  const styles = useStyles();
  const visibleToViewer = n.targetType === 'ALL' || n.targetUser?.id === viewerId || !isAdmin;
  const target = n.targetType === 'ALL' ? 'All users' : 'Specific user';

  const { confirming, setConfirming, deleting, onDelete } = useDeleteNotification(n, visibleToViewer);

  return (
    <Card className={mergeClasses(styles.card, !n.isRead && visibleToViewer && styles.unread)} role="article" aria-label={n.title}>
      <div className={styles.emoji} aria-hidden>
        {typeEmoji(n.type)}
      </div>
      <div className={styles.body}>
        <div className={styles.titleRow}>
          <Subtitle2 as="h3" className={styles.title}>
            {n.title}
          </Subtitle2>
          <Badge appearance="tint" color={typeBadgeColor(n.type)} size="small">
            {typeLabel(n.type)}
          </Badge>
          <Badge appearance="outline" color="informative" size="small">
            {target}
          </Badge>
          {!n.isRead && visibleToViewer ? (
            <Badge appearance="filled" color="brand" size="small">
              Unread
            </Badge>
          ) : null}
        </div>
        <Body1 className={styles.message}>{n.message}</Body1>
        {n.link ? (
          <LinkButton to={n.link} appearance="transparent" size="small">
            Open
          </LinkButton>
        ) : null}
        <NotificationMeta n={n} isAdmin={isAdmin} />
      </div>
      <div className={styles.actions}>
        {!n.isRead && visibleToViewer ? (
          <Tooltip content="Mark as read" relationship="label">
            <Button appearance="subtle" icon={<Checkmark16Regular />} onClick={() => onMarkRead(n.id)} />
          </Tooltip>
        ) : null}
        {isAdmin ? (
          <Tooltip content="Delete notification" relationship="label">
            <Button appearance="subtle" icon={<Delete20Regular className={styles.danger} />} onClick={() => setConfirming(true)} />
          </Tooltip>
        ) : null}
      </div>
      {isAdmin ? <DeleteDialog open={confirming} onOpenChange={setConfirming} deleting={deleting} onDelete={onDelete} /> : null}
    </Card>
  );
}

type Notification = NotificationCard_notification$data;

/** Deleting the notification (administrators), after its confirmation; the feeds' and the bell's counts follow. */
function useDeleteNotification(n: Notification, visibleToViewer: boolean) {
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);
  const [commitDelete, deleting] = useMutation<NotificationCardDeleteMutation>(deleteMutation);

  const fail = () => notify({ title: 'Error', description: 'Failed to delete notification', intent: 'error' });

  const onDelete = () => {
    // Unread counts only what the viewer can read.
    const unread = n.isRead || !visibleToViewer ? 0 : -1;
    commitDelete({
      variables: {
        id: n.id,
        connections: [connectionId(ALL_FEED_CONNECTION), connectionId(MY_FEED_CONNECTION), connectionId(BELL_CONNECTION)],
      },
      updater: (store) => {
        if (store.getRootField('deleteNotification')?.getValue('__typename') !== 'MutationDeleteNotificationSuccess') return;
        adjustCounts(store, 'allNotificationCounts', { total: -1, unread });
        if (visibleToViewer) adjustCounts(store, 'notificationCounts', { total: -1, unread });
      },
      onCompleted: (response) => {
        if (response.deleteNotification.__typename === 'MutationDeleteNotificationSuccess') {
          setConfirming(false);
          notify({ title: 'Notification deleted', description: 'The notification has been deleted successfully.', intent: 'success' });
        } else {
          fail();
        }
      },
      onError: fail,
    });
  };

  return { confirming, setConfirming, deleting, onDelete };
}

/** When it was sent, by whom, to whom, and (administrators) how many read it. */
function NotificationMeta({ n, isAdmin }: { n: Notification; isAdmin: boolean }) {
  const styles = useStyles();
  const targetName = n.targetUser ? shownName(n.targetUser.displayName) : null;
  return (
    <Caption1 className={styles.meta}>
      <time dateTime={n.createdAt} title={fullDateTime(n.createdAt)}>
        {relativeTime(n.createdAt)}
      </time>
      {n.senderName ? <span>By: {n.senderName}</span> : null}
      {targetName ? <span title={n.targetUser?.email}>To: {targetName}</span> : null}
      {isAdmin && n.readCount != null ? <span>Read by {n.readCount}</span> : null}
    </Caption1>
  );
}

function DeleteDialog({
  open,
  onOpenChange,
  deleting,
  onDelete,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  deleting: boolean;
  onDelete: () => void;
}) {
  const styles = useStyles();
  return (
    <Dialog open={open} onOpenChange={(_, d) => !deleting && onOpenChange(d.open)} modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Delete Notification</DialogTitle>
          <DialogContent>Are you sure you want to delete this notification? This action cannot be undone.</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => onOpenChange(false)} disabled={deleting}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              className={deleting ? undefined : styles.dangerButton}
              onClick={onDelete}
              disabled={deleting}
              icon={deleting ? <Spinner size="tiny" /> : undefined}
            >
              Delete
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
