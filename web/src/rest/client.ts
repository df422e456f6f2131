// The web app's REST calls (SPEC §7: uploads, previews, downloads, sign-in and
// sign-out), typed by the document the server publishes, /api/openapi.json:
// paths, parameters, bodies and answers come from ./generated/openapi.ts, which
// scripts/openapi-client.ts generates (`npm run generate`, the web build), never
// re-typed here. A call the document does not declare, or a field it lost, fails
// the web's type check.
import createClient, { createFinalURL, createQuerySerializer, defaultPathSerializer } from 'openapi-fetch';
import { notifyUnauthenticated } from '../relay/errors';
import type { components, paths } from './generated/openapi';

export type { paths };

/** Same-origin calls with the session cookie, answering JSON unless the route streams a file. */
export const api = createClient<paths>({ credentials: 'include', headers: { Accept: 'application/json' } });

type Method = 'get' | 'post' | 'put' | 'delete';
type Operation<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer O } ? O : never;
type Content<R> = R extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON answer of a route's success (2xx). */
export type RestAnswer<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R } ? Content<R[Extract<keyof R, 200 | 201 | 202>]> : never;

/** The JSON body a route takes. */
export type RestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The fields of a route's multipart form (a file field is a Blob). */
export type RestForm<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'multipart/form-data': infer F } } } ? F : never;

/** The query parameters of a route. */
export type RestQuery<P extends keyof paths, M extends Method = 'get'> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** A route's refusal as the document declares it (`components.schemas.Error`), its message always there. */
export type RestFailure = Pick<components['schemas']['Error'], 'message'> & Partial<Omit<components['schemas']['Error'], 'message'>>;

/**
 * The refusal in a non-OK answer's body (JSON, else its text): its message,
 * else its details, else the text, else the status text (SPEC §8).
 */
export function restFailure(body: unknown, statusText: string): RestFailure {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; details?: unknown };
    const message = typeof b.message === 'string' && b.message ? b.message : typeof b.details === 'string' && b.details ? b.details : '';
    const { code, field, uploadId } = body as Partial<RestFailure>;
    return {
      message: message || statusText || 'Unknown error',
      code,
      field: typeof field === 'string' ? field : undefined,
      uploadId: typeof uploadId === 'string' ? uploadId : undefined,
    };
  }
  const text = typeof body === 'string' ? body.trim() : '';
  return { message: text || statusText || 'Unknown error' };
}

/** A call's outcome: its answer, or its refusal (`lost`: no answer, the connection failed). */
export type RestOutcome<T> = { ok: true; data: T } | { ok: false; failure: RestFailure; lost?: true };

/**
 * Makes a call of `api` and settles it: the answer's body, or the refusal; a
 * 401 also tells the session (as a GraphQL operation of `screen` would).
 */
export async function restOutcome<T>(screen: string, call: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<RestOutcome<T>> {
  let answer: Awaited<ReturnType<typeof call>>;
  try {
    answer = await call();
  } catch {
    return { ok: false, failure: { message: 'The connection to the server was lost.' }, lost: true };
  }
  const { data, error, response } = answer;
  if (response.status === 401) notifyUnauthenticated(screen);
  if (response.ok && data != null) return { ok: true, data };
  return { ok: false, failure: restFailure(error, response.statusText) };
}

/**
 * A multipart body from a route's declared form fields: numbers and booleans
 * as their text, and the file fields last, as the server reads the fields
 * before it streams the file.
 */
export function formBody<F extends object>(fields: F): FormData {
  const form = new FormData();
  const entries = Object.entries(fields) as [string, unknown][];
  for (const [name, value] of entries) if (value != null && !(value instanceof Blob)) form.append(name, String(value));
  for (const [name, value] of entries) {
    if (value instanceof File) form.append(name, value, value.name);
    else if (value instanceof Blob) form.append(name, value);
  }
  return form;
}

type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];
type UrlParams<P extends GetPath> = Operation<P, 'get'> extends { parameters: infer R } ? Pick<R, Extract<keyof R, 'path' | 'query'>> : never;

const querySerializer = createQuerySerializer();

/**
 * The address of a GET route (a download or a link the browser follows), its
 * path parameters and query checked against the document.
 */
export function restUrl<P extends GetPath>(path: P, ...params: Partial<UrlParams<P>> extends UrlParams<P> ? [UrlParams<P>?] : [UrlParams<P>]): string {
  const p = (params[0] ?? {}) as { path?: Record<string, unknown>; query?: Record<string, unknown> };
  return createFinalURL(path, { baseUrl: '', params: p, querySerializer, pathSerializer: defaultPathSerializer });
}
