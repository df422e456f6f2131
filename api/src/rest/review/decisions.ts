// REST: decisions, submission and approval (SPEC §7 /api/reviews/…, /api/submissions).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as decisions from '../../services/review/decisions.js';
import * as bulk from '../../services/review/bulk-decisions.js';
import * as mitigations from '../../services/review/mitigations.js';
import * as approval from '../../services/review/approval-review.js';
import { reviewRules } from '../../services/identity/settings.js';
import { idParams, isoDate, listOf, routeSchema, text } from '../edge.js';
import { Success, SubmissionJson } from '../replies.js';
import { DECISION_VALUES, SUBMISSION_STATUSES } from '../../services/risk-rules.js';
import { RECOMMENDATIONS } from '../../services/review/recommendations.js';

const Saved = Success.extend({ saved: z.number().int().describe('Decisions stored') });
const Count = z.strictObject({ count: z.number().int() });
const RulesJson = z.strictObject({ requireRemovalComment: z.boolean(), allowBulkApproval: z.boolean() });
const ExpiredJson = z.strictObject({
  total: z.number().int(),
  items: z.array(
    z.strictObject({
      riskRowId: z.number().int(),
      userId: z.string(),
      userName: z.string(),
      accessRiskId: z.string(),
      roleProfile: z.string(),
      compositeBusinessRole: z.string(),
      system: z.string(),
      mitigationControl: z.string().nullable(),
      mitigationExpiresAt: z.iso.date().describe('The expiry day (YYYY-MM-DD)'),
      comments: z.string().nullable(),
      reviewer: z.string(),
      periodId: z.uuid(),
      periodName: z.string(),
    }),
  ),
});
const SubmissionStatusJson = z.strictObject({
  isSubmitted: z.boolean(),
  hasDecisions: z.boolean(),
  totalDecisions: z.number().int(),
  submittedAt: isoDate().nullable(),
  status: z.enum(['submitted', 'recalled', 'approved', 'returned']).nullable(),
  reviewComment: z.string().nullable(),
  itemComments: z
    .array(z.strictObject({ riskDefinitionId: z.number().int(), userId: z.string(), roleProfile: z.string(), accessRiskId: z.string(), comment: z.string() }))
    .describe('The approver’s comments on single items of the latest submission'),
  periodActive: z.boolean(),
  stage: z.number().int().describe("The stage the viewer works at (1 to 3; 1 in a one-stage period): the other fields are that stage's"),
  stageName: z.string().describe("What that stage is called, e.g. 'Risk owner'"),
  stageCount: z.number().int().describe('How many stages the period has (1 to 3)'),
  nextStageName: z
    .string()
    .nullable()
    .describe("What the stage after the viewer's is called (where their submitted decisions go on to); null at the last stage"),
  canRecall: z.boolean().describe('The viewer may recall their submitted decisions now: submitted, and no later stage has decided a row of them yet'),
});
const SubmissionListJson = z.array(
  z.strictObject({
    id: z.uuid(),
    status: z.enum(['submitted', 'recalled', 'approved', 'returned']),
    decisionCount: z.number().int(),
    submittedAt: isoDate(),
    recalledAt: isoDate().nullable(),
    reviewedAt: isoDate().nullable(),
    reviewComment: z.string().nullable(),
    period: z.strictObject({ id: z.uuid(), name: z.string() }),
    reviewer: z.strictObject({ id: z.uuid(), firstName: z.string(), lastName: z.string(), email: z.string() }),
    reviewedBy: z.strictObject({ id: z.uuid(), firstName: z.string(), lastName: z.string() }).nullable(),
  }),
);

/**
 * The SPEC's REST names the risk row riskDefinitionId where the services say
 * riskRowId: the bodies are checked under the SPEC's name (so a refusal names
 * the field the client sent) and renamed here, both ways.
 */
