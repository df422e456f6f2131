// REST: the risk queue, assigned risks, the systems, and the CSV exports of
// the queue and of the risk report (SPEC §7 /api/risks, /api/assigned-risks,
// /api/reports/risk-report).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import * as risks from '../../services/review/risks.js';
import { riskRowJson } from './risk-row.js';
import { exportRisksCsv } from '../../services/reports/risk-export.js';
import { csvFile, sendCsvExport, totalRowsHeader } from '../replies.js';
import { isoDate, routeSchema, text, wholeNumber } from '../edge.js';
import { consumeRate } from '../../services/identity/rate-limits.js';
import { RECOMMENDATIONS, RISK_SORTS } from '../../services/review/recommendations.js';
import { DECISION_STATES, RISK_LEVELS, orList } from '../../services/risk-rules.js';

/**
 * A filter of fixed values: REST takes the SPEC's lower-case spelling only
 * (GraphQL's HIGH is refused naming the value, as GraphQL refuses 'high'); an
 * empty value or 'All' is no filter. Published as an enum in /api/openapi.json.
 */
const oneOf = <const T extends readonly string[]>(field: string, what: string, values: T) =>
  z
    .enum([...risks.NO_FILTER_VALUES, ...values] as [string, ...string[]], { error: (iss) => `Unknown ${what} '${String(iss.input)}': use ${orList(values)}` })
    .optional()
    .describe(`${field}: ${orList(values)} (empty or All: no filter)`);

/** The queue's filter (services/review/risks.ts checks the same bounds for GraphQL). */
const FilterQuery = z.object({
  ...(Object.fromEntries(risks.FILTER_FIELDS.map((f) => [f, text(f, risks.MAX_FILTER_VALUE_LENGTH).optional()])) as Record<
    keyof risks.RiskFilter,
    z.ZodOptional<z.ZodString>
  >),
  riskLevel: oneOf('riskLevel', 'risk level', RISK_LEVELS),
  decision: oneOf('decision', 'decision state', DECISION_STATES),
  recommendation: oneOf('recommendation', 'recommendation', RECOMMENDATIONS),
});
/** The filter and a page: by number, or after/before a row id (keyset). */
const PageQuery = FilterQuery.extend({
  page: wholeNumber('page', 1, risks.MAX_PAGE).optional(),
  limit: wholeNumber('limit', 1, risks.MAX_PAGE_SIZE).optional(),
  after: text('after', 40).optional(),
  before: text('before', 40).optional(),
  sort: z
    .enum(RISK_SORTS, { error: `sort must be ${orList(RISK_SORTS)}` })
    .optional()
    .describe('row (default) or recommendation: remove, review, retain first (paged by number)'),
});
type RiskQuery = z.infer<typeof PageQuery>;

const str = (description: string) => z.string().describe(description);
/** riskRowJson as a client receives it (SPEC §3; documented in /api/openapi.json, checked against real answers). */
export const RiskRowJson = z.strictObject({
  id: z.number().int().describe('The row id (risk definition id of the decision calls)'),
  userId: str('The user id in the source system'),
  userName: str('The user’s name'),
  userGroup: str('The user’s group (may be empty)'),
  riskLevel: z.enum(['high', 'medium', 'low']),
  roleProfile: str('The role profile that grants the access'),
  roleProfileDescription: z.string(),
  riskDescription: z.string(),
  accessRiskId: str('The access risk id'),
  system: z.string(),
  decision: z.enum(['', 'retain', 'remove', 'retain_mitigated']).describe('The caller’s decision in the active period; empty: pending'),
  decisionComments: z.string().nullable().describe('The comment given with the caller’s decision'),
  decisionMitigationControl: z.string().nullable().describe('The mitigating control named with a retain_mitigated decision'),
  decisionMitigationExpiresAt: isoDate().nullable().describe('When that mitigating control expires'),
  newSince: isoDate()
    .nullable()
    .describe('When the row joined the active period, if after the period began (a mid-period upload or analysis run); null: not new'),
  recommendation: z
    .strictObject({
      value: z.enum(RECOMMENDATIONS).describe('What the facts suggest; never applied on its own'),
      reason: str('Why, in words, from the facts'),
    })
    .describe('Help deciding: a recommendation derived from usage, the last period’s decision, the rule and the other reviewers'),
  lastPeriodDecision: z
    .enum(['retain', 'remove', 'retain_mitigated'])
    .nullable()
    .describe('The decision on the same user and role in the period before this one'),
  sharedWith: z
    .strictObject({
      reviewers: z.number().int().describe('Other reviewers sharing the row (assigned it, or having decided it)'),
      removed: z.number().int().describe('Of them, how many decided remove in this period'),
      retained: z.number().int().describe('Of them, how many decided retain (or retain with a mitigating control)'),
    })
    .describe('The other reviewers sharing the row and what they decided'),
  compositeBusinessRole: str('The composite role granting the role profile (empty: assigned directly)'),
  compositeRoleDescription: z.string(),
  ruleId: str('The rule matched; 02NN and 03NN are high-risk'),
  function: z.string(),
  functionDescription: z.string(),
  resource: z.string(),
  resourceDescription: z.string(),
  resourceExtn: z.string(),
  resourceExtnDesc: z.string(),
  valueFrom: z.string(),
  valueTo: z.string(),
  action: z.string(),
  actionDescription: z.string(),
  businessProcess: z.string(),
  businessProcessDescription: z.string(),
  mitigationControl: z.string(),
  mitigationControlDescription: z.string(),
  executionCount: z.number().nullable(),
  lastExecutedOn: isoDate().nullable(),
  aiSuggestedCategory: z.string().nullable(),
  aiCategoryConfidence: z.number().nullable(),
  aiProcessedAt: isoDate().nullable(),
  aiCategoryAccepted: z.boolean().nullable(),
  stage: z.number().int().describe('The stage at which the caller reviews the row (1 in a one-stage period)'),
  previousDecisions: z
    .array(
      z.strictObject({
        stage: z.number().int(),
        reviewer: z.strictObject({ id: z.uuid(), email: z.string(), name: z.string() }),
        decision: z.enum(['retain', 'remove', 'retain_mitigated']),
        comments: z.string().nullable(),
        decidedAt: isoDate(),
      }),
    )
    .describe('The submitted decisions of the stages before, in stage order (empty at stage 1)'),
});
const pageFields = {
  risks: z.array(RiskRowJson).describe('The rows of the page'),
  total: z.number().int().describe('Rows matching the filter in all'),
  page: z.number().int().describe('This page’s number, from 1'),
  limit: z.number().int().describe('The page size'),
};

