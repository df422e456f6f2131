// Consult questions in GraphQL: the ConsultQuestion node (the asker, the person
// asked and administrators read it, with its row read-only), the caller's
// questions as a connection, the viewer's questions on a risk row, the people
// one may ask, and asking and answering (the same service functions as REST
// /api/risks/{id}/questions and /api/questions).
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import { ValidationError } from '../../core/errors.js';
import { displayName } from '../../core/people.js';
import type { User } from '../../generated/prisma/client.js';
import { access } from '../../context.js';
import * as questions from '../../services/consult/questions.js';
import { RiskRowNode } from './risks.js';

const ConsultQuestionStatusEnum = enumOf('ConsultQuestionStatus', {
  description: 'Whether a consult question has its answer.',
  values: ['open', 'answered'] as const,
  descriptions: {
    open: 'Asked, not answered yet.',
    answered: 'Answered by the person asked.',
  },
});

const ConsultQuestionFilterEnum = enumOf('ConsultQuestionFilter', {
  description: 'Which consult questions to list.',
  values: questions.QUESTION_STATUSES,
  descriptions: {
    open: 'Those not answered yet.',
    answered: 'Those answered.',
    all: 'Every one.',
  },
});

/** A party to a question as the other party sees them (a reviewer may not read another user's User node). */
const ConsultPerson = builder.objectRef<User>('ConsultPerson').implement({
  description: 'A person asking or asked a consult question, as the parties see each other.',
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      description: 'Their User global id (what askQuestion takes as askedUserId).',
      resolve: (u) => encodeGlobalID('User', u.id),
    }),
    name: t.string({ description: 'Their name (their e-mail when no name is set).', resolve: (u) => displayName(u) || u.email }),
    email: t.exposeString('email', { description: 'Their e-mail.' }),
  }),
});

export const ConsultQuestionNode = builder.prismaNode('ConsultQuestion', {
  id: { field: 'id', description: 'The question’s global id.' },
  nullable: true,
  description:
    "A reviewer's question about one risk row, asked of another user ('Not sure'): it is not a decision, the row stays pending and the decision stays the reviewer's.",
  // The asker, the person asked and administrators; anyone else reads null, as for no question.
  authScopes: (q, ctx) => access.signedIn(ctx.user) && questions.canRead(ctx.user!, q),
  fields: (t) => ({
    question: t.exposeString('question', { description: 'What the reviewer asks.' }),
    answer: t.exposeString('answer', { nullable: true, description: 'The answer of the person asked (null while open).' }),
    status: t.field({
      type: ConsultQuestionStatusEnum,
      description: 'Open or answered.',
      resolve: (q) => (q.answeredAt ? 'answered' : 'open'),
    }),
    askedAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was asked.' }),
    answeredAt: t.expose('answeredAt', { type: 'DateTime', nullable: true, description: 'When it was answered (null while open).' }),
    askedBy: t.field({
      type: ConsultPerson,
      description: 'The reviewer who asked.',
      select: { askedBy: true },
      resolve: (q) => q.askedBy,
    }),
    askedOf: t.field({
      type: ConsultPerson,
      description: 'The person asked: the only one who may answer.',
      select: { askedOf: true },
      resolve: (q) => q.askedOf,
    }),
    canAnswer: t.boolean({
      description: 'The viewer is the person asked and the question is still open.',
      resolve: (q, _args, ctx) => q.askedOfId === ctx.user?.id && !q.answeredAt,
    }),
    link: t.string({
      description: 'The question’s page in the app, as a path (/questions/<id>): its notification links there.',
      resolve: (q) => questions.questionPath(q.id),
    }),
    period: t.relation('period', { description: 'The review period it was asked in.' }),
    riskRow: t.field({
      type: RiskRowNode,
      nullable: true,
      description:
        'The row asked about, read-only (the person asked reads it here even when it is not assigned to them); null when it is no longer in the data.',
      resolve: (q, _args, ctx) => questions.questionRow(ctx.caller!, q),
    }),
  }),
});

