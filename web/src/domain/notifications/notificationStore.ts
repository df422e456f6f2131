import { ConnectionHandler, ROOT_ID, type RecordProxy, type RecordSourceProxy } from 'relay-runtime';

/**
 * The client's notification connections and counts, kept in step by the
 * subscription and the mutations' updaters (ARCHITECTURE.md, Conventions 7):
 * a notification is inserted into a connection only when it is not there
 * already (the subscription and the sender's own mutation may both deliver
 * it), and a count moves only when its connection actually changed.
 */
export const BELL_CONNECTION = { key: 'NotificationBell_notifications', edgeType: 'QueryNotificationsConnectionEdge' } as const;
export const MY_FEED_CONNECTION = { key: 'MyNotificationsFeed_notifications', edgeType: 'QueryNotificationsConnectionEdge' } as const;
export const ALL_FEED_CONNECTION = {
  key: 'AllNotificationsFeed_allNotifications',
  edgeType: 'QueryAllNotificationsConnectionEdge',
} as const;

type ConnectionRef = { key: string; edgeType: string };

export function connectionId(ref: ConnectionRef): string {
  return ConnectionHandler.getConnectionID(ROOT_ID, ref.key);
}

function connectionRecord(store: RecordSourceProxy, ref: ConnectionRef): RecordProxy | null {
  return store.get(connectionId(ref)) ?? null;
}

function hasNode(connection: RecordProxy, id: string): boolean {
  const edges = connection.getLinkedRecords('edges') ?? [];
  return edges.some((edge) => edge?.getLinkedRecord('node')?.getDataID() === id);
}

/** Prepends `node` to the connection unless it is absent from the store or holds the node already. */
export function prependIfAbsent(store: RecordSourceProxy, ref: ConnectionRef, node: RecordProxy): boolean {
  const connection = connectionRecord(store, ref);
  if (connection == null || hasNode(connection, node.getDataID())) return false;
  const edge = ConnectionHandler.createEdge(store, connection, node, ref.edgeType);
  ConnectionHandler.insertEdgeBefore(connection, edge);
  return true;
}

/** The nodes currently in a connection. */
export function connectionNodes(store: RecordSourceProxy, ref: ConnectionRef): RecordProxy[] {
  const connection = connectionRecord(store, ref);
  const edges = connection?.getLinkedRecords('edges') ?? [];
  return edges.map((edge) => edge?.getLinkedRecord('node')).filter((n): n is RecordProxy => n != null);
}

export type CountsField = 'notificationCounts' | 'allNotificationCounts';

/** Adds to a root counts record (never below zero); no-op when the record is not loaded. */
export function adjustCounts(store: RecordSourceProxy, field: CountsField, delta: { total?: number; unread?: number }): void {
  const counts = store.getRoot().getLinkedRecord(field);
  if (counts == null) return;
  if (delta.total) {
    const total = counts.getValue('total');
    if (typeof total === 'number') counts.setValue(Math.max(0, total + delta.total), 'total');
  }
  if (delta.unread) {
    const unread = counts.getValue('unreadCount');
    if (typeof unread === 'number') counts.setValue(Math.max(0, unread + delta.unread), 'unreadCount');
  }
}

export function setUnread(store: RecordSourceProxy, field: CountsField, value: number): void {
  store.getRoot().getLinkedRecord(field)?.setValue(value, 'unreadCount');
}

/**
 * A notification has arrived for the viewer (subscription) or was sent by the
 * viewer (mutation): add it wherever it belongs and move the counts once.
 */
export function addNotification(store: RecordSourceProxy, node: RecordProxy, options: { visibleToViewer: boolean }): void {
  const unread = node.getValue('isRead') === true ? 0 : 1;
  if (options.visibleToViewer) {
    if (prependIfAbsent(store, BELL_CONNECTION, node)) {
      adjustCounts(store, 'notificationCounts', { total: 1, unread });
    }
    prependIfAbsent(store, MY_FEED_CONNECTION, node);
  }
  if (prependIfAbsent(store, ALL_FEED_CONNECTION, node)) {
    // Unread counts only what the viewer can read (allNotificationCounts).
    adjustCounts(store, 'allNotificationCounts', { total: 1, unread: options.visibleToViewer ? unread : 0 });
  }
}
