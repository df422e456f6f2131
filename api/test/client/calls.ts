// Typed calls through a client generated from /api/openapi.json (openapi-fetch
// over the openapi-typescript types of scripts/openapi-client.ts), mirroring the
// API tests' calls. `npm run lint:openapi` type-checks this file against freshly
// generated types: a renamed field, a parameter or body the document lost, or a
// wrong type fails to compile. tool.test.ts runs the same calls against a server.
import createClient from 'openapi-fetch';
import type { paths } from './openapi.js';

export type Api = ReturnType<typeof createClient<paths>>;

/** A tool's client: the server's address and an API token (or a session cookie). */
export function apiClient(baseUrl: string, auth: { token?: string; cookie?: string }): Api {
  const headers: Record<string, string> = {};
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth.cookie) headers.cookie = auth.cookie;
  return createClient<paths>({ baseUrl, headers });
}

/** openapi-replies.test.ts: a reviewer's token reads the assigned risks, filtered and paged. */
export async function assignedRisks(api: Api, filter: { system?: string; limit?: number }) {
  const { data, error, response } = await api.GET('/api/assigned-risks', { params: { query: { system: filter.system, limit: filter.limit } } });
  if (error) throw new Error(`${response.status}: ${error.message}`);
  const ids: string[] = data.risks.map((r) => r.accessRiskId);
  const level: 'high' | 'medium' | 'low' | undefined = data.risks[0]?.riskLevel;
  return { total: data.total, pendingReview: data.pendingReview, ids, level };
}

/** tokens.test.ts: the caller's tokens, then one created (the secret shown once). */
export async function createToken(api: Api, name: string) {
  const { data, error } = await api.POST('/api/tokens', { body: { name, scope: 'read', expiresInDays: 30 } });
  if (error) throw new Error(error.message);
  const secret: string = data.token;
  const active: boolean = data.apiToken.active;
  return { secret, id: data.apiToken.id, active };
}

/** users.test.ts: an administrator creates a reviewer and deactivates them. */
export async function createAndDeactivate(api: Api, email: string) {
  const created = await api.POST('/api/users', { body: { email, firstName: 'Typed', lastName: 'Client', role: 'reviewer', password: 'Start#123' } });
  if (created.error) throw new Error(created.error.message);
  const off = await api.PUT('/api/users/{id}/deactivate', { params: { path: { id: created.data.user.id } } });
  if (off.error) throw new Error(off.error.message);
  const isActive: boolean = off.data.user.isActive;
  return { id: created.data.user.id, isActive };
}

/** reviews.test.ts: a decision, then the caller's submission status. */
export async function decide(api: Api, riskDefinitionId: number) {
  const saved = await api.POST('/api/reviews/decision', { body: { riskDefinitionId, decision: 'retain', comments: 'Needed for month-end' } });
  if (saved.error) throw new Error(saved.error.message);
  const status = await api.GET('/api/reviews/submission-status');
  if (status.error) throw new Error(status.error.message);
  return { saved: saved.data.saved, totalDecisions: status.data.totalDecisions };
}

/** The export a tool streams: the CSV text and the rows announced before it. */
export async function exportQueue(api: Api, filter: { system?: string; riskLevel?: 'high' | 'medium' | 'low' }) {
  const { data, error, response } = await api.GET('/api/risks/export', { params: { query: filter }, parseAs: 'text' });
  if (error) throw new Error(error.message);
  const csv: string = data;
  return { csv, totalRows: Number(response.headers.get('x-total-rows')) };
}

// What the document must refuse to compile (the checks bite): a parameter it does not declare, a wrong body type.
export function mistakes(api: Api) {
  // @ts-expect-error: /api/assigned-risks has no query parameter `sistem`
  void api.GET('/api/assigned-risks', { params: { query: { sistem: 'SAP' } } });
  // @ts-expect-error: a token's scope is read or full
  void api.POST('/api/tokens', { body: { name: 'x', scope: 'write' } });
  // @ts-expect-error: the users list answers an array, not an object with `users`
  void api.GET('/api/users').then((r) => r.data?.users);
}
