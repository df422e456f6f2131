// REST input at the edge: every /api route declares zod schemas for its path
// parameters, query and JSON body (schema.params / querystring / body). Fastify
// checks them before the handler runs (a 400 whose message names the field) and
// hands the handler the parsed values; rest/openapi.ts publishes the same schemas
// as JSON Schema, so the document and the checks cannot disagree.
import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';
import { ValidationError } from '../core/errors.js';

/** What a route declares: its summary in the document, and its inputs. */
export interface RouteSchema {
  summary?: string;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** A body that is not JSON (the multipart upload): documented, read by the handler. */
  multipartBody?: z.ZodType;
  /**
   * The JSON of a successful answer, as a client receives it (dates as ISO-8601
   * strings): documented in /api/openapi.json and checked against the real
   * answers in the API tests. Not used to serialise (the handler's value is sent as is).
   */
  reply?: z.ZodType;
  /** The status of a successful answer (200 unless given, e.g. 201 for a creation, 204 for none, 302 for a redirect). */
  replyStatus?: number;
  /** A successful answer that is a file (or may be), by media type: e.g. { 'text/csv': { schema } }. */
  replyFiles?: Record<string, { schema: Record<string, unknown> }>;
  /** Headers of the successful answer (e.g. Location of a redirect, X-Total-Rows of an export). */
  replyHeaders?: Record<string, { description: string; schema: Record<string, unknown> }>;
  /** What the successful answer is, in words (the document's response description). */
  replyDescription?: string;
}

/** The route option: `schema: routeSchema({ ... })`. */
export const routeSchema = (s: RouteSchema) => s as FastifySchema;

/** Text of at most `max` characters; the messages name the field as people read it. */
export function text(label: string, max: number) {
  return z.string({ error: `${label} must be text` }).max(max, `${label} is too long (${max.toLocaleString('en-US')} characters at most)`);
}

/** A whole number from `min` to `max`, sent as a number (JSON) or a string (query). */
export function wholeNumber(field: string, min: number, max: number) {
  const whole = `${field} must be a whole number`;
  return z.coerce
    .number({ error: whole })
    .min(min, `${field} must be at least ${min.toLocaleString('en-US')}`)
    .max(max, `${field} must be at most ${max.toLocaleString('en-US')}`)
    .int(whole);
}

/** A query flag: true or false. */
export const flag = (field: string) => z.enum(['true', 'false'], { error: `${field} must be true or false` });

/** The id in a path (records' ids are UUIDs or numbers; a longer one names nothing). */
export const idParams = z.object({ id: text('id', 100).min(1, 'id is required') });

/** A list whose items are named by position in messages ("Decision 2: …"). */
const itemLabels = new WeakMap<z.ZodType, string>();
export function listOf<T extends z.ZodType>(itemLabel: string, item: T, max: number) {
  const list = z
    .array(item, { error: `A list of ${itemLabel.toLowerCase()}s is expected` })
    .max(max, `At most ${max.toLocaleString('en-US')} ${itemLabel.toLowerCase()}s at once`);
  itemLabels.set(list, itemLabel);
  return list;
}

/** A message without its own wording says which field it is about. */
function withField(issue: z.core.$ZodRawIssue): string {
  const where = issue.path?.join('.');
  const own = z.config().localeError?.(issue);
  const text = typeof own === 'string' ? own : (own?.message ?? 'Invalid value');
  return where ? `${where}: ${text}` : text;
}

/** The first problem as a ValidationError; inside a labelled list, the item's position leads. */
function edgeError(schema: z.ZodType, issue: z.core.$ZodIssue): ValidationError {
  const full = issue.path.join('.');
  const generic = full !== '' && issue.message.startsWith(`${full}: `);
  let message = issue.message;
  let node: z.ZodType | undefined = schema;
  for (let i = 0; node && i < issue.path.length; i++) {
    node = unwrap(node);
    const label = itemLabels.get(node);
    const key = issue.path[i]!;
    if (label && typeof key === 'number') {
      const rest = issue.path.slice(i + 1).join('.');
      const base = generic ? issue.message.slice(full.length + 2) : issue.message;
      message = `${label} ${key + 1}: ${generic && rest ? `${rest}: ` : ''}${base}`;
      break;
    }
    node = child(node, key);
  }
  return new ValidationError(message, full || undefined);
}

const defOf = (schema: z.ZodType) => (schema as unknown as { def: Record<string, unknown> }).def;

/** The schema inside optional/nullable/default/pipe wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (def.innerType) return unwrap(def.innerType as z.ZodType);
  if (def.in) return unwrap(def.in as z.ZodType);
  return schema;
}

/** The schema of one property or element. */
function child(schema: z.ZodType, key: PropertyKey): z.ZodType | undefined {
  const def = defOf(unwrap(schema));
  if (def.type === 'object') return (def.shape as Record<string, z.ZodType>)[String(key)];
  if (def.type === 'array') return def.element as z.ZodType;
  return undefined;
}

const isZod = (s: unknown): s is z.ZodType => typeof (s as z.ZodType | null)?.safeParse === 'function';

export function registerSchemaValidation(app: FastifyInstance) {
  app.setValidatorCompiler(({ schema, httpPart, url }) => {
    if (!isZod(schema)) throw new Error(`${url}: route schemas are zod schemas (rest/edge.ts), ${httpPart} is not`);
    return (data: unknown) => {
      // An absent JSON body is an empty one: the schema says which fields are required.
      const r = schema.safeParse(httpPart === 'body' ? (data ?? {}) : data, { error: withField });
      return r.success ? { value: r.data } : { error: edgeError(schema, r.error.issues[0]!) };
    };
  });
}

/** A schema as JSON Schema (what a client sends, or with `output` what it receives), for the OpenAPI document. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** An ISO-8601 date and time in an answer (a Date sent as JSON). */
export const isoDate = () => z.iso.datetime();
