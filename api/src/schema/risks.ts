// Risk rows in GraphQL: the RiskRow node, the queue (page-based, as the
// SPEC's page buttons need), assigned risks and their summary, the systems.
import { builder } from './builder.js';
import * as risks from '../services/risks.js';
import { criteriaSetsFor, CRITERIA_COLUMN, type CriteriaSets } from '../services/assignments.js';
import type { Context } from '../context.js';
import { access } from '../context.js';
import type { RiskRow } from '../generated/prisma/client.js';

export const RiskLevelEnum = builder.enumType('RiskLevel', { values: risks.RISK_LEVELS });

const criteriaCache = new WeakMap<Context, Promise<CriteriaSets>>();
/** Whether the viewer may see a row: administrators all, reviewers their assigned rows. */
async function canSeeRow(ctx: Context, row: RiskRow): Promise<boolean> {
  if (access.admin(ctx.user)) return true;
  if (!access.reviewer(ctx.user)) return false;
  let p = criteriaCache.get(ctx);
  if (!p) criteriaCache.set(ctx, (p = criteriaSetsFor(ctx.prisma, ctx.user!.id)));
  const sets = await p;
  const value: Record<string, string> = {
    access_risk_id: row.accessRiskId,
    user_id: row.userId,
    user_group: row.userGroup,
    system: row.system,
    role_profile: row.roleProfile,
  };
  return (Object.keys(sets) as (keyof CriteriaSets)[]).some((t) => sets[t].includes(value[CRITERIA_COLUMN[t]]!));
}

export const RiskRowNode = builder.prismaNode('RiskRow', {
  id: { field: 'id' },
  authScopes: (row, ctx) => canSeeRow(ctx, row as RiskRow),
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
    isHighRiskRule: t.boolean({ resolve: (r) => /^0[23]\d\d$/.test(r.ruleId) }),
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
    executionCount: t.exposeInt('executionCount', { nullable: true }),
    lastExecutedOn: t.expose('lastExecutedOn', { type: 'DateTime', nullable: true }),
    aiSuggestedCategory: t.exposeString('aiSuggestedCategory', { nullable: true }),
    aiCategoryConfidence: t.exposeFloat('aiCategoryConfidence', { nullable: true }),
    aiCategoryAccepted: t.exposeBoolean('aiCategoryAccepted', { nullable: true }),
  }),
});

const RiskFilterInput = builder.inputType('RiskFilterInput', {
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
    decision: t.string({ description: 'pending, retain, remove or retain_mitigated' }),
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

builder.queryFields((t) => {
  const riskPageArgs = () => ({
    filter: t.arg({ type: RiskFilterInput }),
    page: t.arg.int({ description: 'The page number (from 1); with after/before, the number of the page they lead to.' }),
    limit: t.arg.int(),
    after: t.arg.string({ description: 'The endCursor of the current page: the page after it.' }),
    before: t.arg.string({ description: 'The startCursor of the current page: the page before it.' }),
  });

  return {
    riskQueue: t.field({
      type: RiskPage,
      description: 'Every risk row (administrators), filtered, searched and paged.',
      authScopes: { admin: true },
      args: riskPageArgs(),
      resolve: async (_root, args, ctx) => {
        const r = await risks.listRisks(ctx.prisma, ctx.user!, args.filter ?? {}, args);
        return { rows: r.risks, total: r.total, page: r.page, limit: r.limit };
      },
    }),
    assignedRisks: t.field({
      type: RiskPage,
      description: "The viewer's assigned risk rows (reviewers), filtered, searched and paged.",
      authScopes: { reviewer: true },
      args: riskPageArgs(),
      resolve: async (_root, args, ctx) => {
        const r = await risks.listRisks(ctx.prisma, ctx.user!, args.filter ?? {}, args);
        return { rows: r.risks, total: r.total, page: r.page, limit: r.limit };
      },
    }),
    assignedSummary: t.field({
      type: AssignedSummary,
      authScopes: { reviewer: true },
      resolve: (_root, _args, ctx) => risks.assignedSummary(ctx.prisma, ctx.user!),
    }),
    riskSystems: t.stringList({
      description: 'The systems in the rows the viewer may see.',
      authScopes: { signedIn: true },
      resolve: (_root, _args, ctx) => risks.listSystems(ctx.prisma, ctx.user!),
    }),
  };
});
