// REST: notifications (SPEC §7 /api/notifications…).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as notifications from '../../services/identity/notifications.js';
import { displayName } from '../../services/identity/users.js';
import { flag, idParams, isoDate, routeSchema } from '../edge.js';
import { Success } from '../replies.js';

/** `shape` as a client receives it. */
const NotificationJson = z.strictObject({
  id: z.uuid(),
  type: z.enum(['general', 'info', 'warning', 'urgent']),
  title: z.string(),
  message: z.string(),
  isRead: z.boolean().describe('The caller has read it'),
  readAt: isoDate().nullable(),
  senderName: z.string().nullable(),
  targetType: z.enum(['all', 'specific']).describe('all: every user; specific: targetUserId only'),
  targetUserId: z.uuid().nullable(),
  createdAt: isoDate(),
  link: z.string().optional().describe('The page of the app it points to (a path such as /questions/{id}); absent: none'),
  targetUserName: z.string().nullable().optional().describe('?admin=true: the recipient’s name (null: everyone)'),
  readCount: z.number().int().optional().describe('?admin=true: how many users have read it'),
});

const ListQuery = z.object({ admin: flag('admin').optional() });

type View = notifications.NotificationView & { targetUser?: { firstName: string; lastName: string; email: string } | null; _count?: { reads: number } };

/** The SPEC §3 shape. */
function shape(n: View) {
  return {
    id: n.id,
    type: n.type,
    title: n.title,
    message: n.message,
    isRead: n.isRead,
    readAt: n.readAt,
    senderName: n.senderName,
    targetType: n.targetType,
    targetUserId: n.targetUserId,
    createdAt: n.createdAt,
    ...(n.link ? { link: n.link } : {}),
    ...(n.targetUser !== undefined ? { targetUserName: n.targetUser ? displayName(n.targetUser) : null } : {}),
    ...(n._count ? { readCount: n._count.reads } : {}),
  };
}

export function registerNotificationRoutes(app: FastifyInstance) {
  app.get<{ Querystring: z.infer<typeof ListQuery> }>(
    '/api/notifications',
    {
      config: { access: 'signedIn' },
      schema: routeSchema({
        querystring: ListQuery,
        reply: z.strictObject({ notifications: z.array(NotificationJson).describe('Newest first'), total: z.number().int(), unreadCount: z.number().int() }),
      }),
    },
    async (req) => {
      const { ctx } = req;
      const r = req.query.admin === 'true' ? await notifications.listAll(ctx.caller!) : await notifications.listForUser(ctx.caller!);
      return { notifications: r.notifications.map(shape), total: r.total, unreadCount: r.unreadCount };
    },
  );

  app.post<{ Body: notifications.SendNotificationInput }>(
    '/api/notifications',
    { config: { access: 'admin' }, schema: routeSchema({ body: notifications.sendSchema, reply: NotificationJson, replyStatus: 201 }) },
    async (req, reply) => {
      const n = await notifications.sendNotification(req.ctx.caller!, req.body);
      return reply.status(201).send(shape({ ...n, isRead: false, readAt: null }));
    },
  );

  app.put(
    '/api/notifications/read-all',
    { config: { access: 'signedIn' }, schema: routeSchema({ reply: Success.extend({ count: z.number().int().describe('Notifications marked read') }) }) },
    async (req) => {
      const count = await notifications.markAllRead(req.ctx.caller!);
      return { success: true, count };
    },
  );

  app.put<{ Params: { id: string } }>(
    '/api/notifications/:id/read',
    { config: { access: 'signedIn' }, schema: routeSchema({ params: idParams, reply: NotificationJson }) },
    async (req) => {
      return shape(await notifications.markRead(req.ctx.caller!, req.params.id));
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/notifications/:id',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: Success }) },
    async (req) => {
      await notifications.deleteNotification(req.ctx.caller!, req.params.id);
      return { success: true };
    },
  );
}
