// The Access Analysis screens' REST calls: the .zip uploads (a rule set, a
// system's extract) go as multipart form data, as GraphQL carries no files.
import { notifyUnauthenticated } from '../../relay/errors';

/** A refused call: the server's message, its error code and the field at fault when it names one. */
export type RestFailure = { message: string; code?: string; field?: string };

export type RestResult<T> = { ok: true; body: T } | { ok: false; failure: RestFailure };

/** POSTs `file` (last, as the server streams it) with `fields` before it. */
export async function postFile<T>(url: string, file: File, fields: Record<string, string> = {}): Promise<RestResult<T>> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', body: form, credentials: 'include', headers: { Accept: 'application/json' } });
  } catch {
    return { ok: false, failure: { message: 'The connection to the server was lost while sending the file.' } };
  }
  if (response.status === 401) notifyUnauthenticated('AccessAnalysisRoute');
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (response.ok) return { ok: true, body: body as T };
  const b = (body ?? {}) as { message?: unknown; code?: unknown; field?: unknown };
  return {
    ok: false,
    failure: {
      message: typeof b.message === 'string' && b.message ? b.message : text.trim() || response.statusText || 'Unknown error',
      code: typeof b.code === 'string' ? b.code : undefined,
      field: typeof b.field === 'string' ? b.field : undefined,
    },
  };
}

/** What the server checks a system's name against (REST path), so the form says it before sending. */
export const SYSTEM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

export function isZip(file: File): boolean {
  return file.name.toLowerCase().endsWith('.zip');
}
