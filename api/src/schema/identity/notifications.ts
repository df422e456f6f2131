import { encodeGlobalID } from '@pothos/plugin-relay';
// Notifications: the node, the viewer's list and counts, the administrators'
// list, sending, read state, deleting, and live delivery.
import { filter, pipe } from 'graphql-yoga';
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { listOrder } from '../ordering.js';
import { UserNode } from './users.js';
import { ValidationError } from '../../core/errors.js';
import * as notifications from '../../services/identity/notifications.js';
import { access, stillSignedIn } from '../../context.js';

export const NotificationTypeEnum = enumOf('NotificationType', {
  description: 'How urgent a notification is.',
  values: ['general', 'info', 'warning', 'urgent'] as const,
  descriptions: {
    general: 'General news from an administrator, not tied to a review task.',
    info: 'For information: nothing to do (shown in blue).',
    warning: 'Something needs attention soon, e.g. a deadline nearing (shown in amber).',
    urgent: 'Urgent: act now.',
  },
});
export const NotificationTargetEnum = enumOf('NotificationTarget', {
  description: 'Whom a notification is sent to.',
  values: ['all', 'specific'] as const,
  descriptions: {
    all: 'Every user.',
    specific: 'One user (targetUserId).',
  },
});

export const NotificationNode = builder.prismaNode('Notification', {
  description: 'A message an administrator sent to everyone or to one user.',
  id: { field: 'id', description: 'The notification’s global id.' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  // Administrators see every notification; others only those sent to them.
  authScopes: (n, ctx) => access.admin(ctx.user) || (access.signedIn(ctx.user) && notifications.isVisibleTo(n, ctx.user!.id)),
  fields: (t) => ({
    type: t.expose('type', { type: NotificationTypeEnum, description: 'How urgent it is (sets its icon).' }),
    title: t.exposeString('title', { description: 'The one-line heading shown in the bell menu and the list.' }),
    message: t.exposeString('message', { description: 'The body of the notification, as the sender wrote it (plain text).' }),
    senderName: t.exposeString('senderName', { nullable: true, description: 'Who sent it.' }),
    targetType: t.expose('targetType', { type: NotificationTargetEnum, description: 'Sent to everyone or to one user.' }),
    targetUser: t.relation('targetUser', {
      nullable: true,
      authScopes: { admin: true },
      description: 'The one user it was sent to (null when sent to everyone).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was sent.' }),
    link: t.exposeString('link', {
      nullable: true,
      description: 'The page of the app it points to, as a path (e.g. /questions/<id> for a question asked of the viewer); null: none.',
    }),
    /** Read state of the viewer. */
    readAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the viewer read it.',
      select: (_args, ctx) => ({ reads: { where: { userId: ctx.user?.id ?? '00000000-0000-0000-0000-000000000000' }, select: { readAt: true } } }),
      resolve: (n) => n.reads[0]?.readAt ?? null,
    }),
    isRead: t.boolean({
      description: 'The viewer has read it.',
      select: (_args, ctx) => ({ reads: { where: { userId: ctx.user?.id ?? '00000000-0000-0000-0000-000000000000' }, select: { readAt: true } } }),
      resolve: (n) => n.reads.length > 0,
    }),
    /** How many users have read it (administrators). */
    readCount: t.relationCount('reads', { authScopes: { admin: true }, description: 'How many users have read it.' }),
  }),
});

const NotificationCounts = builder.objectRef<{ total: number; unreadCount: number }>('NotificationCounts').implement({
  description: 'Notifications counted.',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'How many.' }),
    unreadCount: t.exposeInt('unreadCount', { description: 'Of those, how many the viewer has not read.' }),
  }),
});

const notificationOrder = listOrder(
  'Notification',
  'notifications',
  {
    CREATED_AT: { columns: ['createdAt'], description: 'When the notification was sent.' },
    TITLE: { columns: ['title'], description: 'The notification’s title.' },
    TYPE: { columns: ['type'], description: 'The kind of notification.' },
  },
  { field: 'CREATED_AT', direction: 'desc' },
);

