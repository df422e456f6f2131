// Internal sign-in: e-mail and password, the forced change of an initial
// password, sign-out. Used by the GraphQL mutations and the REST routes alike.
import type { PrismaClient, User } from '../../generated/prisma/client.js';
import { AuthenticationError, ForbiddenError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, normalizeEmail, optionalText } from '../../core/validation.js';
import type { Actor } from '../../core/types.js';
import { hashPassword, verifyPassword, MIN_PASSWORD_LENGTH } from '../../auth/passwords.js';
import { createSession, endSession, endUserSessions, type NewSession } from '../../auth/sessions.js';
import { ACCOUNT_ALERT_FAILURES, THROTTLE_WINDOW_MS, assertNotThrottled, clearFailures, recordFailure, type Lockout } from '../../auth/throttle.js';
import { revokeUserApiTokens } from '../../auth/tokens.js';
import { sendNotificationAs, type NotificationDeps } from './notifications.js';
import type { PubSub } from '../../pubsub.js';
import type { Caller } from '../caller.js';

export const INVALID_CREDENTIALS = 'Invalid credentials';
export const ACCOUNT_DEACTIVATED = 'Account is deactivated';

export interface LoginInput {
  email?: string | null;
  password?: string | null;
}

export interface LoginResult {
  user: User;
  session: NewSession;
}

export async function login(
  prisma: PrismaClient,
  input: LoginInput,
  /** pubsub: to deliver the administrators' alert live when an account reaches the failure threshold. */
  meta: { ip?: string | null; userAgent?: string | null; sessionTtlHours: number; pubsub?: PubSub },
): Promise<LoginResult> {
  const email = normalizeEmail(optionalText(input.email, 'email', 'Email', MAX_EMAIL_LENGTH));
  const password = optionalText(input.password, 'password', 'Password', MAX_PASSWORD_LENGTH);
  if (!email || !password) throw new ValidationError('Please enter both email and password');

  await assertNotThrottled(prisma, email, meta.ip);
  const user = await prisma.user.findUnique({ where: { email } });
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!user || !ok) {
    const { alert, lockouts } = await recordFailure(prisma, email, meta.ip);
    await auditFailedSignIn(prisma, { email, userId: user?.id ?? null, ip: meta.ip, reason: user ? 'wrong_password' : 'unknown_user', lockouts });
    if (alert && user && meta.pubsub) await alertAdministrators({ prisma, pubsub: meta.pubsub }, user, meta.ip);
    throw new AuthenticationError(INVALID_CREDENTIALS);
  }
  // Only after a correct password, so the state of an account is not revealed to guessers.
  if (!user.isActive) {
    await auditFailedSignIn(prisma, { email, userId: user.id, ip: meta.ip, reason: 'deactivated', lockouts: [] });
    throw new ForbiddenError(ACCOUNT_DEACTIVATED);
  }

  await clearFailures(prisma, email, meta.ip);
  return prisma.$transaction(async (tx) => {
    const session = await createSession(tx, user.id, meta.sessionTtlHours, meta);
    const updated = await tx.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date(), lastSeenAt: new Date() } });
    await recordAudit(tx, { user: updated, ip: meta.ip }, { action: 'user.login', entityType: 'User', entityId: user.id });
    return { user: updated, session };
  });
}

/**
 * A failed internal sign-in in the audit trail (the e-mail tried, never the
 * password), and each wait it started (`auth.locked_out`), in one transaction.
 */
async function auditFailedSignIn(
  prisma: PrismaClient,
  f: { email: string; userId: string | null; ip: string | null | undefined; reason: 'wrong_password' | 'unknown_user' | 'deactivated'; lockouts: Lockout[] },
): Promise<void> {
  const actor = { user: null, ip: f.ip ?? null };
  const actorLabel = `sign-in attempt <${f.email}>`;
  await prisma.$transaction(async (tx) => {
    await recordAudit(tx, actor, {
      action: 'auth.sign_in_failed',
      entityType: 'User',
      entityId: f.userId,
      actorLabel,
      after: { email: f.email, reason: f.reason, method: 'password' },
    });
    for (const l of f.lockouts) {
      await recordAudit(tx, actor, {
        action: 'auth.locked_out',
        entityType: 'User',
        entityId: f.userId,
        actorLabel,
        after: { email: f.email, scope: l.scope, failures: l.failures, until: l.until.toISOString() },
      });
    }
  });
}

/**
 * Many failed sign-ins on one account from anywhere: the account is not locked
 * (that would let anyone lock anyone out), the administrators are told, once
 * per throttle window (recordFailure hands the alert to one caller only).
 */
