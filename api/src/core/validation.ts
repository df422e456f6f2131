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

/**
 * Characters that text of this product never carries, because a terminal, a log
 * viewer, a spreadsheet or a browser acts on them instead of showing them:
 * C0 controls other than tab, line feed and carriage return (ESC starts terminal
 * escape sequences, BEL rings), DEL, C1 controls (U+0080-U+009F: CSI is an 8-bit
 * ESC [), the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069: RTLO makes 'exe.txt' read 'txt.exe') and the byte order mark /
 * zero-width no-break space (U+FEFF). Typed text carrying one is refused at the
 * edge (stringProblem); text from files and other systems is neutralised where it
 * leaves (neutralizeText, used by the CSV and XLSX writers).
 */
const UNSAFE_CONTROL_RANGES: [number, number][] = [
  [0x00, 0x08],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0x9f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
];
const hex4 = (c: number) => c.toString(16).padStart(4, '0');
const UNSAFE_CONTROL = new RegExp(`[${UNSAFE_CONTROL_RANGES.map(([a, b]) => `\\u${hex4(a)}-\\u${hex4(b)}`).join('')}]`);
const UNSAFE_CONTROLS = new RegExp(UNSAFE_CONTROL.source, 'g');
/** Every unsafe character (NUL aside, which PostgreSQL text never holds) as a PostgreSQL U& string literal. */
export const UNSAFE_CONTROL_SQL_CHARS = `U&'${UNSAFE_CONTROL_RANGES.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i))
  .filter((c) => c !== 0)
  .map((c) => `\\${hex4(c)}`)
  .join('')}'`;

export const CONTROL_CHARACTERS_REFUSED = 'must not contain control characters (terminal escapes, bidirectional overrides or byte order marks)';

/** Whether a text carries a character of the unsafe class above. */
export function hasUnsafeControl(value: string): boolean {
  return UNSAFE_CONTROL.test(value);
}

/** Text from a file or another system with the unsafe characters above removed (anything else unchanged). */
export function neutralizeText(value: string): string {
  return UNSAFE_CONTROL.test(value) ? value.replace(UNSAFE_CONTROLS, '') : value;
}

/** A value as the workbook holds it: a number, or text without unsafe control characters (XML cannot even carry most). */
export const workbookCell = (v: unknown): string | number =>
  v === null || v === undefined ? '' : typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 'yes' : 'no') : neutralizeText(String(v));

/**
 * Fields whose text is a secret, compared and never shown: only NUL, surrogates
 * and length are refused there (a password may be any characters).
 */
const SECRET_FIELD = /password$/i;

/** Why a client string cannot be taken (NUL byte, lone surrogate, too long, an unsafe control character), or null. */
export function stringProblem(value: string, opts: { secret?: boolean } = {}): string | null {
  if (value.includes('\0')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired UTF-16 surrogates (invalid Unicode)';
  if (value.length > MAX_INPUT_STRING_LENGTH) return `is too long (${MAX_INPUT_STRING_LENGTH.toLocaleString('en-US')} characters at most)`;
  if (!opts.secret && UNSAFE_CONTROL.test(value)) return CONTROL_CHARACTERS_REFUSED;
  return null;
}

/** Whether the field named last in a path (`input.newPassword`, `currentPassword`) holds a secret. */
export function isSecretField(name: string | undefined): boolean {
  return Boolean(name && SECRET_FIELD.test(name));
}

/** A single-line text (a name, a title): no line break or tab. */
export function isSingleLine(value: string): boolean {
  return !/[\t\n\r\u2028\u2029]/.test(value);
}

/** A zod refinement for single-line fields: `.refine(isSingleLine, singleLineMessage('Name'))`. */
export const singleLineMessage = (label: string) => `${label} must be on one line (no line breaks or tabs)`;

/**
 * Walks a client value (object keys included) and throws a ValidationError naming
 * the first string path that stringProblem refuses.
 */
export function assertCleanStrings(value: unknown, path = ''): void {
  const seen = new Set<unknown>();
  const walk = (v: unknown, at: string, depth: number, key?: string): void => {
    if (typeof v === 'string') {
      const problem = stringProblem(v, { secret: isSecretField(key) });
      if (problem) throw new ValidationError(`${at || 'The value'} ${problem}`, at || undefined);
      return;
    }
    if (v === null || typeof v !== 'object' || seen.has(v) || depth > 64) return;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${at}[${i}]`, depth + 1, key));
      return;
    }
    // Only what JSON and query strings produce: an upload (a file stream) is not client text.
    // (Plain objects, and the null-prototype ones query-string parsers build.)
    const proto = Object.getPrototypeOf(v);
    if (proto !== null && Object.getPrototypeOf(proto) !== null) return;
    for (const [k, item] of Object.entries(v)) {
      const keyProblem = stringProblem(k);
      if (keyProblem) throw new ValidationError(`A field name${at ? ` in ${at}` : ''} ${keyProblem}`, at || undefined);
      walk(item, at ? `${at}.${k}` : k, depth + 1, k);
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

/** What dates a client may send: within four-digit years. */
export const PLAUSIBLE_YEARS = '(the year must be from 1000 to 9999)';

/**
 * Whether a date is one this product can keep and show: a four-digit year. Dates
 * outside (year 0, 275760, -271821) are valid JavaScript but are written by
 * toISOString with a sign and six digits, which no ISO-8601 reader takes, and
 * some lie outside PostgreSQL's range: accepted, they break every later read.
 */
export function isPlausibleDate(d: Date): boolean {
  const y = d.getUTCFullYear();
  return !Number.isNaN(d.getTime()) && y >= 1000 && y <= 9999;
}

/**
 * A date given as an ISO string, a timestamp or a Date. z.coerce.date alone also
 * takes true (1 ms after 1970) and one-element arrays, which are never dates.
 */
export function dateInput(message: string) {
  return z
    .preprocess(
      (v) => (typeof v === 'string' || typeof v === 'number' || v instanceof Date || v == null ? v : Number.NaN),
      z.coerce.date({ error: message }).refine(isPlausibleDate, `${message} ${PLAUSIBLE_YEARS}`),
    )
    .meta({ anyOf: [{ type: 'string', format: 'date-time' }, { type: 'string', format: 'date' }, { type: 'number' }] });
}

/**
 * A risk row's id as a client sends it: a whole number (JSON) or its digits (a
 * string), at most 18 digits so that it fits PostgreSQL's bigint (a longer one
 * would reach the database and fail there as an internal error).
 */
export function rowIdInput(message: string) {
  return z.union([z.number().int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message), z.string().regex(/^\d{1,18}$/, message)], {
    error: message,
  });
}
