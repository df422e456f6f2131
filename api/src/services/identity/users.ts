// User administration: the first administrator, creating, editing, activating
// and deactivating users, and password resets (the new password e-mailed).
import { z } from 'zod';
import type { PrismaClient, Role, User } from '../../generated/prisma/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import {
  MAX_CRITERIA_VALUE_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  isSingleLine,
  optionalText,
  parseOrThrow,
  singleLineMessage,
} from '../../core/validation.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import type { Caller } from '../caller.js';
import { isUuid } from '../../core/types.js';
import { publicUser } from '../../core/types.js';
import type { Config } from '../../config.js';
import { generatePassword, hashPassword, MIN_PASSWORD_LENGTH } from '../../auth/passwords.js';
import { endUserSessions } from '../../auth/sessions.js';
import { normalizeEmail } from '../../core/validation.js';
import type { AppDeps } from '../deps.js';
import { HOLDS_WORK } from '../holds.js';
import { changingWhatTheySee } from '../review/assignments.js';
import { dispatch } from '../kept/dispatcher.js';
import { assertSignedInSession } from './auth.js';

import { personLabel } from '../../core/people.js';

/** How a person is named on screen and in files (the one rule: core/people.ts). */
export { displayName, personLabel } from '../../core/people.js';

/** The e-mail with a new password carries the sign-in link. */
export function signInLink(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl}/internal-login`;
}

/** First start: creates the administrator when there is no user at all. */
export async function ensureFirstAdmin(
  deps: Pick<AppDeps, 'prisma' | 'log'>,
  opts: { email: string; password?: string },
): Promise<{ created: boolean; generatedPassword?: string }> {
  if ((await deps.prisma.user.count()) > 0) return { created: false };
  const password = opts.password ?? generatePassword();
  // Start-up runs this under an advisory lock; a user created meanwhile by other means still wins.
  const user = await deps.prisma
    .$transaction(async (tx) => {
      const u = await tx.user.create({
        data: {
          email: normalizeEmail(opts.email),
          firstName: 'Administrator',
          lastName: '',
          role: 'admin',
          passwordHash: await hashPassword(password),
          passwordResetRequired: true,
        },
      });
      await recordAudit(tx, null, { action: 'user.created', entityType: 'User', entityId: u.id, after: publicUser(u) });
      return u;
    })
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === 'P2002') return null;
      throw err;
    });
  if (!user) return { created: false };
  deps.log(`created the first administrator ${user.email}`);
  return { created: true, generatedPassword: opts.password ? undefined : password };
}

const NAME_TOO_LONG = (label: string) => `${label} is too long (${MAX_NAME_LENGTH} characters at most)`;
/** Also the REST edge's body schema (rest/identity/users.ts). */
export const createUserSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(MAX_EMAIL_LENGTH, `Email is too long (${MAX_EMAIL_LENGTH} characters at most)`)
    .email('Please enter a valid email address'),
  firstName: z
    .string({ error: 'First name is required' })
    .trim()
    .min(1, 'First name is required')
    .max(MAX_NAME_LENGTH, NAME_TOO_LONG('First name'))
    .refine(isSingleLine, singleLineMessage('First name')),
  lastName: z
    .string({ error: 'Last name must be text' })
    .trim()
    .max(MAX_NAME_LENGTH, NAME_TOO_LONG('Last name'))
    .refine(isSingleLine, singleLineMessage('Last name'))
    .optional()
    .default(''),
  role: z.enum(['admin', 'reviewer'], { error: 'Role must be admin or reviewer' }),
  password: z
    .string({ error: 'Password must be text' })
    .min(MIN_PASSWORD_LENGTH, 'Password must be at least 6 characters long')
    .max(MAX_PASSWORD_LENGTH, `Password is too long (${MAX_PASSWORD_LENGTH.toLocaleString('en-US')} characters at most)`)
    .optional(),
});

export type CreateUserInput = z.input<typeof createUserSchema>;

/**
 * Creates a user with an initial password (given, or generated and e-mailed);
 * the user must change it at first sign-in.
 */
export async function createUser(caller: Caller, input: CreateUserInput): Promise<User> {
  const { deps, actor } = caller;
  const data = parseOrThrow(createUserSchema, input);
  const email = normalizeEmail(data.email);
  const password = data.password ?? generatePassword();
  let user: User;
  try {
    user = await deps.prisma.$transaction(async (tx) => {
      const u = await tx.user.create({
        data: {
          email,
          firstName: data.firstName,
          lastName: data.lastName,
          role: data.role as Role,
          passwordHash: await hashPassword(password),
          passwordResetRequired: true,
        },
      });
      await recordAudit(tx, actor, { action: 'user.created', entityType: 'User', entityId: u.id, after: publicUser(u) });
      return u;
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      throw new ConflictError(`A user with the email ${email} already exists`);
    }
    throw err;
  }
  if (!data.password) {
    await deps.mailer.send({
      to: user.email,
      subject: 'Your GRC Platform account',
      text:
        `Hello ${user.firstName},\n\nAn account has been created for you on the GRC Platform.\n\n` +
        `Email: ${user.email}\nTemporary password: ${password}\n\n` +
        `Sign in at ${signInLink(deps.config)}\n\n` +
        'You will be asked to choose a new password when you first sign in.\n',
    });
  }
  return user;
}

/**
 * What an edit may change: name and role. Any other field (an e-mail, which
 * is the sign-in identity) is refused by name rather than ignored, so that a
 * caller never takes a 200 for a change that was not made.
 */
export const updateUserSchema = z.strictObject(
  {
    firstName: z
      .string({ error: 'First name must be text' })
      .trim()
      .min(1, 'First name is required')
      .max(MAX_NAME_LENGTH, NAME_TOO_LONG('First name'))
      .refine(isSingleLine, singleLineMessage('First name'))
      .optional(),
    lastName: z
      .string({ error: 'Last name must be text' })
      .trim()
      .max(MAX_NAME_LENGTH, NAME_TOO_LONG('Last name'))
      .refine(isSingleLine, singleLineMessage('Last name'))
      .optional(),
    role: z.enum(['admin', 'reviewer'], { error: 'Role must be admin or reviewer' }).optional(),
    accessUserIds: z
      .array(
        z
          .string({ error: 'Access user ids must be text' })
          .trim()
          .min(1, 'An access user id cannot be empty')
          .max(MAX_CRITERIA_VALUE_LENGTH, `An access user id is too long (${MAX_CRITERIA_VALUE_LENGTH} characters at most)`)
          .refine(isSingleLine, singleLineMessage('An access user id')),
        { error: 'accessUserIds must be a list of user ids' },
      )
      .max(50, 'At most 50 access user ids')
      .optional(),
  },
  {
    // The message predates access user ids and clients match it: it names the fields of the profile itself.
    error: (iss) =>
      iss.code === 'unrecognized_keys' ? `${iss.keys.join(', ')} cannot be changed: a user's first name, last name and role can be edited` : undefined,
  },
);
export type UpdateUserInput = z.input<typeof updateUserSchema>;

