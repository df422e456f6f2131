// The composite-role risk view in GraphQL: users (a connection), their risk
// groups and the composite roles under each (connections, keyset-paged), each
// a Node so that a client can load a level lazily by id; the Authorization
// Details of a role (capped, with the total); and decisions per user and
// composite role. Every level is computed by services/composite-view/ under
// the viewer's visibility rule: a reviewer asking for a user, a group or a role
// outside their assignments gets nothing (null), not an error.
import { decodeBase64, encodeBase64 } from '@pothos/core';
import { encodeGlobalID, resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { lazyTotalCount } from '../cursors.js';
import { builder } from '../builder.js';
import { RiskLevelEnum } from './risks.js';
import { DecisionValueEnum } from './decisions.js';
import { ValidationError } from '../../core/errors.js';
import * as view from '../../services/composite-view/index.js';
import { isHighRiskRule } from '../../services/risk-rules.js';
import type { Context } from '../../context.js';

/**
 * The levels below a list are read for all its items at once: each parent's
 * lookup joins the request's loader for that lookup and page (services/viewer.ts).
 */
const json = (k: unknown) => JSON.stringify(k);
function groupsOf(ctx: Context, page: view.Keyset) {
  return ctx.caller!.viewer.loader(`composite.groups|${json(page)}`, (userIds: readonly string[]) => view.listRiskGroupsOf(ctx.caller!, userIds, page), String);
}
function rolesOf(ctx: Context, page: view.Keyset) {
  return ctx.caller!.viewer.loader(
    `composite.roles|${json(page)}`,
    (groups: readonly { userId: string; accessRiskId: string }[]) => view.listRolesOf(ctx.caller!, groups, page),
    (g) => json([g.userId, g.accessRiskId]),
  );
}
function groupCountsOf(ctx: Context) {
  return ctx.caller!.viewer.loader(
    'composite.groupCounts',
    (userIds: readonly string[]) => view.countRiskGroupsOf(ctx.caller!, userIds),
    (u) => u,
  );
}
function roleCountsOf(ctx: Context) {
  return ctx.caller!.viewer.loader(
    'composite.roleCounts',
    (groups: readonly { userId: string; accessRiskId: string }[]) => view.countRolesOf(ctx.caller!, groups),
    (g) => json([g.userId, g.accessRiskId]),
  );
}
const roleKeyOf = (r: view.RoleKey) => json([r.userId, r.accessRiskId, r.compositeBusinessRole]);
function detailsOf(ctx: Context, first: number) {
  return ctx.caller!.viewer.loader(
    `composite.details|${first}`,
    (roles: readonly view.RoleKey[]) => view.authorizationDetailsOf(ctx.caller!, roles, first),
    roleKeyOf,
  );
}
function detailCountsOf(ctx: Context) {
  return ctx.caller!.viewer.loader('composite.detailCounts', (roles: readonly view.RoleKey[]) => view.authorizationDetailCounts(ctx.caller!, roles), roleKeyOf);
}

// Cursors carry the grouping key of the edge's node (user id, risk id, role name).
const CURSOR_PREFIX = 'Key:';
const cursorOf = (key: string) => encodeBase64(CURSOR_PREFIX + key);
function keyOf(cursor: string | undefined): string | null {
  if (cursor == null) return null;
  let s: string;
  try {
    s = decodeBase64(cursor);
  } catch {
    throw new ValidationError('Invalid cursor', 'after');
  }
  if (!s.startsWith(CURSOR_PREFIX)) throw new ValidationError('Invalid cursor', 'after');
  return s.slice(CURSOR_PREFIX.length);
}
const keyset = (p: ResolveCursorConnectionArgs): view.Keyset => ({
  after: keyOf(p.after),
  before: keyOf(p.before),
  limit: p.limit,
  inverted: p.inverted,
});
const PAGE = { defaultSize: 50, maxSize: view.MAX_PAGE };

/** Node ids of groups and roles are their keys as a JSON array of strings. */
function parseKey(id: string, length: number): string[] {
  let v: unknown;
  try {
    v = JSON.parse(id);
  } catch {
    v = null;
  }
  if (!Array.isArray(v) || v.length !== length || !v.every((x) => typeof x === 'string')) {
    throw new ValidationError('Invalid id', 'id');
  }
  return v as string[];
}

export const CompositeUserRef = builder.objectRef<view.CompositeUserSummary>('CompositeUser');
export const CompositeRiskGroupRef = builder.objectRef<view.RiskGroupSummary>('CompositeRiskGroup');
export const CompositeRoleRef = builder.objectRef<view.CompositeRoleSummary>('CompositeRole');

builder.node(CompositeUserRef, {
  description: "A user in the composite-role view: the viewer's rows of that user, totalled.",
  id: { description: 'The global id of this user in the view.', resolve: (u) => u.userId },
  isTypeOf: (v) => (v as { kind?: string }).kind === 'CompositeUser',
  loadMany: (ids, ctx) => view.getUsers(ctx.caller!, ids),
  fields: (t) => ({
    userId: t.exposeString('userId', { description: 'The user id in the source system.' }),
    userName: t.exposeString('userName', { description: 'The user’s name.' }),
    userGroup: t.exposeString('userGroup', { description: 'The user’s group.' }),
    totalRisks: t.exposeInt('totalRisks', { description: 'Risk rows (conflicts) of the user the viewer may see.' }),
    highRisks: t.exposeInt('highRisks', { description: 'Of those, rows of level high or medium (medium counts as high).' }),
    decidedRisks: t.exposeInt('decidedRisks', { description: 'Rows the viewer has decided in the active period.' }),
    allDecided: t.exposeBoolean('allDecided', { description: 'Every row decided by the viewer in the active period (the green dot).' }),
    riskGroups: t.connection(
      {
        type: CompositeRiskGroupRef,
        description: "The user's risk groups (one per access risk id), by risk id.",
        resolve: async (u, args, ctx) => ({
          ...(await resolveCursorConnection(
            { args, toCursor: (g: view.RiskGroupSummary) => cursorOf(g.accessRiskId), ...PAGE },
            (p: ResolveCursorConnectionArgs) => groupsOf(ctx, keyset(p)).load(u.userId),
          )),
          // Counted only when asked for, for every user of the page in one query.
          totalCount: () => groupCountsOf(ctx).load(u.userId),
        }),
      },
      lazyTotalCount,
    ),
  }),
});

builder.node(CompositeRiskGroupRef, {
  description: 'One access risk of a user in the composite-role view, with the composite roles that carry it.',
  id: { description: 'The global id of this risk group.', resolve: (g) => JSON.stringify([g.userId, g.accessRiskId]), parse: (id) => parseKey(id, 2) },
  isTypeOf: (v) => (v as { kind?: string }).kind === 'CompositeRiskGroup',
  loadMany: (ids, ctx) =>
    view.getRiskGroups(
      ctx.caller!,
      ids.map(([userId, accessRiskId]) => ({ userId: userId!, accessRiskId: accessRiskId! })),
    ),
  fields: (t) => ({
    userId: t.exposeString('userId', { description: 'The user id in the source system.' }),
    accessRiskId: t.exposeString('accessRiskId', { description: 'The access risk id.' }),
    riskDescription: t.exposeString('riskDescription', { description: 'What the risk is.' }),
    riskLevel: t.expose('riskLevel', { type: RiskLevelEnum, description: 'The highest level among the rows.' }),
    isRisk: t.exposeBoolean('isRisk', { description: 'High or medium: RISK; low: NO RISK.' }),
    totalRisks: t.exposeInt('totalRisks', { description: 'The viewer’s rows of the user under this risk.' }),
    decidedRisks: t.exposeInt('decidedRisks', { description: 'Of those, rows the viewer has decided.' }),
    allDecided: t.exposeBoolean('allDecided', { description: 'Every one of them is decided.' }),
    roles: t.connection(
      {
        type: CompositeRoleRef,
        description: 'The composite roles (or the directly assigned roles, under an empty composite role) carrying this risk.',
        resolve: async (g, args, ctx) => ({
          ...(await resolveCursorConnection(
            { args, toCursor: (r: view.CompositeRoleSummary) => cursorOf(r.compositeBusinessRole), ...PAGE },
            (p: ResolveCursorConnectionArgs) => rolesOf(ctx, keyset(p)).load({ userId: g.userId, accessRiskId: g.accessRiskId }),
          )),
          // Counted only when asked for, for every group of the page in one query.
          totalCount: () => roleCountsOf(ctx).load({ userId: g.userId, accessRiskId: g.accessRiskId }),
        }),
      },
      lazyTotalCount,
    ),
  }),
});

const HighRiskRule = builder.objectRef<string>('CompositeRoleRule').implement({
  description: 'A rule a composite role matches.',
  fields: (t) => ({
    ruleId: t.string({ description: 'The rule id; 02NN and 03NN are high-risk.', resolve: (r) => r }),
    isHighRisk: t.boolean({ description: 'A rule id 02NN or 03NN.', resolve: (r) => isHighRiskRule(r) }),
  }),
});

const RoleFunction = builder.objectRef<view.RoleFunction>('CompositeRoleFunction').implement({
  description: 'A business function a composite role grants.',
  fields: (t) => ({
    function: t.exposeString('function', { description: 'The function’s id.' }),
    description: t.exposeString('description', { description: 'What the business function allows, as the export describes it (e.g. AP Payments).' }),
  }),
});

const AuthorizationDetail = builder.objectRef<view.AuthorizationDetail>('AuthorizationDetail').implement({
  description: 'One permission of a role: Auth Object is the export\u2019s Resource; Field its Resource Extn, or the Action when that is empty.',
  fields: (t) => ({
    riskRowId: t.field({ type: 'ID', description: 'The RiskRow node this line comes from.', resolve: (d) => encodeGlobalID('RiskRow', String(d.id)) }),
    authObject: t.exposeString('authObject', { description: 'The authorisation object (the export’s Resource).' }),
    authObjectDescription: t.exposeString('authObjectDescription', { description: 'What that object is.' }),
    field: t.exposeString('field', { description: 'The authorisation field (Resource Extn, or the Action).' }),
    fieldDescription: t.exposeString('fieldDescription', { description: 'What that field is.' }),
    valueFrom: t.exposeString('valueFrom', { description: 'The lowest value granted.' }),
    valueTo: t.exposeString('valueTo', { description: 'The highest value granted.' }),
    system: t.exposeString('system', { description: 'The source system that grants this permission (e.g. SAP ERP), as exported.' }),
    businessProcess: t.exposeString('businessProcess', { description: 'The business process.' }),
    businessProcessDescription: t.exposeString('businessProcessDescription', { description: 'What that business process is.' }),
    roleProfile: t.exposeString('roleProfile', { description: 'The role profile that grants it.' }),
    ruleId: t.exposeString('ruleId', { description: 'The rule it matches.' }),
    function: t.exposeString('function', { description: 'The business function (e.g. AP01) this permission belongs to within the risk.' }),
  }),
});

builder.node(CompositeRoleRef, {
  description: 'A composite role of a user under one risk group, with the viewer\u2019s decision on that user and role.',
  id: {
    resolve: (r) => JSON.stringify([r.userId, r.accessRiskId, r.compositeBusinessRole]),
    parse: (id) => parseKey(id, 3),
    description: 'The global id of this role in its risk group.',
  },
  isTypeOf: (v) => (v as { kind?: string }).kind === 'CompositeRole',
  loadMany: (ids, ctx) =>
    view.getRoles(
      ctx.caller!,
      ids.map(([userId, accessRiskId, compositeBusinessRole]) => ({
        userId: userId!,
        accessRiskId: accessRiskId!,
        compositeBusinessRole: compositeBusinessRole!,
      })),
    ),
  fields: (t) => ({
    userId: t.exposeString('userId', { description: 'The user id in the source system.' }),
    accessRiskId: t.exposeString('accessRiskId', { description: 'The access risk id of its group.' }),
    compositeBusinessRole: t.exposeString('compositeBusinessRole', { description: 'Empty when the role was assigned directly.' }),
    isDirect: t.exposeBoolean('isDirect', { description: 'Stands for the role profiles assigned directly, outside any composite role.' }),
    name: t.exposeString('name', { description: 'The composite role, or the role profile(s) of a direct assignment.' }),
    description: t.exposeString('description', { description: 'What the composite role is.' }),
    roleProfiles: t.exposeStringList('roleProfiles', { description: 'The role profiles it grants under this risk.' }),
    isHigh: t.exposeBoolean('isHigh', { description: 'A high-risk rule (02NN, 03NN) or a high risk level under the role: the HIGH badge.' }),
    conflictCount: t.exposeInt('conflictCount', { description: 'Its rows under this risk.' }),
    decidedCount: t.exposeInt('decidedCount', { description: 'Of those, rows the viewer has decided.' }),
    allDecided: t.exposeBoolean('allDecided', { description: 'Every one of them is decided.' }),
    decision: t.expose('decision', {
      type: DecisionValueEnum,
      nullable: true,
      description: "The viewer's decision when every row under the role carries the same one (null: undecided or mixed; the view shows retain).",
    }),
    ruleIds: t.field({ type: [HighRiskRule], description: 'The rules it matches under this risk.', resolve: (r) => r.ruleIds }),
    functions: t.field({ type: [RoleFunction], description: 'The conflicting functions it grants under this risk.', resolve: (r) => r.functions }),
    authorizationDetails: t.field({
      type: [AuthorizationDetail],
      description: 'The first permission rows of the role (see authorizationDetailCount for all of them).',
      args: { first: t.arg.int({ description: `At most ${view.MAX_DETAIL_LIMIT}; ${view.DEFAULT_DETAIL_LIMIT} when not given.` }) },
      resolve: (r, args, ctx) => detailsOf(ctx, args.first ?? view.DEFAULT_DETAIL_LIMIT).load(r),
    }),
    authorizationDetailCount: t.int({
      description: 'How many permission rows the role has under this risk group.',
      resolve: (r, _args, ctx) => detailCountsOf(ctx).load(r),
    }),
  }),
});

builder.queryFields((t) => ({
  compositeUsers: t.connection(
    {
      type: CompositeUserRef,
      description: 'The users the viewer may see (reviewers: of their assigned rows), by user id, for the composite-role view.',
      authScopes: { signedIn: true },
      args: { search: t.arg.string({ description: 'Part of the user id or name.' }) },
      resolve: async (_root, args, ctx) => {
        const connection = await resolveCursorConnection(
          { args, toCursor: (u: view.CompositeUserSummary) => cursorOf(u.userId), ...PAGE },
          (p: ResolveCursorConnectionArgs) => view.listUsers(ctx.caller!, { search: args.search }, keyset(p)),
        );
        // Counted only when asked for (a count over every visible row), cached per data version.
        return { ...connection, totalCount: () => view.countUsers(ctx.caller!, { search: args.search }) };
      },
    },
    lazyTotalCount,
  ),
  compositeUser: t.field({
    type: CompositeUserRef,
    nullable: true,
    description: 'One user of the composite-role view by user id; null when the viewer may see none of their rows.',
    authScopes: { signedIn: true },
    args: { userId: t.arg.string({ required: true, description: 'The user id in the source system.' }) },
    resolve: async (_root, args, ctx) => (await view.getUsers(ctx.caller!, [args.userId]))[0] ?? null,
  }),
}));

const CompositeRoleDecisionInput = builder.inputType('CompositeRoleDecisionInput', {
  description: "A decision on a user's composite role: applies to every row of that user under the role (an empty role: the directly assigned roles).",
  fields: (t) => ({
    userId: t.string({ required: true, description: 'The user id in the source system.' }),
    compositeBusinessRole: t.string({ required: true, description: 'The composite role (empty for directly assigned roles).' }),
    decision: t.field({ type: DecisionValueEnum, required: true, description: 'The decision for every row of the user under the role.' }),
    comments: t.string({ description: 'Why (optional).' }),
    mitigationControl: t.string({ description: "RETAIN_MITIGATED: the mitigating control (else each row's Control column from the export)." }),
    mitigationExpiresAt: t.field({ type: 'DateTime', description: 'RETAIN_MITIGATED: when the control expires (not in the past).' }),
  }),
});

const CompositeRoleDecisionResult = builder.objectRef<view.RoleDecisionResult>('CompositeRoleDecisionResult').implement({
  description: 'What saving composite-role decisions did, with the view’s objects as they are now.',
  fields: (t) => ({
    saved: t.exposeInt('saved', { description: 'How many risk rows the decisions covered.' }),
    users: t.field({
      type: [CompositeUserRef],
      description:
        'The users touched, as the viewer now sees them: one per user named in `decisions`, so bounded by the input (at most 100,000 decisions a call), not a connection.',
      resolve: (r) => r.users,
    }),
    riskGroups: t.field({
      type: [CompositeRiskGroupRef],
      description: 'Every risk group holding a touched role (bounded by the input, as `users`), for the client to update in place.',
      resolve: (r) => r.riskGroups,
    }),
    roles: t.field({
      type: [CompositeRoleRef],
      description: 'The touched roles, in every risk group (bounded by the input, as `users`).',
      resolve: (r) => r.roles,
    }),
  }),
});

builder.mutationFields((t) => ({
  saveCompositeRoleDecisions: t.field({
    type: CompositeRoleDecisionResult,
    description: 'Saves decisions per user and composite role in the active period, all or nothing (the same rules as saveDecisions).',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: { decisions: t.arg({ type: [CompositeRoleDecisionInput], required: true, description: 'The decisions, all saved in one transaction or none.' }) },
    resolve: (_root, args, ctx) => view.decideRoles(ctx.caller!, args.decisions),
  }),
}));
