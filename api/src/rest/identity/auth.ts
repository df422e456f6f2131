// REST: sign-in, password change, sign-out, external sign-in status (SPEC §7).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as internalAuth from '../../services/identity/auth.js';
import * as sso from '../../auth/oidc.js';
import { publicUser } from '../../core/types.js';
import { AuthenticationError } from '../../core/errors.js';
import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from '../../core/validation.js';
import { routeSchema, text, type RouteSchema } from '../edge.js';
import { Success, UserAnswer, UserJson } from '../replies.js';

const redirect = (to: string, inputs: RouteSchema = {}) =>
  routeSchema({
    ...inputs,
    replyStatus: 302,
    replyDescription: `A redirect: ${to}`,
    replyHeaders: { Location: { description: 'Where the browser goes', schema: { type: 'string' } } },
  });

// Absent fields pass: the service answers the SPEC's messages ('Please enter both email and password', …).
const LoginBody = z.object({ email: text('Email', MAX_EMAIL_LENGTH).nullish(), password: text('Password', MAX_PASSWORD_LENGTH).nullish() });
const ChangePasswordBody = z.object({
  userId: text('userId', 100).nullish(),
  currentPassword: text('Current password', MAX_PASSWORD_LENGTH).nullish(),
  newPassword: text('New password', MAX_PASSWORD_LENGTH).nullish(),
  revokeApiTokens: z.boolean({ error: 'revokeApiTokens must be true or false' }).nullish(),
});
/** What the provider sends back (read by openid-client from the URL; bounded here). */
const CallbackQuery = z.object(
  Object.fromEntries(['code', 'state', 'iss', 'session_state', 'error', 'error_description'].map((f) => [f, text(f, 4000).optional()])),
);

export function registerAuthRoutes(app: FastifyInstance) {
  app.post<{ Body: z.infer<typeof LoginBody> }>(
    '/api/internal-login',
    { config: { access: 'public' }, schema: routeSchema({ body: LoginBody, reply: UserAnswer }) },
    async (req) => {
      const { ctx } = req;
      const { user, session } = await internalAuth.login(ctx.prisma, req.body, {
        ip: ctx.actor.ip,
        userAgent: ctx.actor.userAgent,
        sessionTtlHours: ctx.config.SESSION_TTL_HOURS,
        pubsub: ctx.pubsub,
      });
      ctx.cookies!.set(session);
      return { user: publicUser(user) };
    },
  );

  app.put<{ Body: z.infer<typeof ChangePasswordBody> }>(
    '/api/internal/change-password',
    { config: { access: 'authenticated' }, schema: routeSchema({ body: ChangePasswordBody, reply: UserAnswer }) },
    async (req) => {
      const user = await internalAuth.changePassword(req.ctx.caller!, req.body);
      return { user: publicUser(user) };
    },
  );

  // A single sign-on session answers where the browser goes next (the
  // provider's end-session endpoint, then /internal-login); internal ones go to /.
  app.post(
    '/api/logout',
    {
      config: { access: 'public' },
      schema: routeSchema({
        reply: Success.extend({
          redirectTo: z.string().optional().describe('A single sign-on session: where the browser goes next (the provider’s sign-out)'),
        }),
      }),
    },
    async (req) => {
      const { ctx } = req;
      const redirectTo = await sso.signOutLocation(ctx.prisma, ctx.config, ctx.actor, requestOrigin(req));
      await internalAuth.logout(ctx.prisma, ctx.actor);
      ctx.cookies!.clear();
      return redirectTo ? { success: true, redirectTo } : { success: true };
    },
  );

  // External sign-in (OpenID Connect, auth/oidc.ts). Off unless configured:
  // then the user endpoint answers 401 and the login endpoint sends people to
  // the internal login page, as the SPEC's client expects.
  app.get(
    '/api/auth/user',
    {
      config: { access: 'public' },
      schema: routeSchema({ reply: UserJson.extend({ authMethod: z.literal('oidc') }).describe('The user signed in through single sign-on (401 otherwise)') }),
    },
    async (req) => {
      const user = req.ctx.config.oidcEnabled ? await sso.externalUser(req.ctx.prisma, req.ctx.actor) : null;
      if (!user) {
        throw new AuthenticationError(req.ctx.config.oidcEnabled ? 'Not signed in through single sign-on' : 'External sign-in is not configured');
      }
      return user;
    },
  );

  app.get(
    '/api/auth/sso',
    {
      config: { access: 'public' },
      schema: routeSchema({
        reply: z.strictObject({
          enabled: z.boolean().describe('Single sign-on is configured'),
          loginUrl: z.string().describe('Where to send the browser to sign in'),
        }),
      }),
    },
    async (req) => ({
      enabled: req.ctx.config.oidcEnabled,
      loginUrl: '/api/login',
    }),
  );

  app.get(
    '/api/login',
    { config: { access: 'public' }, schema: redirect('to the provider’s sign-in (or /internal-login when single sign-on is off)') },
    async (req, reply) => {
      const { config } = req.ctx;
      if (!config.oidcEnabled) return reply.redirect('/internal-login');
      let started: sso.StartedSignIn;
      try {
        started = await sso.startSignIn(config, requestOrigin(req));
      } catch (err) {
        req.log.error(`single sign-on could not start: ${(err as Error).message}`);
        return reply.redirect(sso.refusedLocation('unavailable'));
      }
      reply.setCookie(sso.FLOW_COOKIE, started.flowCookie, {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.cookieSecure,
        path: sso.FLOW_COOKIE_PATH,
        maxAge: sso.FLOW_TTL_SECONDS,
      });
      return reply.redirect(started.location);
    },
  );

  app.get(
    sso.CALLBACK_PATH,
    { config: { access: 'public' }, schema: redirect('to / when signed in, else to the sign-in page with the reason', { querystring: CallbackQuery }) },
    async (req, reply) => {
      const { ctx } = req;
      if (!ctx.config.oidcEnabled) return reply.redirect('/internal-login');
      const flowCookie = req.cookies[sso.FLOW_COOKIE];
      // One use: whatever happens next, this browser's flow is over.
      reply.clearCookie(sso.FLOW_COOKIE, { httpOnly: true, sameSite: 'lax', secure: ctx.config.cookieSecure, path: sso.FLOW_COOKIE_PATH });
      const search = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
      const outcome = await sso.completeSignIn(ctx.prisma, ctx.config, { flowCookie, search, actor: ctx.actor });
      if (!outcome.ok) {
        req.log.warn(`single sign-on refused (${outcome.reason}): ${outcome.detail}`);
        return reply.redirect(sso.refusedLocation(outcome.reason));
      }
      ctx.cookies!.set(outcome.session);
      return reply.redirect('/');
    },
  );
}

/** The origin the browser used (behind a proxy: X-Forwarded-Proto/Host, Fastify's trustProxy). */
function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}
