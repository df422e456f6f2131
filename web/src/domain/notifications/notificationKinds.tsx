import type { BadgeProps } from '@fluentui/react-components';
import {
  Alert20Regular,
  ErrorCircle20Regular,
  Info20Regular,
  Warning20Regular,
} from '@fluentui/react-icons';
import type { ReactElement } from 'react';

/** SPEC §9: notification types. */
export type NotificationKind = 'general' | 'info' | 'warning' | 'urgent';

export const NOTIFICATION_TYPE_OPTIONS: ReadonlyArray<{ value: NotificationKind; label: string }> = [
  { value: 'general', label: 'General' },
  { value: 'info', label: 'Information' },
  { value: 'warning', label: 'Warning' },
  { value: 'urgent', label: 'Urgent' },
];

export function typeLabel(type: string): string {
  return NOTIFICATION_TYPE_OPTIONS.find((o) => o.value === type)?.label ?? 'General';
}

/** SPEC §2 (Notifications): an emoji by type. */
export function typeEmoji(type: string): string {
  switch (type) {
    case 'urgent':
      return '🚨';
    case 'warning':
      return '⚠️';
    case 'info':
      return 'ℹ️';
    default:
      return '📢';
  }
}

/** SPEC §2 (Notification bell): the icon depends on the type (urgent, warning, info, default). */
export function typeIcon(type: string): ReactElement {
  switch (type) {
    case 'urgent':
      return <ErrorCircle20Regular />;
    case 'warning':
      return <Warning20Regular />;
    case 'info':
      return <Info20Regular />;
    default:
      return <Alert20Regular />;
  }
}

export function typeBadgeColor(type: string): BadgeProps['color'] {
  switch (type) {
    case 'urgent':
      return 'danger';
    case 'warning':
      return 'warning';
    case 'info':
      return 'informative';
    default:
      return 'brand';
  }
}
