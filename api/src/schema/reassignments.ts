// Delegation and reassignment (issue 18, point 6): reassign a criterion, the
// history of moves, and the open work waiting to be moved.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from './builder.js';
import { UserNode } from './users.js';
import { AssignmentCriteriaNode, CriteriaTypeEnum } from './assignments.js';
import { ValidationError } from '../core/errors.js';
import * as reassignments from '../services/reassignments.js';

const ReassignmentRef = builder.prismaObject('Reassignment', {
  description: 'An assignment criterion moved from one reviewer to another, with the note; who held its items when.',
  fields: (t) => ({
    id: t.exposeID('id'),
    criteriaId: t.id({ resolve: (r) => encodeGlobalID('AssignmentCriteria', r.criteriaId) }),
    criteriaName: t.exposeString('criteriaName'),
    criteriaType: t.expose('criteriaType', { type: CriteriaTypeEnum }),
    criteriaValue: t.exposeString('criteriaValue'),
    fromReviewer: t.exposeString('fromLabel', { description: 'Who held the work (name and e-mail as at the time).' }),
    toReviewer: t.exposeString('toLabel'),
    reassignedBy: t.exposeString('byLabel'),
    note: t.exposeString('note', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const OpenWorkCriterion = builder.objectRef<reassignments.OpenWork['criteria'][number]>('OpenWorkCriterion').implement({
  fields: (t) => ({
    id: t.id({ resolve: (c) => encodeGlobalID('AssignmentCriteria', c.id) }),
    name: t.exposeString('name'),
    criteriaType: t.expose('criteriaType', { type: CriteriaTypeEnum }),
    criteriaValue: t.exposeString('criteriaValue'),
  }),
});

const OpenWorkRef = builder.objectRef<reassignments.OpenWork>('OpenWork').implement({
  description: "A reviewer's work that can be reassigned: their criteria and pending items in the active period.",
  fields: (t) => ({
    reviewer: t.field({ type: UserNode, resolve: (w) => w.reviewer }),
    pending: t.exposeInt('pending'),
    criteria: t.field({ type: [OpenWorkCriterion], resolve: (w) => w.criteria }),
  }),
});

builder.queryFields((t) => ({
  reassignments: t.field({
    type: [ReassignmentRef],
    description: "Reassignments the caller may see (administrators: all; reviewers: from or to them), newest first; with riskDefinitionId, that item's history, oldest first.",
    authScopes: { signedIn: true },
    args: { riskDefinitionId: t.arg.string() },
    resolve: (_root, args, ctx) => reassignments.listReassignments(ctx.prisma, ctx.actor, { riskDefinitionId: args.riskDefinitionId }),
  }),
  reassignmentOpenWork: t.field({
    type: [OpenWorkRef],
    description: "Work to reassign: for administrators each deactivated reviewer's criteria and pending items; for a reviewer their own.",
    authScopes: { signedIn: true },
    resolve: (_root, _args, ctx) => reassignments.openWork(ctx.prisma, ctx.actor),
  }),
}));

const ReassignWorkInput = builder.inputType('ReassignWorkInput', {
  fields: (t) => ({
    criteriaId: t.globalID({ for: AssignmentCriteriaNode, description: 'The assignment criterion to move.' }),
    riskDefinitionIds: t.stringList({ description: 'Refused: work is assigned by criteria; reassign the criterion.' }),
    toReviewerId: t.globalID({ required: true, for: UserNode }),
    note: t.string(),
  }),
});

builder.mutationFields((t) => ({
  reassignWork: t.field({
    type: ReassignmentRef,
    description: 'Moves an assignment criterion to another reviewer (administrators, or a reviewer for their own); the new reviewer is notified.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: ReassignWorkInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      reassignments.reassign(ctx.deps, ctx.actor, {
        criteriaId: input.criteriaId?.id ?? null,
        riskDefinitionIds: input.riskDefinitionIds ?? null,
        toReviewerId: input.toReviewerId.id,
        note: input.note ?? null,
      }),
  }),
}));
