// REST: user administration (SPEC §7 /api/users…).
import type { FastifyInstance } from 'fastify';
import * as users from '../services/users.js';
import { publicUser } from '../core/types.js';

export function registerUserRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { search?: string; role?: string; active?: string } }>('/api/users', { config: { access: 'admin' } }, async (req) => {
    const { search, role, active } = req.query;
    return (
      await users.listUsers(req.ctx.prisma, {
        search,
        role: role === 'admin' || role === 'reviewer' ? role : undefined,
        active: active === 'true' ? true : active === 'false' ? false : undefined,
      })
    ).map(publicUser);
  });

  app.post<{ Body: users.CreateUserInput }>('/api/users', { config: { access: 'admin' } }, async (req, reply) => {
    const { ctx } = req;
    const user = await users.createUser(ctx.deps, ctx.actor, req.body);
    return reply.status(201).send({ user: publicUser(user) });
  });

  app.put<{ Params: { id: string }; Body: users.UpdateUserInput }>('/api/users/:id', { config: { access: 'admin' } }, async (req) => {
    const user = await users.updateUser(req.ctx.deps, req.ctx.actor, req.params.id, req.body ?? {});
    return { user: publicUser(user) };
  });

  app.put<{ Params: { id: string }; Body: { newPassword?: string } }>(
    '/api/users/:id/reset-password',
    { config: { access: 'admin' } },
    async (req) => {
      const user = await users.resetPassword(req.ctx.deps, req.ctx.actor, req.params.id, req.body ?? {});
      return { user: publicUser(user) };
    },
  );

  for (const [suffix, active] of [['deactivate', false], ['activate', true]] as const) {
    app.put<{ Params: { id: string } }>(`/api/users/:id/${suffix}`, { config: { access: 'admin' } }, async (req) => {
      const { ctx } = req;
      const user = await users.setUserActive(ctx.deps, ctx.actor, req.params.id, active);
      return { user: publicUser(user) };
    });
  }
}
