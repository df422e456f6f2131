import { Body1, Button, Divider, makeStyles, Popover, PopoverSurface, PopoverTrigger, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { AlertOff24Regular, CheckmarkCircle16Regular } from '@fluentui/react-icons';
import type { ReactElement } from 'react';
import type { NotificationBellItem_notification$key } from '../../__generated__/NotificationBellItem_notification.graphql';
import { NotificationBellItem } from './NotificationBellItem';

const useStyles = makeStyles({
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

export type NotificationBellPopoverProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The bell's button. */
  trigger: ReactElement;
  unread: number;
  edges: ReadonlyArray<{ readonly node: { readonly id: string } & NotificationBellItem_notification$key }>;
  markAll: () => void;
  markingAll: boolean;
  onMarkRead: (id: string) => void;
  onViewAll: () => void;
};

/** The bell's popover (SPEC §2, 'Notification bell popover'): a chunk of its own, loaded when the bell is first used. */
export default function NotificationBellPopover({
  open,
  onOpenChange,
  trigger,
  unread,
  edges,
  markAll,
  markingAll,
  onMarkRead,
  onViewAll,
}: NotificationBellPopoverProps) {
  const styles = useStyles();
  return (
    <Popover open={open} onOpenChange={(_, d) => onOpenChange(d.open)} positioning={{ position: 'below', align: 'end' }} trapFocus withArrow={false}>
      <PopoverTrigger disableButtonEnhancement>{trigger}</PopoverTrigger>
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
            edges.map((edge) => <NotificationBellItem key={edge.node.id} notification={edge.node} onMarkRead={onMarkRead} />)
          )}
        </ul>
        <div className={styles.footer}>
          <Button appearance="transparent" className={styles.footerButton} onClick={onViewAll}>
            View all notifications
          </Button>
        </div>
      </PopoverSurface>
    </Popover>
  );
}
