// Notifications: administrators send to everyone or to one user; each user has
// their own read state, so an 'all users' notification is read or unread per
// person. Delivery is live (pub/sub, filtered per user) with polling as the
// fallback the SPEC describes.
import { z } from 'zod';
import type { Notification, NotificationType, Prisma, PrismaClient, User } from '../../generated/prisma/client.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { displayName } from '../../core/people.js';
import { isSingleLine, parseOrThrow, singleLineMessage } from '../../core/validation.js';
import type { Actor, DbClient } from '../../core/types.js';
import { isUuid } from '../../core/types.js';
import type { PubSub } from '../../pubsub.js';
import type { Caller } from '../caller.js';

export interface NotificationDeps {
  prisma: PrismaClient;
  pubsub: PubSub;
}

/** Also the REST edge's body schema (rest/identity/notifications.ts). */
export const sendSchema = z.object({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(200, 'Title is too long (200 characters at most)')
    .refine(isSingleLine, singleLineMessage('Title')),
  message: z.string({ error: 'Message is required' }).trim().min(1, 'Message is required').max(5000, 'Message is too long (5,000 characters at most)'),
  type: z.enum(['general', 'info', 'warning', 'urgent'], { error: 'Type must be general, info, warning or urgent' }).default('general'),
  targetType: z.enum(['all', 'specific'], { error: 'Send to must be all or specific' }).default('all'),
  targetUserId: z.string().nullish(),
});
export type SendNotificationInput = z.input<typeof sendSchema>;

/** What a notification looks like to one user. */
export interface NotificationView extends Notification {
  isRead: boolean;
  readAt: Date | null;
}

/** Which notifications a user receives. */
export function visibleTo(userId: string): Prisma.NotificationWhereInput {
  return { OR: [{ targetType: 'all' }, { targetType: 'specific', targetUserId: userId }] };
}

export function isVisibleTo(n: Pick<Notification, 'targetType' | 'targetUserId'>, userId: string): boolean {
  return n.targetType === 'all' || n.targetUserId === userId;
}

function senderName(u: User | null): string | null {
  if (!u) return null;
  return displayName(u) || u.email;
}

/** An administrator sends a notification (to everyone or to one user); audited, delivered live after the commit. */
export function sendNotification(caller: Caller, input: SendNotificationInput): Promise<Notification> {
  return sendNotificationAs(caller.deps, caller.actor, input);
}

/**
 * The same, sent as `actor` by work that holds deps and an actor rather than a
 * Caller: the administrators' alert during a sign-in (nobody signed in yet),
 * remediation reopened by an upload's load (the worker), and review services
 * that take deps and an actor.
 */
export async function sendNotificationAs(deps: NotificationDeps, actor: Actor, input: SendNotificationInput): Promise<Notification> {
  const data = parseOrThrow(sendSchema, input);
  let targetUserId: string | null = null;
  if (data.targetType === 'specific') {
    if (!data.targetUserId) throw new ValidationError('Please choose the user to send to', 'targetUserId');
    const target = isUuid(data.targetUserId) ? await deps.prisma.user.findUnique({ where: { id: data.targetUserId } }) : null;
    if (!target) throw new ValidationError('The chosen user does not exist', 'targetUserId');
    targetUserId = target.id;
  }
  const created = await deps.prisma.$transaction(async (tx) => {
    const n = await tx.notification.create({
      data: {
        type: data.type as NotificationType,
        title: data.title,
        message: data.message,
        senderId: actor.user?.id ?? null,
        senderName: senderName(actor.user),
        targetType: data.targetType,
        targetUserId,
      },
    });
    await recordAudit(tx, actor, { action: 'notification.sent', entityType: 'Notification', entityId: n.id, after: n });
    return n;
  });
  // After the commit; subscribers filter by target (see notificationAdded).
  publishNotification(deps.pubsub, created);
  return created;
}

/**
 * What the platform itself tells one user (deadline reminders, escalations, a
 * question asked of them), written in the caller's transaction. `link` is the
 * app's page it points to (a path); `from` the person on whose behalf it is
 * sent (else it comes from the platform).
 */
export function createSystemNotification(
  db: DbClient,
  n: { type: NotificationType; title: string; message: string; targetUserId: string; link?: string | null; from?: User },
): Promise<Notification> {
  const { from, ...data } = n;
  return db.notification.create({
    data: { ...data, senderId: from?.id ?? null, senderName: from ? senderName(from) : 'GRC Platform', targetType: 'specific' },
  });
}

