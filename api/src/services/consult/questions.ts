// Consult, not guess: a reviewer unsure of a row marks it 'Not sure' by
// asking another user a question about it. The rules, in one place:
// - asking needs an active period and a row the asker may see (the one
//   visibility rule, through the viewer); the person asked is another, active
//   user; the question is not empty; one open question per asker, person and
//   row at a time;
// - the person asked reads that row through the question only (never through
//   the lists or node(id:), whose rule is unchanged), read-only: deciding it
//   still goes through the visibility rule, which does not let them;
// - only the person asked answers, once; the answer is shown on the asker's
//   row; the decision stays the asker's, and asking is not a decision (the row
//   stays pending, no count moves);
// - administrators list every question (open ones first of all), the parties
//   their own; everyone else is told the question does not exist.
// Asked and answered are audited; each tells the other party by a
// notification linking to the question's page (and the person asked by mail).
import { z } from 'zod';
import type { ConsultQuestion, Notification, Prisma, RiskRow, User } from '../../generated/prisma/client.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { displayName } from '../../core/people.js';
import { parseOrThrow } from '../../core/validation.js';
import { isUuid } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { LIVE_ROWS } from '../live-rows.js';
import { fromRaw, type RiskRowRaw } from '../visibility.js';
import { requireActivePeriod } from '../review/periods.js';
import { createSystemNotification, publishNotification } from '../identity/notifications.js';

