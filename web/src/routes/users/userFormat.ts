/** SPEC §5: a simple e-mail format check (the server validates again). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** SPEC §9: the generated password is 12 characters. */
export const GENERATED_PASSWORD_LENGTH = 12;
const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*';

/** SPEC §5: 'Generate' makes a random password from letters, digits and !@#$%^&*. */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  const n = PASSWORD_ALPHABET.length;
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % n);
  const out: string[] = [];
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < limit && out.length < length) out.push(PASSWORD_ALPHABET[b % n]!);
    }
  }
  return out.join('');
}

export const ROLE_OPTIONS = [
  { value: 'ADMIN', label: 'Administrator' },
  { value: 'REVIEWER', label: 'Reviewer' },
] as const;

export type RoleValue = (typeof ROLE_OPTIONS)[number]['value'];

/** The first error message of a mutation's typed error, if any. */
export function resultMessage(result: { readonly __typename: string; readonly message?: string }): string | undefined {
  return 'message' in result ? result.message : undefined;
}