const ROW_FIELD = 'riskDefinitionId';
const DecisionBody = decisions.decisionItemSchema(ROW_FIELD);
type DecisionBody = z.input<typeof DecisionBody>;
const BatchBody = z.object({ decisions: listOf('Decision', DecisionBody, 100_000).optional() });
const ReviewBody = approval.reviewBodySchemaNaming(ROW_FIELD);
type ReviewBody = z.input<typeof ReviewBody>;

const decisionOf = ({ riskDefinitionId, ...d }: DecisionBody): decisions.DecisionItem => ({ ...d, riskRowId: riskDefinitionId });
const reviewOf = ({ itemComments, ...b }: ReviewBody): approval.ReviewBody => ({
  ...b,
  itemComments: itemComments?.map(({ riskDefinitionId, ...c }) => ({ ...c, riskRowId: riskDefinitionId })),
});
const SubmissionsQuery = z.object({ status: text('status', 20).optional() });

const nullableText = (d: string) => z.string().nullable().describe(d);
/** approval.approvalReview as a client receives it. */
const ApprovalReviewJson = z.strictObject({
  submissionId: z.string().describe('The submission'),
  status: z.enum(SUBMISSION_STATUSES),
  total: z.number().int().describe('Items the submission holds'),
  items: z
    .array(
      z.strictObject({
        riskDefinitionId: z.number().int().describe('The risk row'),
        group: z.enum(approval.APPROVAL_GROUPS).describe('removal, mitigation, retained_against_recommendation or other: the order of the list'),
        userId: z.string(),
        userName: z.string(),
        roleProfile: z.string(),
        accessRiskId: z.string(),
        riskLevel: z.string(),
        system: z.string(),
        decision: z.enum(DECISION_VALUES),
        comments: nullableText('The reviewer’s comment'),
        mitigationControl: nullableText('The mitigating control of a mitigation'),
        mitigationExpiresAt: nullableText('Until when a mitigation holds (YYYY-MM-DD)'),
        recommendation: z.strictObject({ value: z.enum(RECOMMENDATIONS), reason: z.string() }).describe('What the facts suggested to the reviewer'),
        approverComment: nullableText('The approver’s comment on this item, once given'),
      }),
    )
    .describe('Removals, mitigations, retained against a remove recommendation, then the rest'),
});

