// Users: the User node, the viewer, sign-in and sign-out, administration.
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import { listOrder, type OrderField } from '../ordering.js';
import { ValidationError } from '../../core/errors.js';
import * as internalAuth from '../../services/identity/auth.js';
import * as users from '../../services/identity/users.js';
import { access, setContextUser, type Context } from '../../context.js';
import type { Prisma } from '../../generated/prisma/client.js';

export const RoleEnum = enumOf('Role', {
  description: 'What a user may do in the app.',
  values: ['admin', 'reviewer'] as const,
  descriptions: {
    admin: 'Administrator: loads data, assigns reviewers, manages periods, users and settings, sees every risk row.',
    reviewer: 'Reviewer: decides on the risk rows assigned to them and submits them for approval.',
  },
});

export const UserNode = builder.prismaNode('User', {
  description: 'A person who signs in: an administrator or a reviewer.',
  id: { field: 'id', description: 'The user’s global id.' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  // Administrators see everyone; others see only themselves.
  authScopes: (user, ctx) => access.admin(ctx.user) || ctx.user?.id === user.id,
  fields: (t) => ({
    userId: t.exposeString('id', {
      description: 'The user’s stored id: the one the REST calls take (`/api/users/{id}`) and the id of the internal user the web app keeps (SPEC §3).',
    }),
    firstName: t.exposeString('firstName', { description: 'Given name, as shown in the app.' }),
    lastName: t.exposeString('lastName', { description: 'Family name, as shown in the app (may be empty).' }),
    displayName: t.string({
      description: 'The name the app and its files show: the first and last names that are set, joined by one space (empty when neither is).',
      select: { firstName: true, lastName: true },
      resolve: (u) => users.displayName(u),
    }),
    email: t.exposeString('email', { description: 'The e-mail address the user signs in with (unique, lower-case).' }),
    role: t.expose('role', { type: RoleEnum, description: 'What the user may do: administer everything, or review their assigned risks.' }),
    isActive: t.exposeBoolean('isActive', { description: 'The user may sign in; a deactivated user cannot, and their API tokens are refused.' }),
    passwordResetRequired: t.exposeBoolean('passwordResetRequired', {
      description: 'The user must choose a new password at their next sign-in (after an administrator set one).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the account was created.' }),
    lastLoginAt: t.expose('lastLoginAt', { type: 'DateTime', nullable: true, description: 'When the user last signed in (null: never).' }),
    accessUserIds: t.exposeStringList('accessUserIds', {
      description:
        'The user ids in the source systems that are this person (default: the local part of their e-mail): they never see or decide rows of these users (self-review).',
    }),
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
    resolve: (query, _root, _args, ctx) => (ctx.user ? ctx.prisma.user.findUnique({ ...runnable(query), where: { id: ctx.user.id } }) : null),
  }),
  users: t.prismaConnection({
    type: 'User',
    description: 'The app’s users (administrators), filtered.',
    cursor: 'email',
    authScopes: { admin: true },
    args: {
      ...userOrder.arg(),
      search: t.arg.string({ description: 'Part of the name or e-mail.' }),
      role: t.arg({ type: RoleEnum, description: 'Only users of this role.' }),
      active: t.arg.boolean({ description: 'Only active (true) or only deactivated (false) users.' }),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.user.findMany({
        ...runnable(query),
        where: users.userFilter(args),
        orderBy: userOrder.orderBy<Prisma.UserOrderByWithRelationInput>(args.orderBy),
      }),
    totalCount: (_root, args, ctx) => ctx.prisma.user.count({ where: users.userFilter(args) }),
  }),
}));

const LoginInput = builder.inputType('LoginInput', {
  description: 'An e-mail address and password to sign in with (internal accounts).',
  fields: (t) => ({
    email: t.string({ required: true, description: 'The e-mail address of the account.' }),
    password: t.string({ required: true, description: 'The account’s password.' }),
  }),
});

const ChangePasswordInput = builder.inputType('ChangePasswordInput', {
  description: 'The current password and the new one.',
  fields: (t) => ({
    currentPassword: t.string({ required: true, description: 'The password the user signs in with now.' }),
    newPassword: t.string({ required: true, description: 'The new password; it must meet the password rules (the error names the one broken).' }),
    revokeApiTokens: t.boolean({ description: 'Also revoke all of my API tokens.' }),
  }),
});

const CreateUserInput = builder.inputType('CreateUserInput', {
  description: 'A new user account (administrators).',
  fields: (t) => ({
    email: t.string({ required: true, description: 'The e-mail address they will sign in with; no other user may have it.' }),
    firstName: t.string({ required: true, description: 'Given name.' }),
    lastName: t.string({ description: 'Family name.' }),
    role: t.field({ type: RoleEnum, required: true, description: 'Administrator or reviewer.' }),
  }),
});

const UpdateUserInput = builder.inputType('UpdateUserInput', {
  description: 'Changes to a user account; a field left out stays as it is.',
  fields: (t) => ({
    firstName: t.string({ description: 'New given name.' }),
    lastName: t.string({ description: 'New family name.' }),
    role: t.field({ type: RoleEnum, description: 'The new role: ADMIN manages the review, REVIEWER decides on assigned rows.' }),
    accessUserIds: t.stringList({ description: 'The user ids in the source systems that are this person (replaces the list).' }),
  }),
});

/** The user a mutation changed, read again with the selection the client asked for. */
function reloadUser(ctx: Context, query: { include?: Prisma.UserInclude; select?: Prisma.UserSelect }, user: { id: string }) {
  return ctx.prisma.user.findUniqueOrThrow({ ...runnable(query), where: { id: user.id } });
}

builder.mutationFields((t) => ({
  login: t.prismaField({
    type: 'User',
    description: 'Signs in with an e-mail address and password and sets the session cookie.',
    authScopes: { public: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: LoginInput, required: true, description: 'The e-mail address and password.' }) },
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
    description: 'Changes the signed-in user’s own password.',
    authScopes: { authenticated: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: ChangePasswordInput, required: true, description: 'The current and the new password.' }) },
    resolve: async (query, _root, { input }, ctx) => {
      const user = await internalAuth.changePassword(ctx.caller!, input);
      return reloadUser(ctx, query, user);
    },
  }),
  logout: t.boolean({
    description: 'Signs the current session out (true once the session is ended).',
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
    description: 'Creates a user account (administrators).',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: CreateUserInput, required: true, description: 'The new account.' }) },
    resolve: async (query, _root, { input }, ctx) => {
      const user = await users.createUser(ctx.caller!, { ...input, lastName: input.lastName ?? '' });
      return reloadUser(ctx, query, user);
    },
  }),
  setUserActive: t.prismaField({
    type: 'User',
    description: 'Activates or deactivates a user (administrators); a deactivated user cannot sign in.',
    authScopes: { admin: true },
    errors: {},
    args: {
      id: t.arg.globalID({ required: true, for: UserNode, description: 'The user’s global id.' }),
      active: t.arg.boolean({ required: true, description: 'true to activate, false to deactivate.' }),
    },
    resolve: async (query, _root, { id, active }, ctx) => {
      const user = await users.setUserActive(ctx.caller!, id.id, active);
      return reloadUser(ctx, query, user);
    },
  }),
  // Pothos field declarations of the same shape (type, scope, errors, a user id and one more argument):
  // boilerplate, not repeated logic, so the copy-paste check skips them.
  // jscpd:ignore-start
  updateUser: t.prismaField({
    type: 'User',
    description: 'Changes a user’s name, role or access user ids (administrators).',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: UserNode, description: 'The user’s global id.' }),
      input: t.arg({ type: UpdateUserInput, required: true, description: 'The user’s global id and the fields to change; fields left out keep their value.' }),
    },
    resolve: async (query, _root, { id, input }, ctx) => {
      const user = await users.updateUser(ctx.caller!, id.id, {
        firstName: input.firstName ?? undefined,
        lastName: input.lastName ?? undefined,
        role: input.role ?? undefined,
        accessUserIds: input.accessUserIds ?? undefined,
      });
      return reloadUser(ctx, query, user);
    },
  }),
  resetUserPassword: t.prismaField({
    type: 'User',
    description: 'Sets a new password for a user, who must change it at their next sign-in (administrators).',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: UserNode, description: 'The user’s global id.' }),
      newPassword: t.arg.string({ required: true, description: 'The temporary password to give the user.' }),
    },
    resolve: async (query, _root, { id, newPassword }, ctx) => {
      const user = await users.resetPassword(ctx.caller!, id.id, { newPassword });
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
