import type { BadgeProps } from '@fluentui/react-components';
import { Alert20Regular, ErrorCircle20Regular, Info20Regular, Warning20Regular } from '@fluentui/react-icons';
import type { ReactElement } from 'react';
import type { NotificationType } from '../../__generated__/NotificationBellItem_notification.graphql';

/** SPEC §9: notification types. */
export type NotificationKind = Exclude<NotificationType, '%future added value'>;

export const NOTIFICATION_TYPE_OPTIONS: ReadonlyArray<{ value: NotificationKind; label: string }> = [
  { value: 'GENERAL', label: 'General' },
  { value: 'INFO', label: 'Information' },
  { value: 'WARNING', label: 'Warning' },
  { value: 'URGENT', label: 'Urgent' },
];

export function typeLabel(type: string): string {
  return NOTIFICATION_TYPE_OPTIONS.find((o) => o.value === type)?.label ?? 'General';
}

/** SPEC §2 (Notifications): an emoji by type. */
export function typeEmoji(type: string): string {
  switch (type) {
    case 'URGENT':
      return '🚨';
    case 'WARNING':
      return '⚠️';
    case 'INFO':
      return 'ℹ️';
    default:
      return '📢';
  }
}

/** SPEC §2 (Notification bell): the icon depends on the type (urgent, warning, info, default). */
export function typeIcon(type: string): ReactElement {
  switch (type) {
    case 'URGENT':
      return <ErrorCircle20Regular />;
    case 'WARNING':
      return <Warning20Regular />;
    case 'INFO':
      return <Info20Regular />;
    default:
      return <Alert20Regular />;
  }
}

export function typeBadgeColor(type: string): BadgeProps['color'] {
  switch (type) {
    case 'URGENT':
      return 'danger';
    case 'WARNING':
      return 'warning';
    case 'INFO':
      return 'informative';
    default:
      return 'brand';
  }
}
