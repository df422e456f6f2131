// REST: sign-in, password change, sign-out, external sign-in status (SPEC §7).
import type { FastifyInstance } from 'fastify';
import * as internalAuth from '../auth/internal.js';
import { publicUser } from '../core/types.js';
import { AuthenticationError } from '../core/errors.js';

export function registerAuthRoutes(app: FastifyInstance) {
  app.post<{ Body: { email?: string; password?: string } }>(
    '/api/internal-login',
    { config: { access: 'public' } },
    async (req) => {
      const { ctx } = req;
      const { user, session } = await internalAuth.login(ctx.prisma, req.body ?? {}, {
        ip: ctx.actor.ip,
        userAgent: ctx.actor.userAgent,
        sessionTtlHours: ctx.config.SESSION_TTL_HOURS,
        pubsub: ctx.pubsub,
      });
      ctx.cookies!.set(session);
      return { user: publicUser(user) };
    },
  );

  app.put<{ Body: { userId?: string; currentPassword?: string; newPassword?: string } }>(
    '/api/internal/change-password',
    { config: { access: 'authenticated' } },
    async (req) => {
      const user = await internalAuth.changePassword(req.ctx.prisma, req.ctx.actor, req.body ?? {});
      return { user: publicUser(user) };
    },
  );

  app.post('/api/logout', { config: { access: 'public' } }, async (req) => {
    await internalAuth.logout(req.ctx.prisma, req.ctx.actor);
    req.ctx.cookies!.clear();
    return { success: true };
  });

  // External (OpenID Connect) sign-in is not configured in this build: the
  // user endpoint answers 401 and the login endpoint sends people to the
  // internal login page, as the SPEC's client expects.
  app.get('/api/auth/user', { config: { access: 'public' } }, async () => {
    throw new AuthenticationError('External sign-in is not configured');
  });

  app.get('/api/login', { config: { access: 'public' } }, async (_req, reply) => reply.redirect('/internal-login'));
}
