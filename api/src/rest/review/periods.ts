// REST: review periods (SPEC §7 /api/review-periods…).
import type { FastifyInstance } from 'fastify';
import * as periods from '../../services/review/periods.js';
import * as reminders from '../../services/review/reminders.js';
import { previewPeriod, type PeriodPreview } from '../../services/stages/period-preview.js';
import { STAGE_REVIEWER_TYPES } from '../../services/stages/stage-plan.js';
import { z } from 'zod';
import { idParams, isoDate, routeSchema, text } from '../edge.js';
import { PeriodJson, PersonJson, StagePlanJson } from '../replies.js';
import { periodStages } from '../../services/stages/stage-reviews.js';

const ReminderJson = z.strictObject({
  periodId: z.uuid(),
  kind: z.string().describe('reminder (before the end date) or escalation'),
  daysBefore: z.number().int(),
  stage: z.number().int().describe("Whose end date: 0 the period's, 1 to 3 that stage's"),
  userId: z.uuid(),
  pendingCount: z.number().int().describe('Items the recipient still had to decide'),
  sentAt: isoDate(),
  recipient: PersonJson,
});

const StageProgressJson = StagePlanJson.extend({
  number: z.number().int().describe('1 to 3'),
  progress: z.strictObject({
    reached: z.number().int().describe('Rows that reached the stage (stage 1: every row in scope)'),
    decided: z.number().int().describe('Of those, rows with a decision at the stage'),
    pending: z.number().int().describe('Of those, rows still without one'),
    submittedReviewers: z.number().int().describe('Reviewers who submitted the stage'),
  }),
});

/** A close may give a reason; it must while rows remain that nobody could review (409 naming how many). */
const CloseBody = z.object({
  reason: text('reason', periods.MAX_CLOSE_REASON).nullish().describe('Why the period closes with rows nobody could review (required while there are any)'),
});

const count = (what: string) => z.number().int().describe(what);
const PreviewJson = z.strictObject({
  scope: z.strictObject({ rows: count('The live rows the period reviews'), highRows: count('Of those, rows of level high or medium') }),
  stages: z
    .array(
      z.strictObject({
        name: z.string(),
        reviewerType: z.enum(STAGE_REVIEWER_TYPES).describe('criteria, users or processOwner'),
        reviewers: z
          .array(
            z.strictObject({
              userId: z.uuid(),
              rows: count(
                "Stage 1: the rows they would get (their queue's total, fallback rows included); a later stage: the rows that could reach them at most, if every earlier decision passed on",
              ),
              fallbackRows: count('Of those, the rows they get as a fallback reviewer (stage 1 only)'),
            }),
          )
          .describe('Most rows first'),
      }),
    )
    .describe('Each stage, in order, with its reviewers'),
  fallback: z.strictObject({
    rows: count("Stage 1's rows nobody but the fallback reviewers gets: selfReview + unassigned"),
    selfReview: count('Of those, rows routed away from the reviewers whose own access they are'),
    unassigned: count('Of those, rows no criterion (listed user, process owner) gives to anyone'),
    nobody: count('Of those, rows nobody can review (no active fallback reviewer, or their own access)'),
    reviewerIds: z.array(z.uuid()).describe('The active fallback reviewers'),
  }),
});

function previewJson(p: PeriodPreview): z.infer<typeof PreviewJson> {
  const { reviewers, ...fallback } = p.fallback;
  return {
    scope: p.scope,
    stages: p.stages.map((s) => ({ ...s, reviewers: s.reviewers.map(({ user, ...r }) => ({ userId: user.id, ...r })) })),
    fallback: { ...fallback, reviewerIds: reviewers.map((u) => u.id) },
  };
}

export function registerPeriodRoutes(app: FastifyInstance) {
  app.get(
    '/api/review-periods/active',
    { config: { access: 'signedIn' }, schema: routeSchema({ reply: PeriodJson.nullable().describe('The active period, or null') }) },
    async (req) => {
      return (await req.ctx.caller!.viewer.activePeriod()) ?? null;
    },
  );

  app.get('/api/review-periods', { config: { access: 'admin' }, schema: routeSchema({ reply: z.array(PeriodJson).describe('Newest first') }) }, async (req) =>
    periods.listPeriods(req.ctx.caller!),
  );

  app.post<{ Body: periods.CreatePeriodInput }>(
    '/api/review-periods',
    { config: { access: 'admin' }, schema: routeSchema({ body: periods.createPeriodSchema, reply: PeriodJson, replyStatus: 201 }) },
    async (req, reply) => reply.status(201).send(await periods.createPeriod(req.ctx.caller!, req.body ?? {})),
  );

  app.post<{ Body: periods.CreatePeriodInput }>(
    '/api/review-periods/preview',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'What creating a period with this body would give each reviewer of each stage and the fallback reviewers; creates and writes nothing',
        body: periods.createPeriodSchema,
        reply: PreviewJson,
      }),
    },
    async (req) => previewJson(await previewPeriod(req.ctx.caller!, req.body ?? {})),
  );

  /** The reminders and escalations sent for a period. */
  app.get<{ Params: { id: string } }>(
    '/api/review-periods/:id/reminders',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: z.array(ReminderJson) }) },
    async (req) => {
      return (await reminders.listReminders(req.ctx.caller!, req.params.id)).map(({ user, ...r }) => ({
        ...r,
        recipient: { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName },
      }));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/review-periods/:id/stages',
    {
      config: { access: 'admin' },
      schema: routeSchema({ summary: "A period's stages, each with its progress", params: idParams, reply: z.array(StageProgressJson) }),
    },
    async (req) =>
      (await periodStages(req.ctx.caller!, req.params.id)).map((s) => ({
        number: s.number,
        name: s.name,
        reviewers: s.reviewers,
        passOn: s.passOn,
        endDate: s.endDate?.toISOString() ?? null,
        progress: s.progress,
      })),
  );

  for (const [suffix, status] of [
    ['open', 'active'],
    ['close', 'closed'],
  ] as const) {
    app.put<{ Params: { id: string }; Body: z.infer<typeof CloseBody> }>(
      `/api/review-periods/:id/${suffix}`,
      { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: PeriodJson, ...(status === 'closed' ? { body: CloseBody } : {}) }) },
      async (req) => {
        return periods.setPeriodStatus(req.ctx.caller!, req.params.id, status, { reason: status === 'closed' ? req.body?.reason : null });
      },
    );
  }
}
