// Risk rows in GraphQL: the RiskRow node, the queue (page-based, as the
// SPEC's page buttons need), assigned risks and their summary, the systems.
import { builder } from './builder.js';
import type { Context } from '../context.js';
import * as risks from '../services/risks.js';
import { DECISION_STATES, RISK_LEVELS, isHighRiskRule, orList } from '../services/risk-rules.js';
import type { RiskRow } from '../generated/prisma/client.js';
import { RECOMMENDATIONS, RISK_SORTS } from '../services/recommendations.js';

export const RiskLevelEnum = builder.enumType('RiskLevel', { values: RISK_LEVELS });
export const RecommendationValueEnum = builder.enumType('RecommendationValue', { values: RECOMMENDATIONS });
const RiskSortEnum = builder.enumType('RiskSort', { values: RISK_SORTS });

/**
 * What a read by id gives for a row the viewer may not see or that does not
 * exist: the same answer for both (the type's authScopes refuse it), so an id
 * tells nothing about rows outside the viewer's scope.
 */
const NOT_VISIBLE = Symbol('not visible');
const notVisible = () => ({ [NOT_VISIBLE]: true }) as unknown as RiskRow;

const RiskRowObject = builder.prismaObject('RiskRow', {
  authScopes: (row) => !(NOT_VISIBLE in row),
  fields: (t) => ({
    userId: t.exposeString('userId'),
    userName: t.exposeString('userName'),
    userGroup: t.exposeString('userGroup'),
    accessRiskId: t.exposeString('accessRiskId'),
    riskDescription: t.exposeString('riskDescription'),
    riskLevel: t.expose('riskLevel', { type: RiskLevelEnum }),
    riskLevelLabel: t.exposeString('riskLevelLabel'),
    ruleId: t.exposeString('ruleId'),
    /** Rule ids 02NN and 03NN are high-risk rules. */
    isHighRiskRule: t.boolean({ resolve: (r) => isHighRiskRule(r.ruleId) }),
    system: t.exposeString('system'),
    roleProfile: t.exposeString('roleProfile'),
    roleProfileDescription: t.exposeString('roleProfileDescription'),
    compositeBusinessRole: t.exposeString('compositeBusinessRole'),
    compositeRoleDescription: t.exposeString('compositeRoleDescription'),
    businessProcess: t.exposeString('businessProcess'),
    businessProcessDescription: t.exposeString('businessProcessDescription'),
    function: t.exposeString('function'),
    functionDescription: t.exposeString('functionDescription'),
    action: t.exposeString('action'),
    actionDescription: t.exposeString('actionDescription'),
    resource: t.exposeString('resource'),
    resourceDescription: t.exposeString('resourceDescription'),
    resourceExtn: t.exposeString('resourceExtn'),
    resourceExtnDesc: t.exposeString('resourceExtnDesc'),
    valueFrom: t.exposeString('valueFrom'),
    valueTo: t.exposeString('valueTo'),
    mitigationControl: t.exposeString('mitigationControl'),
    mitigationControlDescription: t.exposeString('mitigationControlDescription'),
    executionCount: t.exposeFloat('executionCount', { nullable: true }),
    lastExecutedOn: t.expose('lastExecutedOn', { type: 'DateTime', nullable: true }),
    aiSuggestedCategory: t.exposeString('aiSuggestedCategory', { nullable: true }),
    aiCategoryConfidence: t.exposeFloat('aiCategoryConfidence', { nullable: true }),
    aiCategoryAccepted: t.exposeBoolean('aiCategoryAccepted', { nullable: true }),
  }),
});

/**
 * RiskRow is a Node read by id through the one visibility rule
 * (services/risks.ts visibleRows, batched per request by the viewer's loader):
 * live rows in the viewer's scope only.
 */
export const RiskRowNode = builder.nodeRef(RiskRowObject, {
  id: { resolve: (r: RiskRow) => String(r.id), parse: (id: string) => BigInt(id) },
  loadMany: async (ids, ctx) => {
    const rows: (RiskRow | Error | null)[] = await ctx.viewer!.rows.loadMany(ids as readonly unknown[] as bigint[]);
    return rows.map((r) => (r instanceof Error ? Promise.reject(r) : (r ?? notVisible())));
  },
});

