/** GET /api/risks/export with the queue's filter as query parameters. */
export function riskExportUrl(filter: Record<string, string | null | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v != null && v !== '') params.set(k, v);
  const q = params.toString();
  return q ? `/api/risks/export?${q}` : '/api/risks/export';
}