builder.prismaObjectFields(RiskRowNode, (t) => ({
  myQuestions: t.field({
    type: [ConsultQuestionNode],
    description: "The viewer's questions about this row in the active period (else the one closed last), oldest first: 'Not sure' while one is open.",
    resolve: (r, _args, ctx) =>
      ctx.caller!.viewer.loader<bigint, questions.QuestionView[]>('myQuestions', (ids) => questions.myQuestionsOn(ctx.caller!, ids), String).load(r.id),
  }),
}));

builder.queryFields((t) => ({
  consultQuestions: t.prismaConnection({
    type: 'ConsultQuestion',
    cursor: 'id',
    description: 'Consult questions the viewer asked or was asked (administrators: every one), newest first.',
    authScopes: { signedIn: true },
    extensions: { totalCountDescription: 'How many questions match the filter.' },
    args: {
      status: t.arg({ type: ConsultQuestionFilterEnum, description: 'Open (the default), answered or all.' }),
      riskRowId: t.arg.globalID({ for: RiskRowNode, description: 'Only the questions about this row.' }),
    },
    totalCount: (_conn, args, ctx) =>
      ctx.prisma.consultQuestion.count({
        where: questions.questionsWhere(ctx.user!, { status: args.status, riskRowId: args.riskRowId ? BigInt(args.riskRowId.id) : null }),
      }),
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.consultQuestion.findMany({
        ...runnable(query),
        where: questions.questionsWhere(ctx.user!, { status: args.status, riskRowId: args.riskRowId ? BigInt(args.riskRowId.id) : null }),
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      }),
  }),
  askableUsers: t.field({
    type: [ConsultPerson],
    description: 'The people the viewer may ask a consult question: active users but themselves, A to Z, at most 20.',
    authScopes: { signedIn: true },
    args: { search: t.arg.string({ description: 'Part of the name or e-mail.' }) },
    resolve: (_root, args, ctx) => questions.askableUsers(ctx.caller!, args.search),
  }),
}));

builder.mutationFields((t) => ({
  askQuestion: t.prismaField({
    type: 'ConsultQuestion',
    description:
      "Marks a row 'Not sure' by asking another active user a question about it (in the active period); they are notified with a link to it. Not a decision: the row stays pending.",
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: {
      riskRowId: t.arg.globalID({ required: true, for: RiskRowNode, description: 'The row (one the viewer may see).' }),
      // Any global id decodes here; one that is not a User's is refused below, naming the argument.
      askedUserId: t.arg.globalID({ required: true, description: 'The person to ask: their User global id (ConsultPerson.id from askableUsers).' }),
      question: t.arg.string({ required: true, description: `What the viewer is unsure of (${questions.MAX_QUESTION_LENGTH} characters at most).` }),
    },
    resolve: async (query, _root, args, ctx) => {
      if (args.askedUserId.typename !== 'User') throw new ValidationError("'askedUserId' is not the id of a User", 'askedUserId');
      const q = await questions.askQuestion(ctx.caller!, BigInt(args.riskRowId.id), { askedUserId: args.askedUserId.id, question: args.question });
      return ctx.prisma.consultQuestion.findUniqueOrThrow({ ...runnable(query), where: { id: q.id } });
    },
  }),
  answerQuestion: t.prismaField({
    type: 'ConsultQuestion',
    description: 'The person asked answers a consult question, once; the asker is notified and sees the answer on the row.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: ConsultQuestionNode, description: 'The question.' }),
      answer: t.arg.string({ required: true, description: `The answer (${questions.MAX_ANSWER_LENGTH} characters at most).` }),
    },
    resolve: async (query, _root, args, ctx) => {
      const q = await questions.answerQuestion(ctx.caller!, args.id.id, args.answer);
      return ctx.prisma.consultQuestion.findUniqueOrThrow({ ...runnable(query), where: { id: q.id } });
    },
  }),
}));