export function registerDecisionRoutes(app: FastifyInstance) {
  app.post<{ Body: DecisionBody }>(
    '/api/reviews/decision',
    { config: { access: 'signedIn' }, schema: routeSchema({ body: DecisionBody, reply: Saved }) },
    async (req) => ({ success: true, ...(await decisions.saveDecisions(req.ctx.caller!, [decisionOf(req.body)])) }),
  );

  app.post<{ Body: z.infer<typeof BatchBody> }>(
    '/api/reviews/decisions',
    { config: { access: 'signedIn' }, schema: routeSchema({ body: BatchBody, reply: Saved }) },
    // An absent list stays absent: the service says none was selected.
    async (req) => ({ success: true, ...(await decisions.saveDecisions(req.ctx.caller!, req.body.decisions?.map(decisionOf))) }),
  );

  app.post<{ Body: bulk.ByFilterInput }>(
    '/api/reviews/decisions/by-filter',
    {
      config: { access: 'signedIn' },
      schema: routeSchema({
        summary: "Decide every row of the caller's list (at a later stage: their stage's rows, an overturn with comments) matching the filter: { count }",
        body: bulk.byFilterSchema,
        reply: Count,
      }),
    },
    async (req) => bulk.decideByFilter(req.ctx.caller!, req.body),
  );

  app.get(
    '/api/reviews/rules',
    { config: { access: 'signedIn' }, schema: routeSchema({ summary: 'The review rules: { requireRemovalComment, allowBulkApproval }', reply: RulesJson }) },
    async (req) => reviewRules(req.ctx.prisma),
  );

  app.get(
    '/api/reviews/expired-mitigations',
    {
      config: { access: 'admin' },
      schema: routeSchema({ summary: 'Mitigations of the current period whose expiry date has passed: { total, items }', reply: ExpiredJson }),
    },
    async (req) => {
      const r = await mitigations.expiredMitigations(req.ctx.caller!);
      return {
        total: r.total,
        items: r.items.map((m) => ({ ...m, riskRowId: Number(m.riskRowId), mitigationExpiresAt: m.mitigationExpiresAt.toISOString().slice(0, 10) })),
      };
    },
  );

  app.get('/api/reviews/submission-status', { config: { access: 'reviewer' }, schema: routeSchema({ reply: SubmissionStatusJson }) }, async (req) => {
    const s = await decisions.submissionStatus(req.ctx.caller!);
    return { ...s, itemComments: s.itemComments.map(({ riskRowId, ...c }) => ({ riskDefinitionId: riskRowId, ...c })) };
  });

  app.post(
    '/api/reviews/submit',
    {
      config: { access: 'reviewer' },
      schema: routeSchema({ reply: z.strictObject({ count: z.number().int().describe('Decisions submitted'), submissionId: z.uuid() }) }),
    },
    async (req) => {
      const r = await decisions.submit(req.ctx.caller!);
      return { count: r.count, submissionId: r.submission.id };
    },
  );

  app.post('/api/reviews/recall', { config: { access: 'reviewer' }, schema: routeSchema({ reply: Count }) }, async (req) => decisions.recall(req.ctx.caller!));

  app.get<{ Querystring: z.infer<typeof SubmissionsQuery> }>(
    '/api/submissions',
    { config: { access: 'admin' }, schema: routeSchema({ querystring: SubmissionsQuery, reply: SubmissionListJson }) },
    async (req) =>
      (await decisions.listSubmissions(req.ctx.caller!, req.query)).map((s) => ({
        id: s.id,
        status: s.status,
        decisionCount: s.decisionCount,
        submittedAt: s.submittedAt,
        recalledAt: s.recalledAt,
        reviewedAt: s.reviewedAt,
        reviewComment: s.reviewComment,
        period: { id: s.period.id, name: s.period.name },
        reviewer: { id: s.reviewer.id, firstName: s.reviewer.firstName, lastName: s.reviewer.lastName, email: s.reviewer.email },
        reviewedBy: s.reviewedBy ? { id: s.reviewedBy.id, firstName: s.reviewedBy.firstName, lastName: s.reviewedBy.lastName } : null,
      })),
  );

  // The approver's review of a submission: the items attention-first, then approve or return with comments.
  app.get<{ Params: { id: string } }>(
    '/api/submissions/:id/review',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: "A submission's items, removals, mitigations and retained-against-recommendation first",
        params: idParams,
        reply: ApprovalReviewJson,
      }),
    },
    async (req) => {
      const r = await approval.approvalReview(req.ctx.caller!, req.params.id);
      return {
        submissionId: r.submission.id,
        status: r.submission.status,
        total: r.total,
        items: r.items.map(({ riskRowId, ...i }) => ({
          ...i,
          riskDefinitionId: Number(riskRowId),
          mitigationExpiresAt: i.mitigationExpiresAt ? i.mitigationExpiresAt.toISOString().slice(0, 10) : null,
        })),
      };
    },
  );

  for (const [suffix, outcome] of [
    ['approve', 'approved'],
    ['return', 'returned'],
  ] as const) {
    app.put<{ Params: { id: string }; Body: ReviewBody | null | undefined }>(
      `/api/submissions/:id/${suffix}`,
      { config: { access: 'admin' }, schema: routeSchema({ params: idParams, body: ReviewBody.nullish(), reply: SubmissionJson }) },
      async (req) => approval.reviewSubmission(req.ctx.caller!, req.params.id, outcome, reviewOf(req.body ?? {})),
    );
  }
}
