// Password hashing (argon2id) and the SPEC's password rules.
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 6;
export const GENERATED_PASSWORD_LENGTH = 12;
const GENERATED_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*';

// OWASP's argon2id baseline (19 MiB, 2 passes). algorithm 2 = Argon2id (a const enum upstream).
const OPTIONS = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Same work as a real check, so timing does not tell whether the account exists.
    await hash(password, OPTIONS);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** 12 characters from letters, digits and !@#$%^&* (SPEC §5), with at least one of each kind. */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  const kinds = [/[A-Z]/, /[a-z]/, /[0-9]/, /[!@#$%^&*]/];
  for (;;) {
    let out = '';
    for (let i = 0; i < length; i++) out += GENERATED_ALPHABET[crypto.randomInt(GENERATED_ALPHABET.length)];
    if (kinds.every((k) => k.test(out))) return out;
  }
}
