// The review settings (fallback reviewers, business process owners) and the
// rows nobody but the fallback reviewers holds, in GraphQL (administrators).
import { builder } from '../builder.js';
import { ValidationError } from '../../core/errors.js';
import * as coverage from '../../services/review/coverage.js';
import * as settings from '../../services/review/review-settings.js';
import { UserNode } from '../identity/users.js';

const ProcessOwnersRef = builder.objectRef<{ businessProcess: string; ownerIds: string[] }>('ProcessOwners').implement({
  description: 'The owners of one business process.',
  fields: (t) => ({
    businessProcess: t.exposeString('businessProcess', { description: 'The business process, as the risk rows name it.' }),
    ownerIds: t.exposeStringList('ownerIds', { description: 'The owners’ stored user ids (User.userId).' }),
  }),
});

const ReviewSettingsRef = builder.objectRef<coverage.ReviewSettings>('ReviewSettings').implement({
  description: 'Who reviews what nobody else reviews: the fallback reviewers, and the owners of each business process.',
  fields: (t) => ({
    fallbackReviewerIds: t.exposeStringList('fallbackReviewerIds', {
      description: 'The fallback reviewers’ stored user ids (User.userId): they receive every in-scope row no assignment criterion gives to anyone.',
    }),
    fallbackReviewers: t.field({
      type: [UserNode],
      description: 'The fallback reviewers, by e-mail (a deactivated one receives nothing: the dashboard reports it).',
      resolve: (s, _args, ctx) => ctx.prisma.user.findMany({ where: { id: { in: s.fallbackReviewerIds } }, orderBy: [{ email: 'asc' }, { id: 'asc' }] }),
    }),
    processOwners: t.field({
      type: [ProcessOwnersRef],
      description: 'The owners of each business process, by business process.',
      resolve: (s) =>
        Object.entries(s.processOwners)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([businessProcess, ownerIds]) => ({ businessProcess, ownerIds })),
    }),
  }),
});

const ProcessOwnersInput = builder.inputType('ProcessOwnersInput', {
  description: 'The owners of one business process.',
  fields: (t) => ({
    businessProcess: t.string({ required: true, description: 'The business process, as the risk rows name it.' }),
    ownerIds: t.stringList({ required: true, description: 'The owners’ stored user ids.' }),
  }),
});

const UpdateReviewSettingsInput = builder.inputType('UpdateReviewSettingsInput', {
  description: 'New review settings; a field left out keeps its value.',
  fields: (t) => ({
    fallbackReviewerIds: t.stringList({ description: 'The fallback reviewers’ stored user ids: active reviewers only (replaces the list).' }),
    processOwners: t.field({ type: [ProcessOwnersInput], description: 'The owners of each business process (replaces them all).' }),
  }),
});

const UnassignedRowRef = builder.objectRef<coverage.UnassignedRow>('UnassignedConflict').implement({
  description: 'A live risk row that no assignment gives to a reviewer who may review it.',
  fields: (t) => ({
    riskRowId: t.string({ description: 'The risk row’s stored id.', resolve: (r) => String(r.id) }),
    userId: t.exposeString('userId', { description: 'User ID (the person whose access it is).' }),
    userName: t.exposeString('userName', { description: 'The name of the user whose access it is, as the export gives it.' }),
    accessRiskId: t.exposeString('accessRiskId', { description: 'The access risk’s id in the loaded export.' }),
    riskDescription: t.exposeString('riskDescription', { description: 'What the access risk allows, as the export describes it.' }),
    riskLevel: t.exposeString('riskLevel', { description: 'Risk level: high, medium or low.' }),
    system: t.exposeString('system', { description: 'The system the access is held in.' }),
    roleProfile: t.exposeString('roleProfile', { description: 'The role or profile that gives the access.' }),
    reason: t.exposeString('reason', {
      description: "'self-review': routed away from the reviewers whose own access it is; 'unassigned': no criterion matches it.",
    }),
    route: t.exposeString('route', { description: "Who reviews it: 'fallback' (the fallback reviewers) or 'nobody'." }),
  }),
});

const UnassignedRef = builder.objectRef<Awaited<ReturnType<typeof coverage.listUnassigned>>>('UnassignedConflicts').implement({
  description: 'The rows no reviewer holds: they go to the fallback reviewers, or to nobody.',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Live rows no reviewer holds.' }),
    nobody: t.exposeInt('nobody', { description: 'Of those, the rows nobody can review (the dashboard’s Unassigned conflicts).' }),
    rows: t.field({ type: [UnassignedRowRef], description: 'A page of them, in row order.', resolve: (r) => r.rows }),
  }),
});

builder.queryFields((t) => ({
  reviewSettings: t.field({
    type: ReviewSettingsRef,
    description: 'The fallback reviewers and the business process owners (administrators).',
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => settings.getReviewSettings(ctx.caller!),
  }),
  unassignedConflicts: t.field({
    type: UnassignedRef,
    description: 'The rows no assignment gives to a reviewer who may review them (administrators).',
    authScopes: { admin: true },
    args: {
      limit: t.arg.int({ description: 'Rows in the page (1 to 500; default 100).' }),
      offset: t.arg.int({ description: 'Rows skipped before the page (default 0).' }),
    },
    resolve: (_root, args, ctx) => coverage.listUnassigned(ctx.caller!, { limit: args.limit ?? undefined, offset: args.offset ?? undefined }),
  }),
}));

builder.mutationFields((t) => ({
  updateReviewSettings: t.field({
    type: ReviewSettingsRef,
    description: 'Sets the fallback reviewers and the business process owners (administrators); audited.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: UpdateReviewSettingsInput, required: true, description: 'The settings to change.' }) },
    resolve: (_root, { input }, ctx) =>
      settings.updateReviewSettings(ctx.caller!, {
        fallbackReviewerIds: input.fallbackReviewerIds ?? undefined,
        processOwners: input.processOwners ? Object.fromEntries(input.processOwners.map((p) => [p.businessProcess, p.ownerIds])) : undefined,
      }),
  }),
}));