export function registerRiskRoutes(app: FastifyInstance) {
  app.get<{ Querystring: RiskQuery }>(
    '/api/risks',
    { config: { access: 'admin' }, schema: routeSchema({ querystring: PageQuery, reply: z.strictObject(pageFields) }) },
    async (req) => {
      const r = await risks.listRisks(req.ctx.caller!, req.query, req.query);
      return { risks: r.risks.map(riskRowJson), total: r.total, page: r.page, limit: r.limit };
    },
  );

  const assignedReply = z.strictObject({
    ...pageFields,
    totalAssigned: z.number().int().describe('Rows assigned to the caller'),
    highRisk: z.number().int().describe('Of those, rows of level high or medium'),
    reviewed: z.number().int().describe('Of those, rows the caller has decided in the active period'),
    pendingReview: z.number().int().describe('Of those, rows still to decide'),
  });
  app.get<{ Querystring: RiskQuery }>(
    '/api/assigned-risks',
    { config: { access: 'reviewer' }, schema: routeSchema({ querystring: PageQuery, reply: assignedReply }) },
    async (req) => {
      const [summary, page] = await Promise.all([
        risks.assignedSummary(req.ctx.caller!),
        risks.listRisks(req.ctx.caller!, req.query, { page: req.query.page, limit: req.query.limit ?? 100, sort: req.query.sort }),
      ]);
      return { ...summary, risks: page.risks.map(riskRowJson), total: page.total, page: page.page, limit: page.limit };
    },
  );

  app.get(
    '/api/risks/systems',
    { config: { access: 'signedIn' }, schema: routeSchema({ reply: z.array(z.string()).describe('The systems of the rows the caller may see') }) },
    async (req) => risks.listSystems(req.ctx.caller!),
  );

  // Export Results (the filtered queue, with the viewer's own decisions) and the
  // dashboard's risk report (SPEC §7 /api/reports/risk-report; for administrators
  // with every reviewer's decisions): CSV, UTF-8 with BOM so Excel reads accents, streamed.
  const exportCsv = (everyReviewer: boolean) => async (req: FastifyRequest<{ Querystring: risks.RiskFilter }>, reply: FastifyReply) => {
    // Validate the filter before the first byte goes out, so bad input is a 400, not a broken file.
    risks.validateFilter(req.query);
    await consumeRate(req.ctx.deps, 'export', req.ctx.user!.id);
    // The file is streamed (no Content-Length): the rows it will carry, for a tool's progress.
    const total = await risks.matchingRowCount(req.ctx.caller!, req.query);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    return sendCsvExport(reply, {
      name: `risk-export-${stamp}.csv`,
      totalRows: total,
      lines: exportRisksCsv(req.ctx.caller!, req.query, { everyReviewer }),
    });
  };
  const exportSchema = (summary: string) =>
    routeSchema({
      summary,
      querystring: FilterQuery,
      replyDescription: 'The CSV, streamed (UTF-8 with a byte-order mark; Content-Disposition names the file). An API token with read scope may fetch it.',
      replyFiles: csvFile('A header line, then the rows matching the filter'),
      replyHeaders: totalRowsHeader(
        'The rows matching the filter, known before the first byte (the file has no Content-Length): lines received / this = progress. The risk report writes a line per reviewer decision, so it may have more lines.',
      ),
    });
  app.get<{ Querystring: risks.RiskFilter }>(
    '/api/risks/export',
    {
      config: { access: 'signedIn' },
      schema: exportSchema("Export Results: the rows of the caller's list matching the filter, with the caller's own decisions"),
    },
    exportCsv(false),
  );
  app.get<{ Querystring: risks.RiskFilter }>(
    '/api/reports/risk-report',
    {
      config: { access: 'signedIn' },
      schema: exportSchema("The risk report: the rows matching the filter with every reviewer's decision (a reviewer: their own)"),
    },
    exportCsv(true),
  );
}
