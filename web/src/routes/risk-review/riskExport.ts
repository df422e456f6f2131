import { ENUM_FILTER_FIELDS } from './riskQueueAddress';

/** GET /api/risks/export with the queue's filter (GraphQL's form) as query parameters: REST takes the SPEC's lower-case enum values. */
export function riskExportUrl(filter: Record<string, string | null | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v != null && v !== '') params.set(k, ENUM_FILTER_FIELDS.has(k) ? v.toLowerCase() : v);
  const q = params.toString();
  return q ? `/api/risks/export?${q}` : '/api/risks/export';
}
