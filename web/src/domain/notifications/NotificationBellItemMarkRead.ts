import { graphql, useMutation } from 'react-relay';
import type { NotificationBellItemMarkReadMutation } from '../../__generated__/NotificationBellItemMarkReadMutation.graphql';
import { adjustCounts } from './notificationStore';

// Apart from the bell's list items (NotificationBellItem.tsx), whose code loads with the bell's popover:
// the bell and the Notifications page mark notifications read without it.
const markReadMutation = graphql`
  mutation NotificationBellItemMarkReadMutation($id: ID!, $isAdmin: Boolean!) {
    markNotificationRead(id: $id) {
      __typename
      ... on MutationMarkNotificationReadSuccess {
        data {
          id
          isRead
          readAt
          readCount @include(if: $isAdmin)
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/**
 * SPEC §4: marks one notification read, optimistically (read with a
 * timestamp, unread count down by one, never below zero), rolled back on
 * failure. `onFailed` shows the SPEC's toast and refetches; `onSaved`, when
 * the server has answered. For an administrator the notification's 'Read by'
 * count comes back with it.
 */
export function useMarkNotificationRead(onFailed: () => void, isAdmin: boolean, onSaved?: () => void) {
  const [commit] = useMutation<NotificationBellItemMarkReadMutation>(markReadMutation);
  return (id: string) => {
    const decrement = (store: Parameters<typeof adjustCounts>[0]) => {
      adjustCounts(store, 'notificationCounts', { unread: -1 });
      adjustCounts(store, 'allNotificationCounts', { unread: -1 });
    };
    commit({
      // Administrators see 'Read by': the server's count comes back with the read state.
      variables: { id, isAdmin },
      optimisticResponse: {
        markNotificationRead: {
          __typename: 'MutationMarkNotificationReadSuccess',
          data: { id, isRead: true, readAt: new Date().toISOString() },
        },
      },
      optimisticUpdater: decrement,
      updater: (store) => {
        if (store.getRootField('markNotificationRead')?.getValue('__typename') === 'MutationMarkNotificationReadSuccess') {
          decrement(store);
        }
      },
      onCompleted: (response) => {
        if (response.markNotificationRead.__typename !== 'MutationMarkNotificationReadSuccess') onFailed();
        else onSaved?.();
      },
      onError: () => onFailed(),
    });
  };
}