export const MAX_QUESTION_LENGTH = 2000;
export const MAX_ANSWER_LENGTH = 5000;
export const QUESTION_STATUSES = ['open', 'answered', 'all'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

export const QUESTION_ASKED_TITLE = 'A reviewer asks for your view';
export const QUESTION_ANSWERED_TITLE = 'Your question was answered';

/** Also the REST edge's body schema (rest/review/questions.ts). */
export const askSchema = z.object({
  askedUserId: z.string({ error: 'Choose the person to ask (askedUserId)' }).min(1, 'Choose the person to ask (askedUserId)'),
  question: z
    .string({ error: 'A question is required: say what you are unsure of' })
    .trim()
    .min(1, 'A question is required: say what you are unsure of')
    .max(MAX_QUESTION_LENGTH, `The question is too long (${MAX_QUESTION_LENGTH.toLocaleString('en-US')} characters at most)`),
});
export type AskInput = z.input<typeof askSchema>;

/** Also the REST edge's body schema. */
export const answerSchema = z.object({
  answer: z
    .string({ error: 'An answer is required' })
    .trim()
    .min(1, 'An answer is required')
    .max(MAX_ANSWER_LENGTH, `The answer is too long (${MAX_ANSWER_LENGTH.toLocaleString('en-US')} characters at most)`),
});

/** A question with the people, the period and a summary of its row (for lists). */
export type QuestionView = ConsultQuestion & {
  askedBy: User;
  askedOf: User;
  period: { id: string; name: string; status: string };
  riskRow: Pick<RiskRow, 'id' | 'userId' | 'userName' | 'accessRiskId' | 'riskDescription' | 'roleProfile' | 'system' | 'riskLevel'>;
};

const VIEW_INCLUDE = {
  askedBy: true,
  askedOf: true,
  period: { select: { id: true, name: true, status: true } },
  riskRow: { select: { id: true, userId: true, userName: true, accessRiskId: true, riskDescription: true, roleProfile: true, system: true, riskLevel: true } },
} as const;

/** The page of the app where a question is read and answered. */
export const questionPath = (id: string) => `/questions/${id}`;

const nameOf = (u: User) => displayName(u) || u.email;
const NOT_FOUND = 'Question not found';

/** Who may read a question: the asker, the person asked, administrators. */
export function canRead(user: User, q: Pick<ConsultQuestion, 'askedById' | 'askedOfId'>): boolean {
  return user.role === 'admin' || q.askedById === user.id || q.askedOfId === user.id;
}

/** The caller asks `askedUserId` about a row they may see, in the active period. */
export async function askQuestion(caller: Caller, riskRowId: bigint, input: AskInput): Promise<QuestionView> {
  const { deps, actor, viewer } = caller;
  const data = parseOrThrow(askSchema, input);
  const me = actor.user;
  // A row the caller may not see answers as one that does not exist.
  const row = await viewer.rows.load(riskRowId);
  if (!row) throw new NotFoundError(`Risk row ${riskRowId} not found: you can ask only about a row you can see`);
  if (data.askedUserId === me.id) throw new ValidationError('You cannot ask yourself: choose another person', 'askedUserId');
  const target = isUuid(data.askedUserId) ? await deps.prisma.user.findUnique({ where: { id: data.askedUserId } }) : null;
  if (!target) throw new ValidationError('The person to ask does not exist', 'askedUserId');
  if (!target.isActive) throw new ValidationError(`${nameOf(target)} is deactivated and cannot be asked: choose another person`, 'askedUserId');
  const period = await requireActivePeriod(deps.prisma);
  const { question, notice } = await deps.prisma.$transaction(async (tx) => {
    // One open question per asker, person and row: a second one waits for the first answer.
    const open = await tx.consultQuestion.findFirst({
      where: { periodId: period.id, riskRowId, askedById: me.id, askedOfId: target.id, answeredAt: null },
      select: { id: true },
    });
    if (open) throw new ConflictError(`You already asked ${nameOf(target)} about this row; that question is still open`);
    const q = await tx.consultQuestion.create({
      data: { periodId: period.id, riskRowId, askedById: me.id, askedOfId: target.id, question: data.question },
      include: VIEW_INCLUDE,
    });
    await recordAudit(tx, actor, {
      action: 'question.asked',
      entityType: 'ConsultQuestion',
      entityId: q.id,
      periodId: period.id,
      after: { riskRowId, askedOfId: target.id, askedOf: target.email, question: q.question },
    });
    const n = await createSystemNotification(tx, {
      type: 'info',
      title: QUESTION_ASKED_TITLE,
      message: `${nameOf(me)} is not sure about ${rowLabel(row)} and asks: ${q.question}`,
      targetUserId: target.id,
      link: questionPath(q.id),
      from: me,
    });
    return { question: q, notice: n };
  });
  publishNotification(deps.pubsub, notice);
  await deps.mailer.send({
    to: target.email,
    subject: `${nameOf(me)} asks for your view on ${row.accessRiskId}`,
    text:
      `Hello ${target.firstName},\n\n${nameOf(me)} is reviewing access and is not sure about ${rowLabel(row)}. They ask:\n\n` +
      `${question.question}\n\nRead the row and answer at ${deps.config.publicUrl}${questionPath(question.id)}\n` +
      `The decision stays theirs; your answer is shown beside the row.\n`,
  });
  return question;
}

function rowLabel(r: Pick<RiskRow, 'userName' | 'userId' | 'accessRiskId' | 'roleProfile' | 'system'>): string {
  return `${r.userName || r.userId} · ${r.accessRiskId} · ${r.roleProfile || '(no role)'} in ${r.system}`;
}

/** The question, if the caller may read it (else: not found, the same as a question that does not exist). */
export async function readQuestion(caller: Caller, id: string): Promise<QuestionView> {
  const q = isUuid(id) ? await caller.deps.prisma.consultQuestion.findUnique({ where: { id }, include: VIEW_INCLUDE }) : null;
  if (!q || !canRead(caller.actor.user, q)) throw new NotFoundError(NOT_FOUND);
  return q;
}

/** The person asked answers, once; the asker is told. */
export async function answerQuestion(caller: Caller, id: string, answer: string): Promise<QuestionView> {
  const { deps, actor } = caller;
  const data = parseOrThrow(answerSchema, { answer });
  const me = actor.user;
  const { question, notice } = await deps.prisma.$transaction(async (tx) => {
    // Locked, so two answers sent at once cannot both be taken.
    const [locked] = isUuid(id) ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM consult_questions WHERE id = ${id}::uuid FOR UPDATE` : [];
    const q = locked ? await tx.consultQuestion.findUnique({ where: { id }, include: VIEW_INCLUDE }) : null;
    if (!q || !canRead(me, q)) throw new NotFoundError(NOT_FOUND);
    if (q.askedOfId !== me.id) throw new ForbiddenError(`This question was asked of ${nameOf(q.askedOf)}: only they can answer it`);
    if (q.answeredAt) throw new ConflictError('This question has already been answered');
    const done = await tx.consultQuestion.update({ where: { id }, data: { answer: data.answer, answeredAt: new Date() }, include: VIEW_INCLUDE });
    await recordAudit(tx, actor, {
      action: 'question.answered',
      entityType: 'ConsultQuestion',
      entityId: id,
      periodId: q.periodId,
      after: { riskRowId: q.riskRowId, askedById: q.askedById, askedBy: q.askedBy.email, answer: done.answer },
    });
    const n: Notification = await createSystemNotification(tx, {
      type: 'info',
      title: QUESTION_ANSWERED_TITLE,
      message: `${nameOf(me)} answered your question about ${rowLabel(q.riskRow)}: ${done.answer}`,
      targetUserId: q.askedById,
      link: questionPath(id),
      from: me,
    });
    return { question: done, notice: n };
  });
  publishNotification(deps.pubsub, notice);
  return question;
}

export interface QuestionFilter {
  status?: QuestionStatus | null;
  /** Only the questions about this row. */
  riskRowId?: bigint | null;
}

/**
 * Which questions the caller lists: administrators every one, others those they
 * asked or were asked; open ones (unanswered) unless `status` says otherwise.
 */
export function questionsWhere(user: User, filter: QuestionFilter): Prisma.ConsultQuestionWhereInput {
  const status = filter.status ?? 'open';
  return {
    ...(user.role === 'admin' ? {} : { OR: [{ askedById: user.id }, { askedOfId: user.id }] }),
    ...(status === 'open' ? { answeredAt: null } : status === 'answered' ? { answeredAt: { not: null } } : {}),
    ...(filter.riskRowId != null ? { riskRowId: filter.riskRowId } : {}),
  };
}

/** A page of the caller's questions, newest first, with the total. */
export async function listQuestions(caller: Caller, filter: QuestionFilter, page: { limit?: number; offset?: number } = {}) {
  const { prisma } = caller.deps;
  const where = questionsWhere(caller.actor.user, filter);
  const [items, total] = await Promise.all([
    prisma.consultQuestion.findMany({
      where,
      include: VIEW_INCLUDE,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: Math.min(page.limit ?? 100, 500),
      skip: page.offset ?? 0,
    }),
    prisma.consultQuestion.count({ where }),
  ]);
  return { items: items as QuestionView[], total };
}

/**
 * The row a question is about, for a party to it (read-only; null when it is
 * no longer live, e.g. replaced by an upload). The only way the person asked
 * reads a row not assigned to them: by the question they were asked.
 */
export async function questionRow(caller: Caller, q: Pick<ConsultQuestion, 'riskRowId' | 'askedById' | 'askedOfId'>): Promise<RiskRow | null> {
  if (!canRead(caller.actor.user, q)) return null;
  const [raw] = await caller.deps.prisma.$queryRaw<RiskRowRaw[]>`SELECT r.* FROM risk_rows r WHERE r.id = ${q.riskRowId} AND ${LIVE_ROWS}`;
  return raw ? (fromRaw(raw) as RiskRow) : null;
}

/** The viewer's own questions on these rows in the decision period (oldest first), one query for a page. */
export async function myQuestionsOn(caller: Caller, rowIds: readonly bigint[]): Promise<QuestionView[][]> {
  const period = await caller.viewer.decisionPeriod();
  if (!period || !rowIds.length) return rowIds.map(() => []);
  const qs = await caller.deps.prisma.consultQuestion.findMany({
    where: { periodId: period.id, askedById: caller.actor.user.id, riskRowId: { in: [...rowIds] } },
    include: VIEW_INCLUDE,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const byRow = new Map<string, QuestionView[]>();
  for (const q of qs) byRow.set(String(q.riskRowId), [...(byRow.get(String(q.riskRowId)) ?? []), q]);
  return rowIds.map((id) => byRow.get(String(id)) ?? []);
}

/** People a signed-in user may ask: active users but themselves, matching `search` (name or e-mail), A to Z, at most 20. */
export async function askableUsers(caller: Caller, search?: string | null): Promise<User[]> {
  const s = search?.trim();
  return caller.deps.prisma.user.findMany({
    where: {
      isActive: true,
      id: { not: caller.actor.user.id },
      ...(s
        ? {
            OR: [
              { firstName: { contains: s, mode: 'insensitive' as const } },
              { lastName: { contains: s, mode: 'insensitive' as const } },
              { email: { contains: s, mode: 'insensitive' as const } },
            ],
          }
        : {}),
    },
    orderBy: [{ firstName: 'asc' }, { lastName: 'asc' }, { email: 'asc' }],
    take: 20,
  });
}

/** A question as REST answers it. */
export function questionJson(q: QuestionView) {
  const person = (u: User) => ({ id: u.id, email: u.email, name: nameOf(u) });
  return {
    id: q.id,
    riskDefinitionId: Number(q.riskRowId),
    periodId: q.periodId,
    periodName: q.period.name,
    status: q.answeredAt ? ('answered' as const) : ('open' as const),
    question: q.question,
    askedBy: person(q.askedBy),
    askedOf: person(q.askedOf),
    askedAt: q.createdAt,
    answer: q.answer,
    answeredAt: q.answeredAt,
    row: {
      userId: q.riskRow.userId,
      userName: q.riskRow.userName,
      accessRiskId: q.riskRow.accessRiskId,
      riskDescription: q.riskRow.riskDescription,
      roleProfile: q.riskRow.roleProfile,
      system: q.riskRow.system,
      riskLevel: q.riskRow.riskLevel,
    },
    link: questionPath(q.id),
  };
}