/** Tells the open pages of a notification's target that it arrived; after the commit. */
export function publishNotification(pubsub: PubSub, n: Notification): void {
  pubsub.publish('notification:added', { notificationId: n.id, targetType: n.targetType, targetUserId: n.targetUserId });
}

async function withReadState(prisma: PrismaClient, userId: string, rows: Notification[]): Promise<NotificationView[]> {
  if (!rows.length) return [];
  const reads = await prisma.notificationRead.findMany({
    where: { userId, notificationId: { in: rows.map((r) => r.id) } },
  });
  const byId = new Map(reads.map((r) => [r.notificationId, r.readAt]));
  return rows.map((r) => ({ ...r, isRead: byId.has(r.id), readAt: byId.get(r.id) ?? null }));
}

/** Of the notifications `scope` selects, how many the caller has not read. */
export async function unreadCount(caller: Caller, scope: Prisma.NotificationWhereInput): Promise<number> {
  const userId = caller.actor.user.id;
  return caller.deps.prisma.notification.count({ where: { AND: [scope, { reads: { none: { userId } } }] } });
}

/** The caller's notifications, newest first, with their read state and unread count. */
export async function listForUser(caller: Caller, opts: { limit?: number } = {}) {
  const { prisma } = caller.deps;
  const user = caller.actor.user;
  const where = visibleTo(user.id);
  const [rows, total, unread] = await Promise.all([
    prisma.notification.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: Math.min(opts.limit ?? 100, 500) }),
    prisma.notification.count({ where }),
    unreadCount(caller, where),
  ]);
  return { notifications: await withReadState(prisma, user.id, rows), total, unreadCount: unread };
}

/** Every notification sent (administrators), read state as seen by the caller. */
export async function listAll(caller: Caller, opts: { limit?: number } = {}) {
  const { prisma } = caller.deps;
  const admin = caller.actor.user;
  if (admin.role !== 'admin') throw new ForbiddenError('Only administrators can list all notifications');
  const [rows, total, unread] = await Promise.all([
    prisma.notification.findMany({
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: Math.min(opts.limit ?? 200, 1000),
      include: { targetUser: true, _count: { select: { reads: true } } },
    }),
    prisma.notification.count(),
    // Unread as the administrator can read them: notifications addressed to them.
    unreadCount(caller, visibleTo(admin.id)),
  ]);
  const views = await withReadState(prisma, admin.id, rows);
  return { notifications: views, total, unreadCount: unread };
}

async function findVisible(prisma: PrismaClient, user: User, id: string): Promise<Notification> {
  const n = isUuid(id) ? await prisma.notification.findUnique({ where: { id } }) : null;
  // Not visible is the same as not there: no hint that it exists.
  if (!n || !isVisibleTo(n, user.id)) throw new NotFoundError('Notification not found');
  return n;
}

export async function markRead(caller: Caller, id: string): Promise<NotificationView> {
  const { prisma } = caller.deps;
  const user = caller.actor.user;
  const n = await findVisible(prisma, user, id);
  const read = await prisma.notificationRead.upsert({
    where: { notificationId_userId: { notificationId: n.id, userId: user.id } },
    create: { notificationId: n.id, userId: user.id },
    update: {},
  });
  return { ...n, isRead: true, readAt: read.readAt };
}

export async function markAllRead(caller: Caller): Promise<number> {
  const user = caller.actor.user;
  // One statement: every visible notification without a read row gets one.
  return caller.deps.prisma.$executeRaw`
    INSERT INTO notification_reads (notification_id, user_id, read_at)
    SELECT n.id, ${user.id}::uuid, now() FROM notifications n
     WHERE (n.target_type = 'all' OR n.target_user_id = ${user.id}::uuid)
    ON CONFLICT (notification_id, user_id) DO NOTHING`;
}

export async function deleteNotification(caller: Caller, id: string): Promise<void> {
  const { deps, actor } = caller;
  if (!isUuid(id)) throw new NotFoundError('Notification not found');
  await deps.prisma.$transaction(async (tx) => {
    const n = await tx.notification.findUnique({ where: { id } });
    if (!n) throw new NotFoundError('Notification not found');
    await tx.notification.delete({ where: { id } });
    await recordAudit(tx, actor, { action: 'notification.deleted', entityType: 'Notification', entityId: id, before: n });
  });
}
