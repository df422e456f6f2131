// Risk rows in GraphQL: the RiskRow node, the queue and assigned risks as
// Relay connections (with page numbers for the SPEC's page buttons), the
// assigned summary, the systems.
import { decodeCursor, encodeCursor } from '../cursors.js';
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import { ValidationError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import * as risks from '../../services/review/risks.js';
import { DECISION_STATES, RISK_LEVELS, isHighRiskRule } from '../../services/risk-rules.js';
import type { RiskRow } from '../../generated/prisma/client.js';
import { RECOMMENDATIONS, RISK_SORTS } from '../../services/review/recommendations.js';

export const RiskLevelEnum = enumOf('RiskLevel', {
  description: 'How severe an access risk is.',
  values: RISK_LEVELS,
  descriptions: {
    high: 'High risk: a conflict the rule set rates most severe (shown as RISK, counted in high-risk figures).',
    medium: 'Medium risk (counted as high where the SPEC says high risk).',
    low: 'Low risk (NO RISK in the composite-role view).',
  },
});
export const RecommendationValueEnum = enumOf('RecommendationValue', {
  description: 'What the facts beside a risk row suggest.',
  values: RECOMMENDATIONS,
  descriptions: {
    retain: 'Retain: the access is used (or was retained last period) and nothing argues against it.',
    remove: 'Remove: the export shows it unused (0 executions, or none for over 180 days).',
    review: 'Review: the facts disagree or are missing (another reviewer removed it, removed last period, a high-risk rule without usage).',
  },
});
const RiskSortEnum = enumOf('RiskSort', {
  description: 'The order of a risk list.',
  values: RISK_SORTS,
  descriptions: {
    row: 'By row (the order of the export); pages may be read by cursor.',
    recommendation: 'By recommendation: remove, review, retain, then by row; pages go by number.',
  },
});
const DecisionStateEnum = enumOf('DecisionState', {
  description: 'Where a risk row stands for the caller in the active period: no decision yet, or the decision made.',
  values: {
    pending: { description: 'No decision yet.' },
    retain: { description: 'Retained: the access stays.' },
    remove: { description: 'To be removed.' },
    retain_mitigated: { description: 'Retained under a mitigating control.' },
  } satisfies Record<(typeof DECISION_STATES)[number], { description: string }>,
});

/**
 * What a read by id gives for a row the viewer may not see or that does not
 * exist: the same answer for both (the type's authScopes refuse it), so an id
 * tells nothing about rows outside the viewer's scope.
 */
const NOT_VISIBLE = Symbol('not visible');
const notVisible = () => ({ [NOT_VISIBLE]: true }) as unknown as RiskRow;

const RiskRowObject = builder.prismaObject('RiskRow', {
  description: 'One line of the loaded risk data: a user holds a role profile that grants a function in conflict with another, under an access risk.',
  authScopes: (row) => !(NOT_VISIBLE in row),
  fields: (t) => ({
    userId: t.exposeString('userId', { description: 'The user’s id in the source system (not an app user).' }),
    userName: t.exposeString('userName', { description: 'The user’s name in the source system.' }),
    userGroup: t.exposeString('userGroup', { description: 'The user’s group or department (may be empty).' }),
    accessRiskId: t.exposeString('accessRiskId', { description: 'The access risk (segregation-of-duties conflict) id, e.g. P001.' }),
    riskDescription: t.exposeString('riskDescription', { description: 'What the access risk is.' }),
    riskLevel: t.expose('riskLevel', { type: RiskLevelEnum, description: 'How severe the risk is.' }),
    riskLevelLabel: t.exposeString('riskLevelLabel', { description: 'The level as the source file wrote it, for display.' }),
    ruleId: t.exposeString('ruleId', { description: 'The rule of the risk that this row matched; rules 02NN and 03NN are high-risk.' }),
    /** Rule ids 02NN and 03NN are high-risk rules. */
    isHighRiskRule: t.boolean({ description: 'The rule is a high-risk one (02NN or 03NN).', resolve: (r) => isHighRiskRule(r.ruleId) }),
    system: t.exposeString('system', { description: 'The system the access is in, e.g. SAP ERP.' }),
    roleProfile: t.exposeString('roleProfile', { description: 'The role profile that grants the access.' }),
    roleProfileDescription: t.exposeString('roleProfileDescription', { description: 'What that role profile is.' }),
    compositeBusinessRole: t.exposeString('compositeBusinessRole', {
      description: 'The composite (business) role that grants the role profile (empty: assigned directly).',
    }),
    compositeRoleDescription: t.exposeString('compositeRoleDescription', { description: 'What that composite role is.' }),
    businessProcess: t.exposeString('businessProcess', { description: 'The business process of the function.' }),
    businessProcessDescription: t.exposeString('businessProcessDescription', { description: 'What that business process is.' }),
    function: t.exposeString('function', { description: 'The business function of the rule the role grants.' }),
    functionDescription: t.exposeString('functionDescription', { description: 'What that function is.' }),
    action: t.exposeString('action', { description: 'The action (e.g. transaction code) granted.' }),
    actionDescription: t.exposeString('actionDescription', { description: 'What that action is.' }),
    resource: t.exposeString('resource', { description: 'The resource (authorisation object) granted.' }),
    resourceDescription: t.exposeString('resourceDescription', { description: 'What that resource is.' }),
    resourceExtn: t.exposeString('resourceExtn', { description: 'The resource extension (authorisation field).' }),
    resourceExtnDesc: t.exposeString('resourceExtnDesc', { description: 'What that resource extension is.' }),
    valueFrom: t.exposeString('valueFrom', { description: 'The lowest value of the authorisation field granted.' }),
    valueTo: t.exposeString('valueTo', { description: 'The highest value of the authorisation field granted.' }),
    mitigationControl: t.exposeString('mitigationControl', { description: 'The control that mitigates the risk, if the source names one.' }),
    mitigationControlDescription: t.exposeString('mitigationControlDescription', { description: 'What that control is.' }),
    executionCount: t.exposeFloat('executionCount', { nullable: true, description: 'How many times the user executed the action (null: unknown).' }),
    lastExecutedOn: t.expose('lastExecutedOn', {
      type: 'DateTime',
      nullable: true,
      description: 'When the user last executed the action (null: never or unknown).',
    }),
    aiSuggestedCategory: t.exposeString('aiSuggestedCategory', {
      nullable: true,
      description: 'The category the AI suggests for the access risk (null: none yet).',
    }),
    aiCategoryConfidence: t.exposeFloat('aiCategoryConfidence', { nullable: true, description: 'How sure the AI is of it, from 0 to 1.' }),
    aiCategoryAccepted: t.exposeBoolean('aiCategoryAccepted', {
      nullable: true,
      description: 'An administrator accepted (true) or rejected (false) it; null: not decided.',
    }),
  }),
});

/**
 * RiskRow is a Node read by id through the one visibility rule
 * (services/review/risks.ts visibleRows, batched per request by the viewer's loader):
 * live rows in the viewer's scope only.
 */
export const RiskRowNode = builder.nodeRef(RiskRowObject, {
  id: { description: 'The row’s global id.', resolve: (r: RiskRow) => String(r.id), parse: (id: string) => BigInt(id) },
  loadMany: async (ids, ctx) => {
    const rows: (RiskRow | Error | null)[] = await ctx.caller!.viewer.rows.loadMany(ids as readonly unknown[] as bigint[]);
    return rows.map((r) => (r instanceof Error ? Promise.reject(r) : (r ?? notVisible())));
  },
});

export const RiskFilterInput = builder.inputType('RiskFilterInput', {
  description: 'Narrows a risk list; every field given must match (exact values, or `search` for any part).',
  fields: (t) => ({
    search: t.string({ description: 'Part of the user id or name, the role or the risk id (case-insensitive).' }),
    riskLevel: t.field({ type: RiskLevelEnum, description: 'Only rows of this risk level.' }),
    system: t.string({ description: 'The system, as `riskSystems` lists it.' }),
    userGroup: t.string({ description: 'Only rows of users in this user group (department, exact).' }),
    roleProfile: t.string({ description: 'Only rows granted by this role profile (single role, exact).' }),
    compositeRole: t.string({ description: 'Only rows granted through this composite business role (exact).' }),
    ruleId: t.string({ description: 'The rule id of the rule set that flagged the row (exact, e.g. 0301).' }),
    accessRiskId: t.string({ description: 'Only rows of this access risk (the segregation-of-duties risk id, exact).' }),
    userId: t.string({ description: 'The user id in the source system.' }),
    decision: t.field({ type: DecisionStateEnum, description: 'Only rows in this state (the caller’s own decision in the active period).' }),
    recommendation: t.field({ type: RecommendationValueEnum, description: 'The recommendation of help deciding: retain, remove or review.' }),
  }),
});

/**
 * A cursor of the risk lists: the row's place in the ordered list (for the page
 * number, pageInfo and the next page's place) and its id (the seek key), opaque
 * to callers. A row keeps its cursor whichever way its page was read.
 */
const CURSOR = /^RiskRowCursor:(\d{1,15}):(\d{1,18})$/;
const toCursor = (position: number, id: bigint | number) => encodeCursor(`RiskRowCursor:${position}:${id}`);
function fromCursor(cursor: string, name: 'after' | 'before'): { position: number; id: string } {
  const m = decodeCursor(cursor, CURSOR, name);
  return { position: Number(m[1]), id: m[2]! };
}
/** Above every row id: `before` it reads the last rows of the list. */
const END = '999999999999999999';

type RiskConnectionShape = {
  edges: { cursor: string; node: RiskRow }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
  pageNumber: number;
  pageCount: number;
};

export const RiskRowConnection = builder.connectionObject(
  {
    type: RiskRowNode,
    name: 'RiskRowConnection',
    description:
      'One page of risk rows (the risk queue or assigned risks) with the number of rows matching the filter. ' +
      'Next and previous pages: `after: pageInfo.endCursor` or `before: pageInfo.startCursor` (the server seeks, ' +
      'fast however deep); any page by number: `page` with `first` as the page size.',
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many rows match the filter in all (cached counts).',
        resolve: (c) => (c as unknown as RiskConnectionShape).totalCount,
      }),
      pageNumber: t.int({
        description: 'The number of this page, from 1, with the page size asked for.',
        resolve: (c) => (c as unknown as RiskConnectionShape).pageNumber,
      }),
      pageCount: t.int({
        description: 'How many pages of this size the rows matching the filter fill.',
        resolve: (c) => (c as unknown as RiskConnectionShape).pageCount,
      }),
    }),
  },
  { name: 'RiskRowEdge', description: 'One risk row of a page, with its cursor.' },
);

