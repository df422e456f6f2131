// REST: recurring review period templates (administrators), in the style of
// /api/review-periods: list, create, change, delete.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as templates from '../../services/recurrence/templates.js';
import { SCHEDULES, periodName } from '../../services/recurrence/schedule.js';
import { idParams, isoDate, routeSchema } from '../edge.js';
import { StagePlanJson, Success } from '../replies.js';

const PeriodRef = z.strictObject({ id: z.uuid(), name: z.string() });

const TemplateJson = z.strictObject({
  id: z.uuid(),
  namePattern: z.string().describe('The name of its periods, with {year}, {quarter}, {month} and {monthName} filled in from the start'),
  description: z.string().nullable(),
  durationDays: z.number().int().describe('How many days its periods run'),
  reminderDaysBefore: z.array(z.number().int()).describe('Days before the end at which reviewers with pending items are reminded'),
  defaultDecisionAtClose: z.enum(['pending', 'retain', 'remove']).describe('What undecided rows become when its periods close'),
  schedule: z.enum(SCHEDULES).describe('When its periods are due (UTC)'),
  cron: z.string().nullable().describe('The cron expression of a cron schedule'),
  nextRunAt: isoDate().describe('When its next period is due'),
  nextPeriodName: z.string().describe('The name its next period will have'),
  status: z.enum(['scheduled', 'waiting']).describe('waiting: its period is due but another period is still active'),
  statusText: z.string().describe("'Next on <date>' or \"Waiting for '<period>' to close\""),
  waitingFor: PeriodRef.nullable().describe('The active period its due period waits for'),
  lastPeriod: PeriodRef.nullable().describe('The last period made from it'),
  stages: z
    .array(StagePlanJson.omit({ endDate: true }).extend({ endDays: z.number().int().nullable().describe("The stage's deadline: days after its period opens") }))
    .nullable()
    .describe('The stages its periods get; null: one stage (reviewers by criteria), then the approval'),
  createdAt: isoDate(),
  updatedAt: isoDate(),
});

/** The reply shape (dates go out as ISO text through the reply schema). */
function toJson(t: templates.TemplateWithPeriods) {
  const { waitingForPeriodId: _w, lastPeriodId: _l, createdById: _c, waitingFor, lastPeriod, ...rest } = t;
  const ref = (p: { id: string; name: string } | null) => (p ? { id: p.id, name: p.name } : null);
  return {
    ...rest,
    schedule: t.schedule as (typeof SCHEDULES)[number],
    nextPeriodName: periodName(t.namePattern, t.nextRunAt),
    status: waitingFor ? ('waiting' as const) : ('scheduled' as const),
    statusText: templates.templateStatus(t),
    waitingFor: ref(waitingFor),
    lastPeriod: ref(lastPeriod),
    stages: templates.templateStages(t)?.map((st) => ({ ...st, endDays: st.endDays ?? null })) ?? null,
  };
}

export function registerPeriodTemplateRoutes(app: FastifyInstance) {
  app.get(
    '/api/review-period-templates',
    { config: { access: 'admin' }, schema: routeSchema({ reply: z.array(TemplateJson).describe('The next due first') }) },
    async (req) => (await templates.listTemplates(req.ctx.caller!)).map(toJson),
  );

  app.post<{ Body: templates.CreateTemplateInput }>(
    '/api/review-period-templates',
    { config: { access: 'admin' }, schema: routeSchema({ body: templates.createTemplateSchema, reply: TemplateJson, replyStatus: 201 }) },
    async (req, reply) => reply.status(201).send(toJson(await templates.createTemplate(req.ctx.caller!, req.body ?? {}))),
  );

  app.put<{ Params: { id: string }; Body: templates.UpdateTemplateInput }>(
    '/api/review-period-templates/:id',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, body: templates.updateTemplateSchema, reply: TemplateJson }) },
    async (req) => toJson(await templates.updateTemplate(req.ctx.caller!, req.params.id, req.body ?? {})),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/review-period-templates/:id',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: Success }) },
    async (req) => {
      await templates.deleteTemplate(req.ctx.caller!, req.params.id);
      return { success: true };
    },
  );
}
