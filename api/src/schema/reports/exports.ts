// The CSV exports for a tool: where to stream Export
// Results or the risk report for a filter with the caller's session or API
// token, and how many rows it will carry. The evidence files' addresses are
// PeriodEvidence.xlsxUrl/csvUrl (schema/reports/evidence.ts).
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import { RiskFilterInput } from '../review/risks.js';
import { RISK_EXPORT_KINDS, riskExportLink, type RiskExportKind, type RiskExportLink } from '../../services/reports/exports.js';

const RiskExportKindEnum = enumOf('RiskExportKind', {
  description: 'Which CSV export of the risk rows.',
  values: {
    queue: { description: "Export Results: the rows of the caller's list with the caller's own decision (GET /api/risks/export)." },
    risk_report: {
      description:
        "The risk report: a line per reviewer decision with its review metadata; an administrator sees every reviewer's (GET /api/reports/risk-report).",
    },
  } satisfies Record<(typeof RISK_EXPORT_KINDS)[number], { description: string }>,
});

const RiskExportRef = builder.objectRef<RiskExportLink>('RiskExport').implement({
  description: 'Where to download a CSV export for a filter: GET it with the same session or an API token (read scope is enough); the file is streamed.',
  fields: (t) => ({
    kind: t.field({ type: RiskExportKindEnum, description: 'Which export.', resolve: (e) => e.kind }),
    path: t.exposeString('path', { description: 'The address relative to this server, the filter in its query (e.g. /api/risks/export?system=SAP).' }),
    url: t.exposeString('url', { description: 'The same address on the server’s public URL (PUBLIC_URL).' }),
    totalRows: t.exposeInt('totalRows', {
      description:
        'Risk rows matching the filter now: the file’s rows, also sent as its X-Total-Rows header, for a progress bar (the risk report writes a line per reviewer decision, so it may have more lines).',
    }),
  }),
});

builder.queryFields((t) => ({
  riskExport: t.field({
    type: RiskExportRef,
    description: 'The download address of a CSV export of the risk rows the caller may see, for a filter (the same filter as riskQueue and assignedRisks).',
    authScopes: { signedIn: true },
    args: {
      kind: t.arg({ type: RiskExportKindEnum, required: true, description: 'Which export.' }),
      filter: t.arg({ type: RiskFilterInput, description: 'Only the rows matching it (every visible row without).' }),
    },
    resolve: (_root, args, ctx) => riskExportLink(ctx.caller!, args.kind as RiskExportKind, args.filter ?? {}),
  }),
}));
