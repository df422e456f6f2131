// REST: consult questions. A reviewer not sure of a row asks another user
// (POST /api/risks/{id}/questions), the person asked reads the question with its
// row (GET /api/questions/{id}) and answers (POST /api/questions/{id}/answer);
// GET /api/questions lists the caller's (administrators: every one), open ones
// unless ?status= says otherwise. The rules are services/consult/questions.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as questions from '../../services/consult/questions.js';
import { idParams, isoDate, routeSchema, wholeNumber } from '../edge.js';
import { riskRowJson } from './risk-row.js';
import { RiskRowJson } from './risks.js';

const Person = z.strictObject({ id: z.uuid(), email: z.string(), name: z.string() });

const QuestionJson = z.strictObject({
  id: z.uuid(),
  riskDefinitionId: z.number().int().describe('The risk row asked about'),
  periodId: z.uuid(),
  periodName: z.string(),
  status: z.enum(['open', 'answered']),
  question: z.string(),
  askedBy: Person.describe('The reviewer who asked (the decision stays theirs)'),
  askedOf: Person.describe('The person asked, the only one who may answer'),
  askedAt: isoDate(),
  answer: z.string().nullable(),
  answeredAt: isoDate().nullable(),
  row: z
    .strictObject({
      userId: z.string(),
      userName: z.string(),
      accessRiskId: z.string(),
      riskDescription: z.string(),
      roleProfile: z.string(),
      system: z.string(),
      riskLevel: z.enum(['high', 'medium', 'low']),
    })
    .describe('What the row is, in short'),
  link: z.string().describe("The question's page in the app (a path)"),
});

const RowParams = z.object({ id: z.string().regex(/^\d{1,18}$/, "id must be a risk row's number (riskDefinitionId)") });
const ListQuery = z.object({
  status: z.enum(questions.QUESTION_STATUSES, { error: 'status must be open, answered or all' }).optional(),
  riskDefinitionId: z
    .string()
    .regex(/^\d{1,18}$/, "riskDefinitionId must be a risk row's number")
    .optional(),
  limit: wholeNumber('limit', 1, 500).optional(),
  offset: wholeNumber('offset', 0, 10_000_000).optional(),
});

export function registerQuestionRoutes(app: FastifyInstance) {
  app.post<{ Params: z.infer<typeof RowParams>; Body: questions.AskInput }>(
    '/api/risks/:id/questions',
    {
      config: { access: 'signedIn' },
      schema: routeSchema({
        summary: "Marks a row 'Not sure' by asking another user a question about it (the row stays pending)",
        params: RowParams,
        body: questions.askSchema,
        reply: QuestionJson,
        replyStatus: 201,
      }),
    },
    async (req, reply) => {
      const q = await questions.askQuestion(req.ctx.caller!, BigInt(req.params.id), req.body);
      return reply.status(201).send(questions.questionJson(q));
    },
  );

  app.get<{ Querystring: z.infer<typeof ListQuery> }>(
    '/api/questions',
    {
      config: { access: 'signedIn' },
      schema: routeSchema({
        summary: 'Questions the caller asked or was asked (administrators: every one), newest first; open ones unless status says otherwise',
        querystring: ListQuery,
        reply: z.strictObject({ questions: z.array(QuestionJson), total: z.number().int() }),
      }),
    },
    async (req) => {
      const { status, riskDefinitionId, limit, offset } = req.query;
      const r = await questions.listQuestions(req.ctx.caller!, { status, riskRowId: riskDefinitionId ? BigInt(riskDefinitionId) : null }, { limit, offset });
      return { questions: r.items.map(questions.questionJson), total: r.total };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/questions/:id',
    {
      config: { access: 'signedIn' },
      schema: routeSchema({
        summary: 'A question with its row, read-only (the asker, the person asked, administrators)',
        params: idParams,
        reply: QuestionJson.extend({
          riskRow: RiskRowJson.nullable().describe('The row in the shape of GET /api/risks (no decision: read-only); null when no longer in the data'),
        }),
      }),
    },
    async (req) => {
      const caller = req.ctx.caller!;
      const q = await questions.readQuestion(caller, req.params.id);
      const row = await questions.questionRow(caller, q);
      return {
        ...questions.questionJson(q),
        riskRow: row ? riskRowJson({ ...row, decision: null, decisionComments: null, decidedAt: null }) : null,
      };
    },
  );

  app.post<{ Params: { id: string }; Body: z.infer<typeof questions.answerSchema> }>(
    '/api/questions/:id/answer',
    {
      config: { access: 'signedIn' },
      schema: routeSchema({ summary: 'The person asked answers the question, once', params: idParams, body: questions.answerSchema, reply: QuestionJson }),
    },
    async (req) => questions.questionJson(await questions.answerQuestion(req.ctx.caller!, req.params.id, req.body.answer)),
  );
}
