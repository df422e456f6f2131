import { encodeGlobalID } from '@pothos/plugin-relay';
// Assignment criteria: node, list, value options, create and delete.
import { builder, runnable } from './builder.js';
import { enumOf } from './enums.js';
import type { Prisma } from '../generated/prisma/client.js';
import { listOrder } from './ordering.js';
import { UserNode } from './users.js';
import { ValidationError } from '../core/errors.js';
import * as assignments from '../services/assignments.js';
import { CRITERIA_TYPES } from '../services/holds.js';

export const CriteriaTypeEnum = enumOf('CriteriaType', { values: CRITERIA_TYPES });

export const AssignmentCriteriaNode = builder.prismaNode('AssignmentCriteria', {
  id: { field: 'id' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: { admin: true },
  fields: (t) => ({
    name: t.exposeString('name'),
    criteriaType: t.expose('criteriaType', { type: CriteriaTypeEnum }),
    criteriaValue: t.exposeString('criteriaValue'),
    assignedAt: t.expose('assignedAt', { type: 'DateTime' }),
    reviewer: t.relation('reviewer'),
    matchingRows: t.int({
      description: 'How many loaded risk rows the criterion matches.',
      select: { criteriaType: true, criteriaValue: true },
      resolve: (c, _args, ctx) => assignments.criterionMatchCount(ctx.prisma, c.criteriaType, c.criteriaValue),
    }),
  }),
});

const ValueOption = builder.objectRef<assignments.ValueOption>('AssignmentValueOption').implement({
  fields: (t) => ({ value: t.exposeString('value'), label: t.exposeString('label') }),
});

const criteriaOrder = listOrder(
  'AssignmentCriteria',
  'assignments',
  {
    ASSIGNED_AT: { columns: ['assignedAt'], description: 'When the assignment was made.' },
    CRITERIA_TYPE: { columns: ['criteriaType', 'criteriaValue'], description: 'The criteria type, then its value.' },
    CRITERIA_VALUE: { columns: ['criteriaValue'], description: 'The value assigned.' },
  },
  { field: 'ASSIGNED_AT', direction: 'desc' },
);

builder.queryFields((t) => ({
  assignmentCriteria: t.prismaConnection({
    type: 'AssignmentCriteria',
    cursor: 'id',
    authScopes: { admin: true },
    args: criteriaOrder.arg(),
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.assignmentCriteria.findMany({ ...runnable(query), orderBy: criteriaOrder.orderBy<Prisma.AssignmentCriteriaOrderByWithRelationInput>(args.orderBy) }),
    totalCount: (_root, _args, ctx) => ctx.prisma.assignmentCriteria.count(),
  }),
  assignmentValues: t.field({
    type: [ValueOption],
    description: 'The values a criteria type can take in the loaded data; values the reviewer already has are left out. A picker list bounded by `limit` (at most 1,000), not a connection.',
    authScopes: { admin: true },
    args: {
      criteriaType: t.arg({ type: CriteriaTypeEnum, required: true }),
      reviewerId: t.arg.globalID({ for: UserNode }),
      search: t.arg.string({ description: 'Only values (or labels) containing this text, for a type-ahead picker.' }),
      limit: t.arg.int({ description: 'At most this many values (1 to 1,000; 1,000 when left out).' }),
    },
    resolve: (_root, args, ctx) => {
      const limit = args.limit ?? 1000;
      if (limit < 1 || limit > 1000) throw new ValidationError('limit must be between 1 and 1000', 'limit');
      return assignments.criteriaValues(ctx.prisma, args.criteriaType, args.reviewerId?.id, limit, args.search);
    },
  }),
}));

const CreateAssignmentInput = builder.inputType('CreateAssignmentInput', {
  fields: (t) => ({
    name: t.string(),
    reviewerId: t.globalID({ required: true, for: UserNode }),
    criteriaType: t.field({ type: CriteriaTypeEnum, required: true }),
    criteriaValue: t.string({ required: true }),
  }),
});

builder.mutationFields((t) => ({
  createAssignment: t.prismaField({
    type: 'AssignmentCriteria',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: CreateAssignmentInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const c = await assignments.createCriteria(ctx.deps, ctx.actor, { ...input, reviewerId: input.reviewerId.id });
      return ctx.prisma.assignmentCriteria.findUniqueOrThrow({ ...runnable(query), where: { id: c.id } });
    },
  }),
  deleteAssignment: t.field({
    type: 'ID',
    description: 'Deletes an assignment; returns its id.',
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: AssignmentCriteriaNode }) },
    resolve: async (_root, { id }, ctx) => {
      await assignments.deleteCriteria(ctx.deps, ctx.actor, id.id);
      return encodeGlobalID('AssignmentCriteria', id.id);
    },
  }),
}));
