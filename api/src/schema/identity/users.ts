// Users: the User node, the viewer, sign-in and sign-out, administration.
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import { listOrder, type OrderField } from '../ordering.js';
import { ValidationError } from '../../core/errors.js';
import * as internalAuth from '../../services/identity/auth.js';
import * as users from '../../services/identity/users.js';
import { access, setContextUser, type Context } from '../../context.js';
import type { Prisma } from '../../generated/prisma/client.js';

export const RoleEnum = enumOf('Role', { values: ['admin', 'reviewer'] as const });

export const UserNode = builder.prismaNode('User', {
  id: { field: 'id' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  // Administrators see everyone; others see only themselves.
  authScopes: (user, ctx) => access.admin(ctx.user) || ctx.user?.id === user.id,
  fields: (t) => ({
    userId: t.exposeString('id'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    displayName: t.string({
      select: { firstName: true, lastName: true },
      resolve: (u) => users.displayName(u),
    }),
    email: t.exposeString('email'),
    role: t.expose('role', { type: RoleEnum }),
    isActive: t.exposeBoolean('isActive'),
    passwordResetRequired: t.exposeBoolean('passwordResetRequired'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastLoginAt: t.expose('lastLoginAt', { type: 'DateTime', nullable: true }),
  }),
});

/** The order fields of the lists of reviewers (Reviewer Status, open work): by name or e-mail. */
export const PERSON_ORDER_FIELDS = {
  NAME: { columns: ['firstName', 'lastName', 'email'], description: 'First name, then last name, then e-mail address.' },
  EMAIL: { columns: ['email'], description: 'E-mail address.' },
} as const satisfies Record<string, OrderField>;

const userOrder = listOrder(
  'User',
  'the users',
  {
    EMAIL: { columns: ['email'], description: 'E-mail address.' },
    NAME: { columns: ['firstName', 'lastName'], description: 'First name, then last name.' },
    ROLE: { columns: ['role'], description: 'Role (administrators first when ascending).' },
    CREATED_AT: { columns: ['createdAt'], description: 'When the user was created.' },
  },
  { field: 'EMAIL', direction: 'asc' },
  'email',
);

builder.queryFields((t) => ({
  viewer: t.prismaField({
    type: 'User',
    nullable: true,
    description: 'The signed-in user, or null when not signed in.',
    authScopes: { public: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.user ? ctx.prisma.user.findUnique({ ...runnable(query), where: { id: ctx.user.id } }) : null,
  }),
  users: t.prismaConnection({
    type: 'User',
    cursor: 'email',
    authScopes: { admin: true },
    args: {
      ...userOrder.arg(),
      search: t.arg.string({ description: 'Part of the name or e-mail.' }),
      role: t.arg({ type: RoleEnum }),
      active: t.arg.boolean(),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.user.findMany({ ...runnable(query), where: users.userFilter(args), orderBy: userOrder.orderBy<Prisma.UserOrderByWithRelationInput>(args.orderBy) }),
    totalCount: (_root, args, ctx) => ctx.prisma.user.count({ where: users.userFilter(args) }),
  }),
}));

const LoginInput = builder.inputType('LoginInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    password: t.string({ required: true }),
  }),
});

const ChangePasswordInput = builder.inputType('ChangePasswordInput', {
  fields: (t) => ({
    currentPassword: t.string({ required: true }),
    newPassword: t.string({ required: true }),
    revokeApiTokens: t.boolean({ description: 'Also revoke all of my API tokens.' }),
  }),
});

const CreateUserInput = builder.inputType('CreateUserInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    firstName: t.string({ required: true }),
    lastName: t.string(),
    role: t.field({ type: RoleEnum, required: true }),
  }),
});

const UpdateUserInput = builder.inputType('UpdateUserInput', {
  fields: (t) => ({
    firstName: t.string(),
    lastName: t.string(),
    role: t.field({ type: RoleEnum }),
  }),
});

/** The user a mutation changed, read again with the selection the client asked for. */
function reloadUser(ctx: Context, query: { include?: Prisma.UserInclude; select?: Prisma.UserSelect }, user: { id: string }) {
  return ctx.prisma.user.findUniqueOrThrow({ ...runnable(query), where: { id: user.id } });
}

builder.mutationFields((t) => ({
  login: t.prismaField({
    type: 'User',
    authScopes: { public: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: LoginInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const { user, session } = await internalAuth.login(ctx.prisma, input, {
        ip: ctx.actor.ip,
        userAgent: ctx.actor.userAgent,
        sessionTtlHours: ctx.config.SESSION_TTL_HOURS,
        pubsub: ctx.pubsub,
      });
      ctx.cookies?.set(session);
      setContextUser(ctx, user, session.id);
      return reloadUser(ctx, query, user);
    },
  }),
  changePassword: t.prismaField({
    type: 'User',
    authScopes: { authenticated: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: ChangePasswordInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const user = await internalAuth.changePassword(ctx.deps, ctx.actor, input);
      return reloadUser(ctx, query, user);
    },
  }),
  logout: t.boolean({
    authScopes: { public: true },
    resolve: async (_root, _args, ctx) => {
      await internalAuth.logout(ctx.prisma, ctx.actor);
      ctx.cookies?.clear();
      setContextUser(ctx, null, null);
      return true;
    },
  }),
  createUser: t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const user = await users.createUser(ctx.deps, ctx.actor, { ...input, lastName: input.lastName ?? '' });
      return reloadUser(ctx, query, user);
    },
  }),
  setUserActive: t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    errors: {},
    args: {
      id: t.arg.globalID({ required: true, for: UserNode }),
      active: t.arg.boolean({ required: true }),
    },
    resolve: async (query, _root, { id, active }, ctx) => {
      const user = await users.setUserActive(ctx.deps, ctx.actor, id.id, active);
      return reloadUser(ctx, query, user);
    },
  }),
  // Pothos field declarations of the same shape (type, scope, errors, a user id and one more argument):
  // boilerplate, not repeated logic, so the copy-paste check skips them.
  // jscpd:ignore-start
  updateUser: t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: UserNode }),
      input: t.arg({ type: UpdateUserInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, ctx) => {
      const user = await users.updateUser(ctx.deps, ctx.actor, id.id, {
        firstName: input.firstName ?? undefined,
        lastName: input.lastName ?? undefined,
        role: input.role ?? undefined,
      });
      return reloadUser(ctx, query, user);
    },
  }),
  resetUserPassword: t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: UserNode }),
      newPassword: t.arg.string({ required: true }),
    },
    resolve: async (query, _root, { id, newPassword }, ctx) => {
      const user = await users.resetPassword(ctx.deps, ctx.actor, id.id, { newPassword });
      return reloadUser(ctx, query, user);
    },
  }),
  // jscpd:ignore-end
}));

builder.subscriptionFields((t) => ({
  viewerSessionEnded: t.string({
    description: "Fires when the viewer's sessions are ended elsewhere (e.g. the account was deactivated); the payload is the reason.",
    authScopes: { authenticated: true },
    subscribe: (_root, _args, ctx) => ctx.pubsub.subscribe('session:ended', ctx.user!.id),
    resolve: (payload: { reason: string }) => payload.reason,
  }),
}));