async function alertAdministrators(deps: NotificationDeps, user: User, ip: string | null | undefined): Promise<void> {
  const admins = await deps.prisma.user.findMany({ where: { role: 'admin', isActive: true }, select: { id: true } });
  const minutes = THROTTLE_WINDOW_MS / 60_000;
  for (const admin of admins) {
    await sendNotificationAs(
      deps,
      { user: null, ip: ip ?? null },
      {
        type: 'warning',
        title: 'Repeated failed sign-ins',
        message:
          `There have been ${ACCOUNT_ALERT_FAILURES} failed sign-in attempts for ${user.email} in the last ${minutes} minutes. ` +
          'The account is not locked: each address is slowed down after a few failures. ' +
          'If the attempts were not made by its owner, someone may be guessing the password.',
        targetType: 'specific',
        targetUserId: admin.id,
      },
    );
  }
}

export interface ChangePasswordInput {
  /** Optional (REST sends it); must be the caller's own id. */
  userId?: string | null;
  currentPassword?: string | null;
  newPassword?: string | null;
  /** Also revoke every API token of the user, in the same transaction. */
  revokeApiTokens?: boolean | null;
}

/** The SPEC §5 rules, in the order the SPEC gives them; the first broken one is reported. */
export function checkNewPassword(input: ChangePasswordInput): void {
  const current = optionalText(input.currentPassword, 'currentPassword', 'Current password', MAX_PASSWORD_LENGTH);
  const next = optionalText(input.newPassword, 'newPassword', 'New password', MAX_PASSWORD_LENGTH);
  if (!current) throw new ValidationError('Current password is required', 'currentPassword');
  if (!next) throw new ValidationError('New password is required', 'newPassword');
  if (next.length < MIN_PASSWORD_LENGTH) throw new ValidationError('Password must be at least 6 characters long', 'newPassword');
  if (next === current) throw new ValidationError('New password must be different from current password', 'newPassword');
}

export const PASSWORD_NEEDS_SESSION = 'A password can only be changed from a signed-in session, not with an API token';

/**
 * A password is changed only by someone signed in with it (a session): an API
 * token, whatever its scope, must not be able to take over its owner's account.
 */
export function assertSignedInSession(actor: Actor): void {
  if (!actor.sessionId) throw new ForbiddenError(PASSWORD_NEEDS_SESSION);
}

export async function changePassword(caller: Caller, input: ChangePasswordInput): Promise<User> {
  const { deps, actor } = caller;
  const { prisma } = deps;
  const me = actor.user;
  assertSignedInSession(actor);
  if (input.userId != null && typeof input.userId !== 'string') throw new ValidationError('userId must be text', 'userId');
  if (input.userId && input.userId !== me.id) throw new ForbiddenError('You can only change your own password');
  checkNewPassword(input);
  if (input.revokeApiTokens != null && typeof input.revokeApiTokens !== 'boolean') {
    throw new ValidationError('revokeApiTokens must be true or false', 'revokeApiTokens');
  }
  const fresh = await prisma.user.findUniqueOrThrow({ where: { id: me.id } });
  if (!(await verifyPassword(fresh.passwordHash, input.currentPassword!))) {
    throw new ValidationError('Current password is incorrect', 'currentPassword');
  }
  const passwordHash = await hashPassword(input.newPassword!);
  let tokensRevoked = 0;
  const changed = await prisma.$transaction(async (tx) => {
    const user = await tx.user.update({ where: { id: me.id }, data: { passwordHash, passwordResetRequired: false } });
    // Any other place still signed in with the old password is signed out.
    await endUserSessions(tx, me.id, actor.sessionId);
    if (input.revokeApiTokens === true) tokensRevoked = await revokeUserApiTokens(tx, actor, me.id, 'password_changed');
    await recordAudit(tx, actor, {
      action: 'user.password_changed',
      entityType: 'User',
      entityId: me.id,
      before: { passwordResetRequired: fresh.passwordResetRequired },
      after: { passwordResetRequired: false },
    });
    return user;
  });
  if (tokensRevoked > 0) deps.pubsub.publish('api-tokens:changed', { userId: me.id });
  return changed;
}

export async function logout(prisma: PrismaClient, actor: Actor): Promise<void> {
  if (!actor.sessionId) return;
  await prisma.$transaction(async (tx) => {
    await endSession(tx, actor.sessionId!);
    if (actor.user) await recordAudit(tx, actor, { action: 'user.logout', entityType: 'User', entityId: actor.user.id });
  });
}
