// API tokens: who may create, list and revoke them, and the administrators'
// switch that lets every user create their own. GraphQL and REST both call
// these; resolving a presented token is auth/tokens.ts.
import type { ApiToken, ApiTokenScope, User } from '../../generated/prisma/client.js';
import { AuthenticationError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import type { Actor, DbClient } from '../../core/types.js';
import { DAY_MS, isUuid } from '../../core/types.js';
import { newTokenSecret } from '../../auth/tokens.js';
import { z } from 'zod';
import { isSingleLine, parseOrThrow, singleLineMessage } from '../../core/validation.js';
import type { Caller } from '../caller.js';

/** The admin_settings row of the switch ('true' or 'false'; absent means off). */
export const USERS_MAY_CREATE_TOKENS_KEY = 'api_tokens.users_may_create';
export const DEFAULT_EXPIRES_IN_DAYS = 90;
export const MAX_EXPIRES_IN_DAYS = 365;
export const MAX_TOKEN_NAME_LENGTH = 100;
export const DEFAULT_SCOPE: ApiTokenScope = 'read';
export const TOKEN_SCOPES: readonly ApiTokenScope[] = ['read', 'full'];

export type ApiTokenWithOwner = ApiToken & { user: User };

export interface TokenSettings {
  usersMayCreateTokens: boolean;
}

function signedInUser(actor: Actor): User {
  if (!actor.user) throw new AuthenticationError('You are not signed in');
  return actor.user;
}

/** Token management needs a signed-in session: an API token never creates or revokes tokens, nor changes the switch. */
export function requireSession(actor: Actor): User {
  const user = signedInUser(actor);
  if (!actor.sessionId) throw new ForbiddenError('API tokens can be managed only when signed in, not with an API token');
  return user;
}

function isAdmin(u: User): boolean {
  return u.role === 'admin' && !u.passwordResetRequired;
}

/** The administrators' switch as it stands. */
export function getTokenSettings(caller: Caller): Promise<TokenSettings> {
  return tokenSettingsIn(caller.deps.prisma);
}

async function tokenSettingsIn(db: DbClient): Promise<TokenSettings> {
  const row = await db.adminSetting.findUnique({ where: { settingKey: USERS_MAY_CREATE_TOKENS_KEY } });
  return { usersMayCreateTokens: row?.settingValue === 'true' };
}

/** Whether `user` (the caller or one they look at) may create tokens: administrators always; other signed-in users when the switch is on. */
export async function mayCreateTokens(caller: Caller, user: User): Promise<boolean> {
  if (!user.isActive || user.passwordResetRequired) return false;
  if (isAdmin(user)) return true;
  return (await getTokenSettings(caller)).usersMayCreateTokens;
}

export async function setTokenSettings(caller: Caller, input: unknown): Promise<TokenSettings> {
  const { actor } = caller;
  const me = requireSession(actor);
  if (!isAdmin(me)) throw new ForbiddenError('Only administrators can do this');
  const value = (input as { usersMayCreateTokens?: unknown } | null)?.usersMayCreateTokens;
  if (typeof value !== 'boolean') throw new ValidationError('usersMayCreateTokens must be true or false', 'usersMayCreateTokens');
  return caller.deps.prisma.$transaction(async (tx) => {
    const before = await tokenSettingsIn(tx);
    await tx.adminSetting.upsert({
      where: { settingKey: USERS_MAY_CREATE_TOKENS_KEY },
      create: {
        settingKey: USERS_MAY_CREATE_TOKENS_KEY,
        settingValue: String(value),
        description: 'Users other than administrators may create their own API tokens',
        updatedById: me.id,
      },
      update: { settingValue: String(value), updatedById: me.id },
    });
    await recordAudit(tx, actor, {
      action: 'api_token.settings_changed',
      entityType: 'AdminSetting',
      entityId: USERS_MAY_CREATE_TOKENS_KEY,
      before,
      after: { usersMayCreateTokens: value },
    });
    return { usersMayCreateTokens: value };
  });
}

const NAME_REQUIRED = 'Token name is required';
const DAYS = `expiresInDays must be a whole number of days from 1 to ${MAX_EXPIRES_IN_DAYS}`;

/** A token's input: name trimmed, expiry in whole days (1–365, default 90), scope (default read). Also the REST edge's body schema. */
export const createTokenSchema = z.object({
  name: z
    .string({ error: NAME_REQUIRED })
    .trim()
    .min(1, NAME_REQUIRED)
    .max(MAX_TOKEN_NAME_LENGTH, `Token name must be at most ${MAX_TOKEN_NAME_LENGTH} characters`)
    .refine((v) => !v.includes('\0'), 'Token name must not contain NUL characters')
    .refine(isSingleLine, singleLineMessage('Token name')),
  expiresInDays: z
    .number({ error: DAYS })
    .int(DAYS)
    .min(1, DAYS)
    .max(MAX_EXPIRES_IN_DAYS, DAYS)
    .nullish()
    .transform((v) => v ?? DEFAULT_EXPIRES_IN_DAYS),
  scope: z
    .enum(TOKEN_SCOPES as [ApiTokenScope, ...ApiTokenScope[]], { error: 'scope must be read or full' })
    .nullish()
    .transform((v) => v ?? DEFAULT_SCOPE),
  /** Optional; tokens are only ever created for the caller. */
  userId: z.string({ error: 'userId must be text' }).max(100, 'userId is not valid').nullish(),
});
export type CreateTokenInput = z.input<typeof createTokenSchema>;

/** The checked input (createTokenSchema), or a ValidationError naming the field. */
export function checkTokenInput(input: unknown): z.output<typeof createTokenSchema> {
  return parseOrThrow(createTokenSchema, input);
}

/** Who may create a token (a signed-in session, allowed by role or by the switch); REST checks it before reading the input. */
export async function assertMayCreateToken(caller: Caller): Promise<User> {
  const me = requireSession(caller.actor);
  if (!(await mayCreateTokens(caller, me))) {
    throw new ForbiddenError('Only administrators can create API tokens unless an administrator allows users to create their own');
  }
  return me;
}

export async function createToken(caller: Caller, input: CreateTokenInput): Promise<{ token: string; record: ApiTokenWithOwner }> {
  const { actor } = caller;
  const { prisma } = caller.deps;
  const me = await assertMayCreateToken(caller);
  if (input.userId != null && input.userId !== me.id) throw new ForbiddenError('API tokens can only be created for yourself');
  const { name, expiresInDays, scope } = checkTokenInput(input ?? {});
  const secret = newTokenSecret();
  const expiresAt = new Date(Date.now() + expiresInDays * DAY_MS);
  const record = await prisma.$transaction(async (tx) => {
    const r = await tx.apiToken.create({
      data: { userId: me.id, name, tokenHash: secret.tokenHash, prefix: secret.prefix, scope, expiresAt },
      include: { user: true },
    });
    await recordAudit(tx, actor, {
      action: 'api_token.created',
      entityType: 'ApiToken',
      entityId: r.id,
      after: { name, scope, expiresAt, prefix: r.prefix, userId: me.id },
    });
    return r;
  });
  return { token: secret.token, record };
}

/** Which tokens a caller may see: their own; with `all`, administrators see everyone's. */
export function tokenListFilter(caller: Caller, opts: { all?: boolean | null } = {}): { userId?: string } {
  const me = caller.actor.user;
  if (opts.all) {
    if (!isAdmin(me)) throw new ForbiddenError("Only administrators can list other users' tokens");
    return {};
  }
  return { userId: me.id };
}

export async function listTokens(caller: Caller, opts: { all?: boolean | null } = {}): Promise<ApiTokenWithOwner[]> {
  return caller.deps.prisma.apiToken.findMany({
    where: tokenListFilter(caller, opts),
    include: { user: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/**
 * Revokes one token: its owner or an administrator; an id the caller may not see is 'not found'.
 * After the commit, open subscriptions made with it are closed (server.ts listens for the event).
 */
export async function revokeToken(caller: Caller, id: string): Promise<ApiTokenWithOwner> {
  const { deps, actor } = caller;
  const { prisma } = deps;
  const me = requireSession(actor);
  const found = isUuid(id) ? await prisma.apiToken.findUnique({ where: { id }, include: { user: true } }) : null;
  if (!found || (found.userId !== me.id && !isAdmin(me))) throw new NotFoundError('API token not found');
  if (found.revokedAt) return found;
  const revoked = await prisma.$transaction(async (tx) => {
    const revokedAt = new Date();
    const { count } = await tx.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt } });
    const r = await tx.apiToken.findUniqueOrThrow({ where: { id }, include: { user: true } });
    if (count > 0) {
      await recordAudit(tx, actor, {
        action: 'api_token.revoked',
        entityType: 'ApiToken',
        entityId: id,
        before: { revokedAt: null },
        after: { revokedAt, name: r.name, userId: r.userId },
      });
    }
    return r;
  });
  deps.pubsub.publish('api-tokens:changed', { userId: revoked.userId });
  return revoked;
}

/** How many usable (not revoked, not expired) tokens a user has. */
export function countLiveTokens(caller: Caller, userId: string): Promise<number> {
  return caller.deps.prisma.apiToken.count({ where: { userId, revokedAt: null, expiresAt: { gt: new Date() } } });
}
