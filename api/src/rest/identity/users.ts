// REST: user administration (SPEC §7 /api/users…).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as users from '../../services/identity/users.js';
import { publicUser } from '../../core/types.js';
import { MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH } from '../../core/validation.js';
import { idParams, routeSchema, text } from '../edge.js';
import { UserJson } from '../replies.js';
import type { User } from '../../generated/prisma/client.js';

/** A user as administrators see them: with the user ids in the source systems that are this person. */
const AdminUserJson = UserJson.extend({
  accessUserIds: z.array(z.string()).describe('The user ids in the source systems that are this person: they never review rows of these users'),
});
const UserAnswer = z.strictObject({ user: AdminUserJson });
const adminUser = (u: User) => ({ ...publicUser(u), accessUserIds: u.accessUserIds });

const ListQuery = z.object({
  search: text('search', MAX_NAME_LENGTH).optional(),
  role: z.enum(['admin', 'reviewer', 'all', ''], { error: 'role must be admin, reviewer or all' }).optional(),
  active: z.enum(['true', 'false', 'all', ''], { error: 'active must be true, false or all' }).optional(),
});
const ResetBody = z.object({ newPassword: text('New password', MAX_PASSWORD_LENGTH).nullish() });

export function registerUserRoutes(app: FastifyInstance) {
  app.get<{ Querystring: z.infer<typeof ListQuery> }>(
    '/api/users',
    { config: { access: 'admin' }, schema: routeSchema({ querystring: ListQuery, reply: z.array(AdminUserJson).describe('The users matching the filter') }) },
    async (req) => {
      const { search, role, active } = req.query;
      return (
        await users.listUsers(req.ctx.caller!, {
          search,
          role: role === 'admin' || role === 'reviewer' ? role : undefined,
          active: active === 'true' ? true : active === 'false' ? false : undefined,
        })
      ).map(adminUser);
    },
  );

  app.post<{ Body: users.CreateUserInput }>(
    '/api/users',
    { config: { access: 'admin' }, schema: routeSchema({ body: users.createUserSchema, reply: UserAnswer, replyStatus: 201 }) },
    async (req, reply) => {
      const { ctx } = req;
      const user = await users.createUser(ctx.caller!, req.body);
      return reply.status(201).send({ user: adminUser(user) });
    },
  );

  app.put<{ Params: { id: string }; Body: users.UpdateUserInput }>(
    '/api/users/:id',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, body: users.updateUserSchema, reply: UserAnswer }) },
    async (req) => {
      const user = await users.updateUser(req.ctx.caller!, req.params.id, req.body);
      return { user: adminUser(user) };
    },
  );

  app.put<{ Params: { id: string }; Body: z.infer<typeof ResetBody> }>(
    '/api/users/:id/reset-password',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, body: ResetBody, reply: UserAnswer }) },
    async (req) => {
      const user = await users.resetPassword(req.ctx.caller!, req.params.id, req.body);
      return { user: adminUser(user) };
    },
  );

  for (const [suffix, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    app.put<{ Params: { id: string } }>(
      `/api/users/:id/${suffix}`,
      { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: UserAnswer }) },
      async (req) => {
        const { ctx } = req;
        const user = await users.setUserActive(ctx.caller!, req.params.id, active);
        return { user: adminUser(user) };
      },
    );
  }
}