/** The queue and assigned risks are one list: which rows is the viewer's scope. */
async function riskConnection(
  ctx: Context,
  args: {
    filter?: risks.RiskFilter | null;
    page?: number | null;
    first?: number | null;
    last?: number | null;
    after?: string | null;
    before?: string | null;
    orderBy?: string | null;
    sort?: string | null;
  },
): Promise<RiskConnectionShape> {
  if (args.orderBy != null && args.sort != null && args.orderBy !== args.sort) {
    throw new ValidationError("'orderBy' and its older name 'sort' disagree: give one", 'orderBy');
  }
  const order = args.orderBy ?? args.sort;
  for (const name of ['first', 'last'] as const) {
    const v = args[name];
    if (v != null && v < 1) throw new ValidationError(`'${name}' must be at least 1`, name);
  }
  // Sorted by recommendation, pages go by number: the cursors seek by row id.
  const byRow = order == null || order === 'row';
  const after = byRow && args.after ? fromCursor(args.after, 'after') : null;
  const before = byRow && !after && args.before ? fromCursor(args.before, 'before') : null;
  // `last` alone: the last rows of the list (read backwards from past the end).
  const fromEnd = byRow && !after && !before && args.last != null && args.page == null;
  const r = await risks.listRisks(ctx.caller!, args.filter ?? {}, {
    page: args.page,
    limit: args.first ?? args.last,
    after: after?.id,
    before: before?.id ?? (fromEnd ? END : null),
    sort: order,
  });
  const n = r.risks.length;
  const start = after ? after.position + 1 : before ? Math.max(0, before.position - n) : fromEnd ? Math.max(0, r.total - n) : (r.page - 1) * r.limit;
  const edges = r.risks.map((node, i) => ({ node: node as RiskRow, cursor: toCursor(start + i, node.id) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: start + n < r.total,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[n - 1]?.cursor ?? null,
    },
    totalCount: r.total,
    pageNumber: Math.floor(start / r.limit) + 1,
    pageCount: Math.ceil(r.total / r.limit),
  };
}

const AssignedSummary = builder.objectRef<{ totalAssigned: number; highRisk: number; pendingReview: number; reviewed: number }>('AssignedSummary').implement({
  description: 'The viewer’s assigned rows, counted (reviewers).',
  fields: (t) => ({
    totalAssigned: t.exposeInt('totalAssigned', { description: 'Rows assigned to the viewer.' }),
    highRisk: t.exposeInt('highRisk', { description: 'Of those, rows of level high or medium.' }),
    pendingReview: t.exposeInt('pendingReview', { description: 'Of those, rows still without the viewer’s decision.' }),
    reviewed: t.exposeInt('reviewed', { description: 'Of those, rows the viewer has decided in the active period.' }),
  }),
});

builder.queryFields((t) => {
  const riskListArgs = () => ({
    filter: t.arg({ type: RiskFilterInput, description: 'Which rows.' }),
    page: t.arg.int({
      description:
        'A page by number (from 1), with `first` as the page size (25 by default, at most 500); not with `after`/`before`, whose cursor says where the page is.',
    }),
    orderBy: t.arg({
      type: RiskSortEnum,
      description:
        'The order of the rows: by row (default) or by recommendation (remove, review, retain; then by row). Sorted by recommendation, pages go by `page` number; `after`/`before` are not used.',
    }),
    sort: t.arg({
      type: RiskSortEnum,
      deprecationReason: 'Use `orderBy` (the name every connection of the graph uses).',
      description: 'The older name of `orderBy`.',
    }),
  });

  return {
    riskQueue: t.connection(
      {
        type: RiskRowNode,
        description: 'Every risk row (administrators), filtered, searched and paged, in upload order.',
        authScopes: { admin: true },
        args: riskListArgs(),
        resolve: (_root, args, ctx) => riskConnection(ctx, args),
      },
      RiskRowConnection,
    ),
    assignedRisks: t.connection(
      {
        type: RiskRowNode,
        description: "The viewer's assigned risk rows (reviewers), filtered, searched and paged, in upload order.",
        authScopes: { reviewer: true },
        args: riskListArgs(),
        resolve: (_root, args, ctx) => riskConnection(ctx, args),
      },
      RiskRowConnection,
    ),
    assignedSummary: t.field({
      type: AssignedSummary,
      description: 'The viewer’s assigned rows, counted (reviewers).',
      authScopes: { reviewer: true },
      resolve: (_root, _args, ctx) => risks.assignedSummary(ctx.caller!),
    }),
    riskSystems: t.stringList({
      description: `The systems in the rows the viewer may see, A to Z: a picker list bounded at ${risks.MAX_SYSTEMS.toLocaleString('en-US')}, not a connection.`,
      authScopes: { signedIn: true },
      resolve: (_root, _args, ctx) => risks.listSystems(ctx.caller!),
    }),
  };
});
