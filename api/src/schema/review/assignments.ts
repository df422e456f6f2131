import { encodeGlobalID } from '@pothos/plugin-relay';
// Assignment criteria: node, list, value options, create and delete.
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { listOrder } from '../ordering.js';
import { UserNode } from '../identity/users.js';
import { ValidationError } from '../../core/errors.js';
import * as assignments from '../../services/review/assignments.js';
import { CRITERIA_TYPES } from '../../services/holds.js';

export const CriteriaTypeEnum = enumOf('CriteriaType', {
  description: 'The field of a risk row an assignment matches on.',
  values: CRITERIA_TYPES,
  descriptions: {
    user_id: 'The user id: all of one user’s rows.',
    user_group: 'The user group (department) of the reviewed user: every row of the users in that group.',
    risk_id: 'The access risk id: every user’s rows of that one segregation-of-duties risk.',
    system: 'The source system (e.g. SAP ERP): every row granted in that system.',
    role_profile: 'The role profile (single role): every row that role grants, whoever holds it.',
  },
});

export const AssignmentCriteriaNode = builder.prismaNode('AssignmentCriteria', {
  description: 'A rule that assigns risk rows to a reviewer: every row whose field has the value.',
  id: { field: 'id', description: 'The assignment’s global id.' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: { admin: true },
  fields: (t) => ({
    name: t.exposeString('name', { description: 'What the assignment is called (defaults to its type and value).' }),
    criteriaType: t.expose('criteriaType', { type: CriteriaTypeEnum, description: 'Which field of the rows is matched.' }),
    criteriaValue: t.exposeString('criteriaValue', { description: 'The value it must have.' }),
    assignedAt: t.expose('assignedAt', { type: 'DateTime', description: 'When the assignment was made.' }),
    reviewer: t.relation('reviewer', { description: 'The reviewer the rows go to.' }),
    matchingRows: t.int({
      description: 'How many loaded risk rows the criterion matches.',
      select: { criteriaType: true, criteriaValue: true },
      resolve: (c, _args, ctx) => assignments.criterionMatchCount(ctx.caller!, c.criteriaType, c.criteriaValue),
    }),
  }),
});

const ValueOption = builder.objectRef<assignments.ValueOption>('AssignmentValueOption').implement({
  description: 'A value to pick for an assignment.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The value to send as criteriaValue.' }),
    label: t.exposeString('label', { description: 'How to show it (e.g. with the user’s name).' }),
  }),
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
    description: 'Every assignment, newest first (administrators).',
    cursor: 'id',
    authScopes: { admin: true },
    args: criteriaOrder.arg(),
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.assignmentCriteria.findMany({
        ...runnable(query),
        orderBy: criteriaOrder.orderBy<Prisma.AssignmentCriteriaOrderByWithRelationInput>(args.orderBy),
      }),
    totalCount: (_root, _args, ctx) => ctx.prisma.assignmentCriteria.count(),
  }),
  assignmentValues: t.field({
    type: [ValueOption],
    description:
      'The values a criteria type can take in the loaded data; values the reviewer already has are left out. A picker list bounded by `limit` (at most 1,000), not a connection.',
    authScopes: { admin: true },
    args: {
      criteriaType: t.arg({ type: CriteriaTypeEnum, required: true, description: 'Which field’s values.' }),
      reviewerId: t.arg.globalID({ for: UserNode, description: 'Leave out the values this reviewer (global id) already has.' }),
      search: t.arg.string({ description: 'Only values (or labels) containing this text, for a type-ahead picker.' }),
      limit: t.arg.int({ description: 'At most this many values (1 to 1,000; 1,000 when left out).' }),
    },
    resolve: (_root, args, ctx) => {
      const limit = args.limit ?? 1000;
      if (limit < 1 || limit > 1000) throw new ValidationError('limit must be between 1 and 1000', 'limit');
      return assignments.criteriaValues(ctx.caller!, args.criteriaType, args.reviewerId?.id, limit, args.search);
    },
  }),
}));

const CreateAssignmentInput = builder.inputType('CreateAssignmentInput', {
  description: 'A new assignment of rows to a reviewer.',
  fields: (t) => ({
    name: t.string({ description: 'What to call it (optional).' }),
    reviewerId: t.globalID({ required: true, for: UserNode, description: 'The reviewer’s global id.' }),
    criteriaType: t.field({ type: CriteriaTypeEnum, required: true, description: 'Which field to match.' }),
    criteriaValue: t.string({ required: true, description: 'The value it must have.' }),
  }),
});

builder.mutationFields((t) => ({
  createAssignment: t.prismaField({
    type: 'AssignmentCriteria',
    description: 'Assigns the matching rows to a reviewer (administrators).',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      input: t.arg({
        type: CreateAssignmentInput,
        required: true,
        description: 'The reviewer and the one field value (criteria type and value) whose rows they are to review.',
      }),
    },
    resolve: async (query, _root, { input }, ctx) => {
      const c = await assignments.createCriteria(ctx.caller!, { ...input, reviewerId: input.reviewerId.id });
      return ctx.prisma.assignmentCriteria.findUniqueOrThrow({ ...runnable(query), where: { id: c.id } });
    },
  }),
  deleteAssignment: t.field({
    type: 'ID',
    description: 'Deletes an assignment; returns its id.',
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: AssignmentCriteriaNode, description: 'The assignment’s global id.' }) },
    resolve: async (_root, { id }, ctx) => {
      await assignments.deleteCriteria(ctx.caller!, id.id);
      return encodeGlobalID('AssignmentCriteria', id.id);
    },
  }),
}));