/**
 * Edits a user's name, role and access user ids (the user ids in the source
 * systems that are this person: the rows of them they never review). An
 * administrator cannot change their own role (no self-lockout); a change of
 * access user ids changes what they (and the fallback reviewers) see.
 */
export async function updateUser(caller: Caller, userId: string, input: UpdateUserInput): Promise<User> {
  const { deps, actor } = caller;
  if (!isUuid(userId)) throw new NotFoundError('User not found');
  const data = parseOrThrow(updateUserSchema, input);
  return deps.prisma.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId } });
    if (!before) throw new NotFoundError('User not found');
    if (data.role && data.role !== before.role && actor.user.id === userId) {
      throw new ForbiddenError('You cannot change your own role');
    }
    // Work is assigned to reviewers only (assignment creation refuses anyone
    // else): a reviewer who holds work hands it over before becoming an administrator.
    if (data.role === 'admin' && before.role === 'reviewer' && (await tx.user.count({ where: { id: userId, ...HOLDS_WORK } }))) {
      throw new ConflictError(`${personLabel(before)} holds review work: reassign it with Reassign Work before making them an administrator`);
    }
    const accessUserIds = data.accessUserIds && [...new Set(data.accessUserIds)];
    const update = () => tx.user.update({ where: { id: userId }, data: { ...data, accessUserIds, role: data.role as Role | undefined } });
    const ownChanged = accessUserIds && JSON.stringify(accessUserIds) !== JSON.stringify(before.accessUserIds);
    const user = ownChanged ? await changingWhatTheySee(tx, deps.jobs, [userId], update) : await update();
    // A reviewer's scope may now be on the dashboard's list with no figures kept.
    if (user.role === 'reviewer' && before.role !== 'reviewer' && user.isActive) await dispatch(tx, { kind: 'reviewer-activated', jobs: deps.jobs });
    await recordAudit(tx, actor, {
      action: 'user.updated',
      entityType: 'User',
      entityId: userId,
      before: { firstName: before.firstName, lastName: before.lastName, role: before.role, accessUserIds: before.accessUserIds },
      after: { firstName: user.firstName, lastName: user.lastName, role: user.role, accessUserIds: user.accessUserIds },
    });
    return user;
  });
}

/**
 * The operator's way back in when the administrator's password is lost
 * (`npm run reset-admin-password`, run on the server): a generated password
 * for an active administrator, to be changed at next sign-in; their sessions
 * end. Audited with no user as the actor (the console, not a person signed in).
 */
