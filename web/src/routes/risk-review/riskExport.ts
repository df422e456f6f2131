import { ENUM_FILTER_FIELDS } from './riskQueueAddress';
import { restUrl, type RestQuery } from '../../rest/client';

/** GET /api/risks/export with the queue's filter (GraphQL's form) as query parameters: REST takes the SPEC's lower-case enum values. */
export function riskExportUrl(filter: Record<string, string | null | undefined> = {}): string {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(filter)) if (v != null && v !== '') query[k] = ENUM_FILTER_FIELDS.has(k) ? v.toLowerCase() : v;
  // The queue's filter keys are the export's parameters (GraphQL's form, its enums lower-cased).
  return restUrl('/api/risks/export', { query: query as RestQuery<'/api/risks/export'> });
}
