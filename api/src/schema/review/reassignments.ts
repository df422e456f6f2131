// Delegation and reassignment: reassign a criterion or
// single items, the history of moves, and the open work waiting to be moved.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder, runnable } from '../builder.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Context } from '../../context.js';
import { listOrder } from '../ordering.js';
import { PERSON_ORDER_FIELDS, UserNode } from '../identity/users.js';
import { AssignmentCriteriaNode, CriteriaTypeEnum } from './assignments.js';
import { ValidationError } from '../../core/errors.js';
import { actorLabel } from '../../core/audit.js';
import { RiskRowNode } from './risks.js';
import * as reassignments from '../../services/review/reassignments.js';

const ReassignmentRef = builder.prismaNode('Reassignment', {
  description: 'An assignment criterion, or single items, moved from one reviewer to another, with the note; who held the items when.',
  id: { field: 'id', description: 'The move’s global id.' },
  // node(id:) of a move that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: (r, ctx) => reassignments.isReassignmentVisibleTo(r, ctx.user),
  fields: (t) => ({
    criteriaId: t.id({
      nullable: true,
      description: 'The global id of the assignment criterion moved; null when single items were moved.',
      resolve: (r) => (r.criteriaId ? encodeGlobalID('AssignmentCriteria', r.criteriaId) : null),
    }),
    criteriaName: t.exposeString('criteriaName', {
      nullable: true,
      description: 'What the criterion was called at the time of the move; null for single items.',
    }),
    criteriaType: t.expose('criteriaType', {
      type: CriteriaTypeEnum,
      nullable: true,
      description: 'Which field of the risk rows the criterion matches; null for single items.',
    }),
    criteriaValue: t.exposeString('criteriaValue', {
      nullable: true,
      description: 'The value that field must have: the rows whose work moved; null for single items.',
    }),
    riskRowIds: t.stringList({
      description: 'The single items moved (risk row ids as text; at most 10,000, the most one reassignment takes); empty when a criterion was moved.',
      resolve: (r) => r.riskRowIds.map(String),
    }),
    fromReviewer: t.exposeString('fromLabel', { description: 'Who held the work (name and e-mail as at the time).' }),
    toReviewer: t.exposeString('toLabel', { description: 'Who holds the work since (name and e-mail as at the time).' }),
    reassignedBy: t.exposeString('byLabel', {
      description: 'Who made the move (an administrator, or the reviewer who gave their own work away), as at the time.',
    }),
    note: t.exposeString('note', { nullable: true, description: 'Why it was moved, as told to the new reviewer; null: none given.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the work moved.' }),
    criterion: t.field({
      type: AssignmentCriteriaNode,
      nullable: true,
      description: "The assignment criterion moved, as it is now (null for single items, or once deleted); one lookup per move, for the mutation's answer.",
      resolve: (r, _args, ctx) => (r.criteriaId ? ctx.prisma.assignmentCriteria.findUnique({ where: { id: r.criteriaId } }) : null),
    }),
  }),
});

const ReassignableReviewer = builder.objectRef<{ id: string; label: string; email: string }>('ReassignableReviewer').implement({
  description: "An active reviewer work can be moved to (the reassign dialogs' picker).",
  fields: (t) => ({
    id: t.id({ description: "The reviewer's global User id, as reassignWork's toReviewerId takes it.", resolve: (u) => encodeGlobalID('User', u.id) }),
    name: t.exposeString('label', { description: 'Their name and e-mail, as shown in the picker.' }),
    email: t.exposeString('email', { description: 'Their e-mail address.' }),
  }),
});

const OpenWorkCriterion = builder.objectRef<reassignments.OpenWork['criteria'][number]>('OpenWorkCriterion').implement({
  description: 'An assignment criterion the reviewer holds: the work reassignWork can move.',
  fields: (t) => ({
    id: t.id({ description: "The criterion's global id, as reassignWork takes it.", resolve: (c) => encodeGlobalID('AssignmentCriteria', c.id) }),
    name: t.exposeString('name', { description: 'What the criterion is called.' }),
    criteriaType: t.expose('criteriaType', { type: CriteriaTypeEnum, description: 'Which field of the risk rows it matches.' }),
    criteriaValue: t.exposeString('criteriaValue', { description: 'The value that field must have.' }),
  }),
});

/** What a reviewer holds, asked for every reviewer of the page at once. */
const workOf = (ctx: Context, reviewerId: string) =>
  ctx.caller!.viewer.loader('openWork', (ids: readonly string[]) => reassignments.openWorkOf(ctx.caller!, ids), String).load(reviewerId);

