// Input checking shared by the services: a zod schema's first problem becomes
// a ValidationError naming the field.
import type { z } from 'zod';
import { ValidationError } from './errors.js';

export function parseOrThrow<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input ?? {});
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new ValidationError(issue.message, issue.path.join('.') || undefined);
  }
  return r.data;
}

/** E-mail addresses are compared trimmed and lower-cased (sign-in, single sign-on, accounts). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
