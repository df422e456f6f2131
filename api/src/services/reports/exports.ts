// The CSV exports as links a tool can follow with its API token: the address
// of Export Results or of the risk report for a filter, with the number of
// rows the file will carry. The files themselves are
// streamed by services/reports/risk-export.ts behind GET /api/risks/export and
// GET /api/reports/risk-report; the evidence files have their own addresses
// (services/reports/evidence.ts, PeriodEvidence.xlsxUrl/csvUrl in GraphQL).
import type { Caller } from '../caller.js';
import { FILTER_FIELDS, matchingRowCount, present, validateFilter, type RiskFilter } from '../review/risks.js';

export const RISK_EXPORT_KINDS = ['queue', 'risk_report'] as const;
export type RiskExportKind = (typeof RISK_EXPORT_KINDS)[number];

/** Where each export is streamed (rest/review/risks.ts). */
export const RISK_EXPORT_PATHS: Record<RiskExportKind, string> = {
  queue: '/api/risks/export',
  risk_report: '/api/reports/risk-report',
};

/** The response header that announces the rows of an export before its first byte. */
export const TOTAL_ROWS_HEADER = 'x-total-rows';

export interface RiskExportLink {
  kind: RiskExportKind;
  /** The path with the filter as its query, relative to the server. */
  path: string;
  /** The same on the server's public address (PUBLIC_URL). */
  url: string;
  /** Risk rows the file will carry (the risk report: a row several reviewers decided is a line per reviewer). */
  totalRows: number;
}

/** The export's address for this filter (only the filter's fields that are set, in a fixed order). */
export function riskExportPath(kind: RiskExportKind, filter: RiskFilter): string {
  validateFilter(filter);
  const query = new URLSearchParams();
  for (const field of FILTER_FIELDS) {
    const v = filter[field];
    if (present(v)) query.set(field, v);
  }
  const q = query.toString();
  return q ? `${RISK_EXPORT_PATHS[kind]}?${q}` : RISK_EXPORT_PATHS[kind];
}

export async function riskExportLink(caller: Caller, kind: RiskExportKind, filter: RiskFilter): Promise<RiskExportLink> {
  const { deps, viewer } = caller;
  const path = riskExportPath(kind, filter);
  return { kind, path, url: `${deps.config.publicUrl}${path}`, totalRows: await matchingRowCount(deps.prisma, viewer, filter) };
}