export async function resetAdministratorPassword(prisma: PrismaClient, email: string): Promise<{ email: string; password: string }> {
  const user = await prisma.user.findFirst({ where: { email: normalizeEmail(email) } });
  if (!user) throw new NotFoundError(`No user has the e-mail address ${normalizeEmail(email)}`);
  if (user.role !== 'admin')
    throw new ValidationError(`${user.email} is not an administrator: an administrator resets other users' passwords in Users`, 'email');
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, passwordResetRequired: true } });
    await endUserSessions(tx, user.id, null);
    await recordAudit(tx, null, {
      action: 'user.password_reset',
      entityType: 'User',
      entityId: user.id,
      after: { passwordResetRequired: true, by: 'console' },
    });
  });
  return { email: user.email, password };
}

/**
 * An administrator sets a new password for a user (typed, or made with
 * 'Generate'). The user must change it at next sign-in, is signed out
 * everywhere, and receives it by e-mail.
 */
export async function resetPassword(caller: Caller, userId: string, input: { newPassword?: string | null }): Promise<User> {
  const { deps, actor } = caller;
  if (!isUuid(userId)) throw new NotFoundError('User not found');
  if (actor.user.id === userId) assertSignedInSession(actor);
  const newPassword = optionalText(input.newPassword, 'newPassword', 'New password', MAX_PASSWORD_LENGTH);
  if (!newPassword) throw new ValidationError('New password is required', 'newPassword');
  if (newPassword.length < MIN_PASSWORD_LENGTH) throw new ValidationError('Password must be at least 6 characters long', 'newPassword');
  const passwordHash = await hashPassword(newPassword);
  const user = await deps.prisma.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId } });
    if (!before) throw new NotFoundError('User not found');
    const u = await tx.user.update({ where: { id: userId }, data: { passwordHash, passwordResetRequired: true } });
    await endUserSessions(tx, userId, actor.user.id === userId ? actor.sessionId : null);
    await recordAudit(tx, actor, {
      action: 'user.password_reset',
      entityType: 'User',
      entityId: userId,
      after: { passwordResetRequired: true },
    });
    return u;
  });
  if (actor.user.id !== userId) deps.pubsub.publish('session:ended', userId, { userId, reason: 'password_reset' });
  await deps.mailer.send({
    to: user.email,
    subject: 'Your GRC Platform password was reset',
    text:
      `Hello ${user.firstName},\n\nAn administrator has reset your GRC Platform password.\n\n` +
      `Email: ${user.email}\nTemporary password: ${newPassword}\n\n` +
      `Sign in at ${signInLink(deps.config)}\n\n` +
      'You will be asked to choose a new password when you next sign in.\n',
  });
  return user;
}

/** The users list's filters (search over names and e-mail, role, active). */
export function userFilter(f: { search?: string | null; role?: Role | null; active?: boolean | null }): Prisma.UserWhereInput {
  const q = f.search?.trim();
  return {
    ...(f.role ? { role: f.role } : {}),
    ...(typeof f.active === 'boolean' ? { isActive: f.active } : {}),
    ...(q
      ? {
          OR: [
            { firstName: { contains: q, mode: 'insensitive' } },
            { lastName: { contains: q, mode: 'insensitive' } },
            { email: { contains: q, mode: 'insensitive' } },
          ],
        }
      : {}),
  };
}

export async function listUsers(caller: Caller, filter: Parameters<typeof userFilter>[0] = {}): Promise<User[]> {
  return caller.deps.prisma.user.findMany({ where: userFilter(filter), orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function setUserActive(caller: Caller, userId: string, active: boolean): Promise<User> {
  const { deps, actor } = caller;
  if (!isUuid(userId)) throw new NotFoundError('User not found');
  if (!active && actor.user.id === userId) throw new ForbiddenError('You cannot deactivate your own account');
  const updated = await deps.prisma.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId } });
    if (!before) throw new NotFoundError('User not found');
    // A reviewer coming or going changes who covers what: the fallback reviewers' rows move.
    const activate = () => tx.user.update({ where: { id: userId }, data: { isActive: active } });
    const user = before.role === 'reviewer' && before.isActive !== active ? await changingWhatTheySee(tx, deps.jobs, [userId], activate) : await activate();
    // A deactivated user is signed out everywhere at once.
    if (!active) await endUserSessions(tx, userId);
    // A reviewer made active again: their scope may have no dashboard figures kept.
    else if (!before.isActive && user.role === 'reviewer') await dispatch(tx, { kind: 'reviewer-activated', jobs: deps.jobs });
    await recordAudit(tx, actor, {
      action: active ? 'user.activated' : 'user.deactivated',
      entityType: 'User',
      entityId: userId,
      before: { isActive: before.isActive },
      after: { isActive: active },
    });
    return user;
  });
  // After the commit: open browsers of a deactivated user sign out at once.
  if (!active) {
    deps.pubsub.publish('session:ended', userId, { userId, reason: 'deactivated' });
    // Their API tokens are refused from now on, connections already open with one too.
    deps.pubsub.publish('api-tokens:changed', { userId });
  }
  return updated;
}
