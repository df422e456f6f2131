import { Button, Caption1, Link, makeStyles, mergeClasses, Text, tokens, Tooltip } from '@fluentui/react-components';
import { Checkmark16Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { NotificationBellItem_notification$key } from '../../__generated__/NotificationBellItem_notification.graphql';
import { typeIcon } from './notificationKinds';
import { relativeTime } from '../../components/format/relativeTime';
import { fullDateTime } from '../../components/format/dates';
import { LinkButton } from '../../components/forms/LinkButton';

/** SPEC §9: messages over 100 characters are clamped. */
export const MESSAGE_CLAMP = 100;

const useStyles = makeStyles({
  item: {
    display: 'flex',
    columnGap: tokens.spacingHorizontalM,
    paddingTop: tokens.spacingVerticalM,
    paddingBottom: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalM,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
  },
  unread: {
    backgroundColor: tokens.colorBrandBackground2,
  },
  icon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    width: '32px',
    height: '32px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
  },
  urgent: { backgroundColor: tokens.colorPaletteRedBackground2, color: tokens.colorPaletteRedForeground1 },
  warning: { backgroundColor: tokens.colorPaletteYellowBackground2, color: tokens.colorPaletteDarkOrangeForeground1 },
  info: { backgroundColor: tokens.colorPaletteBlueBackground2, color: tokens.colorPaletteBlueForeground2 },
  body: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    flexGrow: 1,
    minWidth: 0,
  },
  title: {
    color: tokens.colorNeutralForeground1,
    overflowWrap: 'anywhere',
  },
  titleUnread: {
    fontWeight: tokens.fontWeightSemibold,
  },
  message: {
    color: tokens.colorNeutralForeground2,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  toggle: {
    alignSelf: 'flex-start',
    fontSize: tokens.fontSizeBase200,
  },
  meta: {
    color: tokens.colorNeutralForeground3,
  },
  action: {
    flexShrink: 0,
    alignSelf: 'flex-start',
  },
});

export type NotificationBellItemProps = {
  notification: NotificationBellItem_notification$key;
  onMarkRead: (id: string) => void;
};

/** One entry of the bell's list (SPEC §2, 'Notification bell popover'). */
export function NotificationBellItem({ notification, onMarkRead }: NotificationBellItemProps) {
  const n = useFragment(
    graphql`
      fragment NotificationBellItem_notification on Notification {
        id
        type
        title
        message
        senderName
        createdAt
        isRead
        link
      }
    `,
    notification,
  );
  const styles = useStyles();
  const [expanded, setExpanded] = useState(false);
  const long = n.message.length > MESSAGE_CLAMP;
  const shown = long && !expanded ? `${n.message.slice(0, MESSAGE_CLAMP).trimEnd()}…` : n.message;
  const kindClass = n.type === 'URGENT' ? styles.urgent : n.type === 'WARNING' ? styles.warning : n.type === 'INFO' ? styles.info : undefined;

  return (
    <li className={mergeClasses(styles.item, !n.isRead && styles.unread)} aria-label={n.isRead ? undefined : `Unread: ${n.title}`}>
      <div className={mergeClasses(styles.icon, kindClass)} aria-hidden>
        {typeIcon(n.type)}
      </div>
      <div className={styles.body}>
        <Text className={mergeClasses(styles.title, !n.isRead && styles.titleUnread)}>{n.title}</Text>
        <Caption1 className={styles.message}>{shown}</Caption1>
        {long ? (
          <Link as="button" className={styles.toggle} onClick={() => setExpanded((v) => !v)} aria-expanded={expanded}>
            {expanded ? 'See less' : 'See more'}
          </Link>
        ) : null}
        {n.link ? (
          <LinkButton to={n.link} appearance="transparent" size="small" className={styles.toggle}>
            Open
          </LinkButton>
        ) : null}
        <Caption1 className={styles.meta}>
          {n.senderName ? `From: ${n.senderName} · ` : null}
          <time dateTime={n.createdAt} title={fullDateTime(n.createdAt)}>
            {relativeTime(n.createdAt)}
          </time>
        </Caption1>
      </div>
      {n.isRead ? null : (
        <Tooltip content="Mark as read" relationship="label">
          <Button className={styles.action} appearance="subtle" size="small" icon={<Checkmark16Regular />} onClick={() => onMarkRead(n.id)} />
        </Tooltip>
      )}
    </li>
  );
}
