// Input checking shared by the services: a zod schema's first problem becomes
// a ValidationError naming the field.
import { z } from 'zod';
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

/**
 * The edge backstop for any string a client sends (REST body, query and path
 * parameters; GraphQL variables and literal arguments). No field of this API
 * legitimately carries more: the longest are a notification message (5,000) and
 * decision comments (4,000). File contents travel as multipart uploads, not strings.
 */
export const MAX_INPUT_STRING_LENGTH = 10_000;
/** Field limits fitting their meaning (checked by the services' schemas). */
export const MAX_NAME_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_CRITERIA_VALUE_LENGTH = 500;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a client string cannot be taken (NUL byte, lone surrogate, too long), or null. */
export function stringProblem(value: string): string | null {
  if (value.includes('\0')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired UTF-16 surrogates (invalid Unicode)';
  if (value.length > MAX_INPUT_STRING_LENGTH) return `is too long (${MAX_INPUT_STRING_LENGTH.toLocaleString('en-US')} characters at most)`;
  return null;
}

/**
 * Walks a client value (object keys included) and throws a ValidationError naming
 * the first string path that stringProblem refuses.
 */
export function assertCleanStrings(value: unknown, path = ''): void {
  const seen = new Set<unknown>();
  const walk = (v: unknown, at: string, depth: number): void => {
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem) throw new ValidationError(`${at || 'The value'} ${problem}`, at || undefined);
      return;
    }
    if (v === null || typeof v !== 'object' || seen.has(v) || depth > 64) return;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${at}[${i}]`, depth + 1));
      return;
    }
    // Only what JSON and query strings produce: an upload (a file stream) is not client text.
    // (Plain objects, and the null-prototype ones query-string parsers build.)
    const proto = Object.getPrototypeOf(v);
    if (proto !== null && Object.getPrototypeOf(proto) !== null) return;
    for (const [k, item] of Object.entries(v)) {
      const keyProblem = stringProblem(k);
      if (keyProblem) throw new ValidationError(`A field name${at ? ` in ${at}` : ''} ${keyProblem}`, at || undefined);
      walk(item, at ? `${at}.${k}` : k, depth + 1);
    }
  };
  walk(value, path, 0);
}

/** A field that must be text when present (absent is ''), at most `max` characters; the message names it. */
export function optionalText(value: unknown, field: string, label: string, max: number): string {
  if (value == null) return '';
  if (typeof value !== 'string') throw new ValidationError(`${label} must be text`, field);
  if (value.length > max) throw new ValidationError(`${label} is too long (${max.toLocaleString('en-US')} characters at most)`, field);
  return value;
}

/**
 * A date given as an ISO string, a timestamp or a Date. z.coerce.date alone also
 * takes true (1 ms after 1970) and one-element arrays, which are never dates.
 */
export function dateInput(message: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' || typeof v === 'number' || v instanceof Date || v == null ? v : Number.NaN),
    z.coerce.date({ error: message }),
  ).meta({ anyOf: [{ type: 'string', format: 'date-time' }, { type: 'string', format: 'date' }, { type: 'number' }] });
}
