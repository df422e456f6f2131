// The approver's review of a submission in GraphQL: a
// submission's items attention-first for the approver, and the approver's
// item comments on the submission (which its reviewer may read too).
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import * as approval from '../../services/review/approval-review.js';
import { itemCommentJson, itemCommentsOf } from '../../services/review/decisions.js';
import type { DecisionValue } from '../../services/risk-rules.js';
import { RiskLevelEnum } from './risks.js';
import { DecisionValueEnum, SubmissionNode, SubmissionStateRef } from './decisions.js';
import { RecommendationRef } from './recommendations.js';

const ApprovalGroupEnum = enumOf('ApprovalGroup', {
  description: 'Why an item is where it is in the approval list.',
  values: approval.APPROVAL_GROUPS,
  descriptions: {
    removal: 'The reviewer decided to remove the access: approving it puts the row on the remediation list.',
    mitigation: 'A retain with a mitigating control.',
    retained_against_recommendation: 'Retained although the recommendation was REMOVE.',
    other: 'Any other item (retained as recommended, or to review).',
  },
});

const ApprovalItemRef = builder.objectRef<approval.ApprovalItem>('ApprovalItem').implement({
  description: 'One decision of a submission as the approver sees it, with the recommendation the reviewer was shown.',
  fields: (t) => ({
    riskRowId: t.string({ description: "The risk row's numeric id, as text (the item's id in the REST API).", resolve: (i) => String(i.riskRowId) }),
    group: t.expose('group', { type: ApprovalGroupEnum, description: 'Why the item is where it is in the list.' }),
    userId: t.exposeString('userId', { description: "The user's id in the source system." }),
    userName: t.exposeString('userName', { description: 'The user’s name.' }),
    roleProfile: t.exposeString('roleProfile', { description: 'The role profile that grants the access.' }),
    accessRiskId: t.exposeString('accessRiskId', { description: 'The access risk id.' }),
    riskLevel: t.expose('riskLevel', { type: RiskLevelEnum, description: 'How severe the access risk is.' }),
    system: t.exposeString('system', { description: 'The system the access is in.' }),
    decision: t.field({ type: DecisionValueEnum, description: "The reviewer's decision.", resolve: (i) => i.decision as DecisionValue }),
    comments: t.exposeString('comments', { nullable: true, description: "The reviewer's comment." }),
    mitigationControl: t.exposeString('mitigationControl', { nullable: true, description: 'The mitigating control of a mitigation.' }),
    mitigationExpiresAt: t.expose('mitigationExpiresAt', { type: 'DateTime', nullable: true, description: 'Until when a mitigation holds.' }),
    recommendation: t.expose('recommendation', { type: RecommendationRef, description: 'The recommendation the facts gave the reviewer.' }),
    approverComment: t.exposeString('approverComment', { nullable: true, description: "The approver's comment on this item, once given." }),
  }),
});

const ApprovalReviewRef = builder.objectRef<approval.ApprovalReview>('ApprovalReview').implement({
  description: 'A submission to approve or return: its items, removals, mitigations and those retained against a remove recommendation first.',
  fields: (t) => ({
    submission: t.field({ type: SubmissionNode, description: 'The submission.', resolve: (r) => r.submission }),
    total: t.exposeInt('total', { description: 'How many items the submission holds.' }),
    items: t.field({ type: [ApprovalItemRef], description: `The items, attention first (at most ${approval.MAX_APPROVAL_ITEMS}).`, resolve: (r) => r.items }),
  }),
});

type ItemComment = Awaited<ReturnType<typeof itemCommentsOf>>[number];
const SubmissionItemCommentRef = builder.objectRef<ItemComment>('SubmissionItemComment').implement({
  description: "An approver's comment on one item of a submission.",
  fields: (t) => ({
    riskRowId: t.string({ description: "The risk row's numeric id, as text.", resolve: (c) => String(c.riskRowId) }),
    userId: t.string({ description: "The user's id in the source system.", resolve: (c) => c.riskRow.userId }),
    roleProfile: t.string({ description: 'The role profile.', resolve: (c) => c.riskRow.roleProfile }),
    accessRiskId: t.string({ description: 'The access risk id.', resolve: (c) => c.riskRow.accessRiskId }),
    comment: t.exposeString('comment', { description: 'The comment.' }),
  }),
});

builder.prismaObjectFields(SubmissionNode, (t) => ({
  itemComments: t.field({
    type: [SubmissionItemCommentRef],
    description: `The approver's comments on single items, given when approving or returning it (at most ${approval.MAX_APPROVAL_ITEMS.toLocaleString('en')}: the cap on comments a decision takes).`,
    resolve: (s, _args, ctx) => itemCommentsOf(ctx.caller!, s.id),
  }),
}));

type ItemCommentJson = ReturnType<typeof itemCommentJson>;
const ItemCommentNoteRef = builder.objectRef<ItemCommentJson>('ItemCommentNote').implement({
  description: "An approver's comment on one of the viewer's items, as the reviewer reads it.",
  fields: (t) => ({
    riskRowId: t.string({ description: "The risk row's numeric id, as text.", resolve: (c) => String(c.riskRowId) }),
    userId: t.exposeString('userId', { description: "The user's id in the source system." }),
    roleProfile: t.exposeString('roleProfile', { description: 'The role profile.' }),
    accessRiskId: t.exposeString('accessRiskId', { description: 'The access risk id.' }),
    comment: t.exposeString('comment', { description: 'The comment.' }),
  }),
});

builder.objectFields(SubmissionStateRef, (t) => ({
  itemComments: t.field({
    type: [ItemCommentNoteRef],
    description: `The approver's comments on single items of the viewer's latest submission (at most ${approval.MAX_APPROVAL_ITEMS.toLocaleString('en')}).`,
    resolve: (s) => s.itemComments,
  }),
}));

builder.queryFields((t) => ({
  submissionReview: t.field({
    type: ApprovalReviewRef,
    description: "A submission's items for its approver: removals, mitigations and items retained against a remove recommendation first (administrators).",
    authScopes: { admin: true },
    args: { id: t.arg.globalID({ required: true, for: SubmissionNode, description: 'The submission’s global id.' }) },
    resolve: (_root, { id }, ctx) => approval.approvalReview(ctx.caller!, id.id),
  }),
}));