builder.queryFields((t) => ({
  notifications: t.prismaConnection({
    type: 'Notification',
    cursor: 'id',
    description: "The viewer's notifications, newest first unless `orderBy` says otherwise.",
    authScopes: { signedIn: true },
    args: notificationOrder.arg(),
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.notification.findMany({
        ...runnable(query),
        where: notifications.visibleTo(ctx.user!.id),
        orderBy: notificationOrder.orderBy<Prisma.NotificationOrderByWithRelationInput>(args.orderBy),
      }),
    totalCount: (_root, _args, ctx) => ctx.prisma.notification.count({ where: notifications.visibleTo(ctx.user!.id) }),
  }),
  notificationCounts: t.field({
    type: NotificationCounts,
    description: "Totals for the viewer's notifications.",
    authScopes: { signedIn: true },
    resolve: async (_root, _args, ctx) => {
      const where = notifications.visibleTo(ctx.user!.id);
      const [total, unreadCount] = await Promise.all([ctx.prisma.notification.count({ where }), notifications.unreadCount(ctx.caller!, where)]);
      return { total, unreadCount };
    },
  }),
  allNotifications: t.prismaConnection({
    type: 'Notification',
    cursor: 'id',
    description: 'Every notification sent, newest first unless `orderBy` says otherwise (administrators).',
    authScopes: { admin: true },
    args: notificationOrder.arg(),
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.notification.findMany({ ...runnable(query), orderBy: notificationOrder.orderBy<Prisma.NotificationOrderByWithRelationInput>(args.orderBy) }),
    totalCount: (_root, _args, ctx) => ctx.prisma.notification.count(),
  }),
  allNotificationCounts: t.field({
    type: NotificationCounts,
    description: 'Totals over every notification sent; unread counts those addressed to the viewer that they have not read (administrators).',
    authScopes: { admin: true },
    resolve: async (_root, _args, ctx) => {
      const [total, unreadCount] = await Promise.all([
        ctx.prisma.notification.count(),
        notifications.unreadCount(ctx.caller!, notifications.visibleTo(ctx.user!.id)),
      ]);
      return { total, unreadCount };
    },
  }),
}));

const SendNotificationInput = builder.inputType('SendNotificationInput', {
  description: 'A notification to send.',
  fields: (t) => ({
    title: t.string({ required: true, description: 'Its title (required).' }),
    message: t.string({ required: true, description: 'Its text (required).' }),
    type: t.field({ type: NotificationTypeEnum, required: true, description: 'How urgent it is.' }),
    targetType: t.field({ type: NotificationTargetEnum, required: true, description: 'Everyone or one user.' }),
    targetUserId: t.globalID({ for: UserNode, description: 'With `specific`: the user’s global id.' }),
  }),
});

builder.mutationFields((t) => ({
  sendNotification: t.prismaField({
    type: 'Notification',
    description: 'Sends a notification (administrators); it arrives at once over notificationAdded.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      input: t.arg({
        type: SendNotificationInput,
        required: true,
        description: 'The title, message, type and recipients (every user or one) of the notification.',
      }),
    },
    resolve: async (query, _root, { input }, ctx) => {
      const n = await notifications.sendNotification(ctx.caller!, { ...input, targetUserId: input.targetUserId?.id ?? null });
      return ctx.prisma.notification.findUniqueOrThrow({ ...runnable(query), where: { id: n.id } });
    },
  }),
  markNotificationRead: t.prismaField({
    type: 'Notification',
    description: 'Marks one of the viewer’s notifications read.',
    authScopes: { signedIn: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: NotificationNode, description: 'The notification’s global id.' }) },
    resolve: async (query, _root, { id }, ctx) => {
      await notifications.markRead(ctx.caller!, id.id);
      return ctx.prisma.notification.findUniqueOrThrow({ ...runnable(query), where: { id: id.id } });
    },
  }),
  markAllNotificationsRead: t.int({
    description: 'Marks every notification of the viewer read; returns how many were unread.',
    authScopes: { signedIn: true },
    resolve: (_root, _args, ctx) => notifications.markAllRead(ctx.caller!),
  }),
  deleteNotification: t.field({
    type: 'ID',
    description: 'Deletes a notification; returns its id.',
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: NotificationNode, description: 'The notification’s global id.' }) },
    resolve: async (_root, { id }, ctx) => {
      await notifications.deleteNotification(ctx.caller!, id.id);
      return encodeGlobalID('Notification', id.id);
    },
  }),
}));

builder.subscriptionFields((t) => ({
  notificationAdded: t.prismaField({
    type: 'Notification',
    description: 'A notification sent to the viewer (directly or to all users), as it is sent.',
    authScopes: { signedIn: true },
    subscribe: (_root, _args, ctx) =>
      pipe(
        ctx.pubsub.subscribe('notification:added'),
        // Only to the users it targets, and only while their session lasts.
        filter(async (e) => notifications.isVisibleTo(e, ctx.user!.id) && (await stillSignedIn(ctx))),
      ),
    resolve: (query, payload: { notificationId: string }, _args, ctx) =>
      ctx.prisma.notification.findUniqueOrThrow({ ...runnable(query), where: { id: payload.notificationId } }),
  }),
}));
