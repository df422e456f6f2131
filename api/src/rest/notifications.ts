// REST: notifications (SPEC §7 /api/notifications…).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as notifications from '../services/notifications.js';
import { flag, idParams, routeSchema } from './edge.js';

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
    ...(n.targetUser !== undefined
      ? { targetUserName: n.targetUser ? [n.targetUser.firstName, n.targetUser.lastName].filter(Boolean).join(' ') : null }
      : {}),
    ...(n._count ? { readCount: n._count.reads } : {}),
  };
}

export function registerNotificationRoutes(app: FastifyInstance) {
  app.get<{ Querystring: z.infer<typeof ListQuery> }>('/api/notifications', { config: { access: 'signedIn' }, schema: routeSchema({ querystring: ListQuery }) }, async (req) => {
    const { ctx } = req;
    const r =
      req.query.admin === 'true'
        ? await notifications.listAll(ctx.prisma, ctx.user!)
        : await notifications.listForUser(ctx.prisma, ctx.user!);
    return { notifications: r.notifications.map(shape), total: r.total, unreadCount: r.unreadCount };
  });

  app.post<{ Body: notifications.SendNotificationInput }>(
    '/api/notifications',
    { config: { access: 'admin' }, schema: routeSchema({ body: notifications.sendSchema }) },
    async (req, reply) => {
    const n = await notifications.sendNotification(req.ctx.deps, req.ctx.actor, req.body);
    return reply.status(201).send(shape({ ...n, isRead: false, readAt: null }));
    },
  );

  app.put('/api/notifications/read-all', { config: { access: 'signedIn' } }, async (req) => {
    const count = await notifications.markAllRead(req.ctx.prisma, req.ctx.user!);
    return { success: true, count };
  });

  app.put<{ Params: { id: string } }>('/api/notifications/:id/read', { config: { access: 'signedIn' }, schema: routeSchema({ params: idParams }) }, async (req) => {
    return shape(await notifications.markRead(req.ctx.prisma, req.ctx.user!, req.params.id));
  });

  app.delete<{ Params: { id: string } }>('/api/notifications/:id', { config: { access: 'admin' }, schema: routeSchema({ params: idParams }) }, async (req) => {
    await notifications.deleteNotification(req.ctx.deps, req.ctx.actor, req.params.id);
    return { success: true };
  });
}
