/**
 * The internal user kept in local storage (SPEC §3): a copy of who is signed
 * in, used to share sign-in and sign-out between tabs. The server's session
 * cookie stays the source of truth.
 */
export const INTERNAL_USER_KEY = 'internal_user';

export type InternalUser = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  passwordResetRequired: boolean;
};

export type StoredUserResult = { status: 'none' } | { status: 'valid'; user: InternalUser } | { status: 'corrupt' };

function isInternalUser(value: unknown): value is InternalUser {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.email === 'string' &&
    (v.firstName === undefined || v.firstName === null || typeof v.firstName === 'string') &&
    (v.lastName === undefined || v.lastName === null || typeof v.lastName === 'string') &&
    (v.passwordResetRequired === undefined || typeof v.passwordResetRequired === 'boolean')
  );
}

/** Parses a stored value; a corrupt one is logged and removed. */
export function parseStoredUser(raw: string | null): StoredUserResult {
  if (raw == null) return { status: 'none' };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isInternalUser(parsed)) {
      return {
        status: 'valid',
        user: {
          id: parsed.id,
          email: parsed.email,
          firstName: parsed.firstName ?? '',
          lastName: parsed.lastName ?? '',
          passwordResetRequired: parsed.passwordResetRequired === true,
        },
      };
    }
    throw new Error('unexpected shape');
  } catch (error) {
    console.error(`Corrupt ${INTERNAL_USER_KEY} in local storage; signing out.`, error);
    clearStoredUser();
    return { status: 'corrupt' };
  }
}

/**
 * Whether this page found a corrupt stored user. The first read removes it,
 * so a later reader (the session's start, after the boot code's look) would
 * see none and sign the user in again from the cookie: it asks this instead.
 */
let corruptFound = false;

export function corruptStoredUserFound(): boolean {
  return corruptFound;
}

export function readStoredUser(): StoredUserResult {
  try {
    const stored = parseStoredUser(window.localStorage.getItem(INTERNAL_USER_KEY));
    if (stored.status === 'corrupt') corruptFound = true;
    return stored;
  } catch {
    return { status: 'none' };
  }
}

export function writeStoredUser(user: InternalUser): void {
  const value: InternalUser = {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    passwordResetRequired: user.passwordResetRequired,
  };
  const serialized = JSON.stringify(value);
  try {
    if (window.localStorage.getItem(INTERNAL_USER_KEY) !== serialized) {
      window.localStorage.setItem(INTERNAL_USER_KEY, serialized);
    }
  } catch {
    // Storage can be unavailable (private mode, quota); the cookie session still works.
  }
}

export function clearStoredUser(): void {
  try {
    window.localStorage.removeItem(INTERNAL_USER_KEY);
  } catch {
    // ignore
  }
}