export const RiskFilterInput = builder.inputType('RiskFilterInput', {
  fields: (t) => ({
    search: t.string(),
    riskLevel: t.field({ type: RiskLevelEnum }),
    system: t.string(),
    userGroup: t.string(),
    roleProfile: t.string(),
    compositeRole: t.string(),
    ruleId: t.string(),
    accessRiskId: t.string(),
    userId: t.string(),
    decision: t.string({ description: orList(DECISION_STATES) }),
    recommendation: t.field({ type: RecommendationValueEnum }),
  }),
});

const RiskPage = builder.objectRef<{ rows: RiskRow[]; total: number; page: number; limit: number }>('RiskPage').implement({
  description:
    'One page of risk rows; total counts every row matching the filter. To move to the next or previous page, ' +
    'pass endCursor as `after` or startCursor as `before` with the new page number: that page is then found by ' +
    'seeking, which stays fast however deep it is.',
  fields: (t) => ({
    rows: t.field({ type: [RiskRowNode], resolve: (p) => p.rows }),
    total: t.exposeInt('total'),
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    startCursor: t.string({ nullable: true, resolve: (p) => (p.rows.length ? String(p.rows[0]!.id) : null) }),
    endCursor: t.string({ nullable: true, resolve: (p) => (p.rows.length ? String(p.rows[p.rows.length - 1]!.id) : null) }),
  }),
});


const AssignedSummary = builder
  .objectRef<{ totalAssigned: number; highRisk: number; pendingReview: number; reviewed: number }>('AssignedSummary')
  .implement({
    fields: (t) => ({
      totalAssigned: t.exposeInt('totalAssigned'),
      highRisk: t.exposeInt('highRisk'),
      pendingReview: t.exposeInt('pendingReview'),
      reviewed: t.exposeInt('reviewed'),
    }),
  });

/** The queue and assigned risks are one list: which rows is the viewer's scope. */
async function riskPage(ctx: Context, args: { filter?: risks.RiskFilter | null } & risks.RiskPage) {
  const r = await risks.listRisks(ctx.prisma, ctx.viewer!, args.filter ?? {}, args);
  return { rows: r.risks, total: r.total, page: r.page, limit: r.limit };
}

builder.queryFields((t) => {
  const riskPageArgs = () => ({
    filter: t.arg({ type: RiskFilterInput }),
    page: t.arg.int({ description: 'The page number (from 1); with after/before, the number of the page they lead to.' }),
    limit: t.arg.int(),
    after: t.arg.string({ description: 'The endCursor of the current page: the page after it.' }),
    before: t.arg.string({ description: 'The startCursor of the current page: the page before it.' }),
    sort: t.arg({ type: RiskSortEnum }),
  });

  return {
    riskQueue: t.field({
      type: RiskPage,
      description: 'Every risk row (administrators), filtered, searched and paged.',
      authScopes: { admin: true },
      args: riskPageArgs(),
      resolve: (_root, args, ctx) => riskPage(ctx, args),
    }),
    assignedRisks: t.field({
      type: RiskPage,
      description: "The viewer's assigned risk rows (reviewers), filtered, searched and paged.",
      authScopes: { reviewer: true },
      args: riskPageArgs(),
      resolve: (_root, args, ctx) => riskPage(ctx, args),
    }),
    assignedSummary: t.field({
      type: AssignedSummary,
      authScopes: { reviewer: true },
      resolve: (_root, _args, ctx) => risks.assignedSummary(ctx.prisma, ctx.viewer!),
    }),
    riskSystems: t.stringList({
      description: 'The systems in the rows the viewer may see.',
      authScopes: { signedIn: true },
      resolve: (_root, _args, ctx) => risks.listSystems(ctx.prisma, ctx.viewer!),
    }),
  };
});
