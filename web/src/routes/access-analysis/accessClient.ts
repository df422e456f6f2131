// The Access Analysis screens' REST calls: the .zip uploads (a rule set, a
// system's extract) go as multipart form data, as GraphQL carries no files.
import { api, formBody, restOutcome, type RestAnswer, type RestFailure } from '../../rest/client';

export type RestResult<T> = { ok: true; body: T } | { ok: false; failure: RestFailure };

async function settle<T>(call: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<RestResult<T>> {
  const r = await restOutcome('AccessAnalysisRoute', call);
  if (r.ok) return { ok: true, body: r.data };
  return { ok: false, failure: r.lost ? { message: 'The connection to the server was lost while sending the file.' } : r.failure };
}

/** POST /api/rule-sets: a rule set's .zip (an existing name makes its next version; none: the file's name). */
export function postRuleSet(file: File, name: string): Promise<RestResult<RestAnswer<'/api/rule-sets', 'post'>>> {
  const body = name ? { name, file } : { file };
  return settle(() => api.POST('/api/rule-sets', { body, bodySerializer: formBody }));
}

/** POST /api/systems/{system}/extracts: a system's extract, loaded in the background. */
export function postExtract(system: string, file: File): Promise<RestResult<RestAnswer<'/api/systems/{system}/extracts', 'post'>>> {
  return settle(() => api.POST('/api/systems/{system}/extracts', { params: { path: { system } }, body: { file }, bodySerializer: formBody }));
}

/** What the server checks a system's name against (REST path), so the form says it before sending. */
export const SYSTEM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

export function isZip(file: File): boolean {
  return file.name.toLowerCase().endsWith('.zip');
}