/** Open work is a variant of User: the reviewer, with what they hold (a connection as every other list). */
const OpenWorkRef = builder.prismaObject('User', {
  variant: 'OpenWork',
  description: "A reviewer's work that can be reassigned: their criteria and pending items in the active period.",
  select: { id: true },
  fields: (t) => ({
    reviewer: t.variant(UserNode, { description: 'The reviewer who holds the work.' }),
    pending: t.int({
      description: 'Their assigned items still without their decision in the active period (0 while none is active).',
      resolve: async (u, _args, ctx) => (await workOf(ctx, u.id)).pending,
    }),
    criteria: t.field({
      type: [OpenWorkCriterion],
      description: 'The assignment criteria they hold, oldest first.',
      resolve: async (u, _args, ctx) => (await workOf(ctx, u.id)).criteria,
    }),
    itemIds: t.stringList({
      description: 'The single items moved to them (risk row ids as text), oldest move first; at most 10,000 (reassignments lists every move).',
      resolve: async (u, _args, ctx) => (await workOf(ctx, u.id)).items.map(String),
    }),
  }),
});

const openWorkOrder = listOrder('OpenWork', 'the reviewers holding open work', PERSON_ORDER_FIELDS, { field: 'NAME', direction: 'asc' });

builder.queryFields((t) => ({
  reassignments: t.prismaConnection({
    type: 'Reassignment',
    cursor: 'id',
    description:
      "Reassignments the caller may see (administrators: all; reviewers: from or to them), newest first; with riskRowId, that item's history, oldest first.",
    authScopes: { signedIn: true },
    args: { riskRowId: t.arg.string({ description: "A risk row's numeric id (as text): that item's history, the moves of the criteria that cover it." }) },
    resolve: async (query, _root, args, ctx) => {
      const { where, orderBy } = await reassignments.reassignmentQuery(ctx.caller!, { riskRowId: args.riskRowId });
      return ctx.prisma.reassignment.findMany({ ...runnable(query), where, orderBy });
    },
    totalCount: async (_root, args, ctx) =>
      ctx.prisma.reassignment.count({ where: (await reassignments.reassignmentQuery(ctx.caller!, { riskRowId: args.riskRowId })).where }),
  }),
  reassignmentReviewers: t.field({
    type: [ReassignableReviewer],
    description: `The active reviewers (other than the caller) work can be moved to, by name: a picker list bounded at ${reassignments.MAX_REASSIGNABLE.toLocaleString('en-US')} reviewers, not a connection.`,
    authScopes: { signedIn: true },
    resolve: async (_root, _args, ctx) =>
      (await reassignments.reassignableReviewers(ctx.caller!)).map((u) => ({ id: u.id, label: actorLabel({ user: u }), email: u.email })),
  }),
  reassignmentOpenWork: t.prismaConnection({
    type: OpenWorkRef,
    cursor: 'id',
    description:
      "Work to reassign: for administrators each deactivated reviewer's criteria and pending items; for a reviewer their own. By name unless `orderBy` says otherwise.",
    authScopes: { signedIn: true },
    args: openWorkOrder.arg(),
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.user.findMany({
        ...runnable(query),
        where: reassignments.openWorkWhere(ctx.caller!),
        orderBy: openWorkOrder.orderBy<Prisma.UserOrderByWithRelationInput>(args.orderBy),
      }),
    totalCount: (_root, _args, ctx) => ctx.prisma.user.count({ where: reassignments.openWorkWhere(ctx.caller!) }),
  }),
}));

const ReassignWorkInput = builder.inputType('ReassignWorkInput', {
  description: 'A move of work: an assignment criterion or single items, the reviewer to take it over, and a note for them.',
  fields: (t) => ({
    criteriaId: t.globalID({ for: AssignmentCriteriaNode, description: 'The assignment criterion to move (or riskRowIds).' }),
    riskRowIds: t.stringList({ description: 'Single items to move (risk row ids as text): a reviewer only items they hold.' }),
    items: t.globalIDList({ for: RiskRowNode, description: 'Single items to move, by their global ids (as the lists give them); with riskRowIds if both.' }),
    fromReviewerId: t.globalID({ for: UserNode, description: 'Whose items move (administrators; default: the one reviewer holding them).' }),
    toReviewerId: t.globalID({ required: true, for: UserNode, description: 'The active reviewer who takes the work over.' }),
    note: t.string({ description: 'Why, for the new reviewer (in the notification and e-mail); 2,000 characters at most.' }),
  }),
});

builder.mutationFields((t) => ({
  reassignWork: t.field({
    type: ReassignmentRef,
    description:
      'Moves an assignment criterion or single items to another reviewer (administrators, or a reviewer for their own); the new reviewer is notified.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: ReassignWorkInput, required: true, description: 'The criterion, the new reviewer and the note.' }) },
    resolve: (_root, { input }, ctx) =>
      reassignments.reassign(ctx.caller!, {
        criteriaId: input.criteriaId?.id ?? null,
        riskRowIds: input.items?.length ? [...(input.riskRowIds ?? []), ...input.items.map((i) => i.id)] : (input.riskRowIds ?? null),
        fromReviewerId: input.fromReviewerId?.id ?? null,
        toReviewerId: input.toReviewerId.id,
        note: input.note ?? null,
      }),
  }),
}));
