// The preview of a review period before it is created (administrators): its
// scope, each stage's reviewers with their rows, and the rows that go to the
// fallback reviewers and why; nothing is created or written
// (services/stages/period-preview.ts).
import { builder } from '../builder.js';
import { ValidationError } from '../../core/errors.js';
import * as preview from '../../services/stages/period-preview.js';
import { UserNode } from '../identity/users.js';
import { CreateReviewPeriodInput } from './periods.js';
import { StageReviewerTypeEnum, stagePlanInput } from './stage-input.js';

const PreviewScopeRef = builder.objectRef<preview.PeriodPreview['scope']>('ReviewPeriodPreviewScope').implement({
  description: 'The rows a new period reviews: every live risk row.',
  fields: (t) => ({
    rows: t.exposeInt('rows', { description: 'The live risk rows the period reviews.' }),
    highRows: t.exposeInt('highRows', { description: 'Of those, rows of level high or medium (as the dashboard counts High Risk).' }),
  }),
});

const PreviewReviewerRef = builder.objectRef<preview.PreviewReviewer>('ReviewPeriodPreviewReviewer').implement({
  description: 'A reviewer of a stage and how many rows they would review.',
  fields: (t) => ({
    user: t.field({ type: UserNode, description: 'The reviewer (name and e-mail).', resolve: (r) => r.user }),
    rows: t.exposeInt('rows', {
      description:
        "Stage 1: the rows they would get (their queue's total, fallback rows included). A later stage: the rows that could reach them at most, if every earlier decision passed on.",
    }),
    fallbackRows: t.exposeInt('fallbackRows', { description: 'Of `rows`, those they get as a fallback reviewer (stage 1 only; 0 otherwise).' }),
  }),
});

const PreviewStageRef = builder.objectRef<preview.PreviewStage>('ReviewPeriodPreviewStage').implement({
  description: 'One stage of the new period and its reviewers.',
  fields: (t) => ({
    name: t.exposeString('name', { description: "What the stage is called, e.g. 'Reviewer'." }),
    reviewerType: t.field({ type: StageReviewerTypeEnum, description: 'Who reviews it.', resolve: (s) => s.reviewerType }),
    reviewers: t.field({ type: [PreviewReviewerRef], description: 'Its reviewers, most rows first.', resolve: (s) => s.reviewers }),
  }),
});

const PreviewFallbackRef = builder.objectRef<preview.PreviewFallback>('ReviewPeriodPreviewFallback').implement({
  description: 'The rows of stage 1 that nobody but the fallback reviewers gets, and why.',
  fields: (t) => ({
    rows: t.exposeInt('rows', { description: 'Rows that go to the fallback reviewers: selfReview + unassigned.' }),
    selfReview: t.exposeInt('selfReview', { description: 'Of those, rows routed away from the reviewers whose own access they are.' }),
    unassigned: t.exposeInt('unassigned', { description: 'Of those, rows no criterion (listed user, process owner) gives to anyone.' }),
    nobody: t.exposeInt('nobody', {
      description: 'Of those, rows nobody can review: all of them while there is no active fallback reviewer, else the fallback reviewers’ own access.',
    }),
    reviewers: t.field({ type: [UserNode], description: 'The active fallback reviewers (Admin Settings).', resolve: (f) => f.reviewers }),
  }),
});

const PreviewRef = builder.objectRef<preview.PeriodPreview>('ReviewPeriodPreview').implement({
  description: 'What creating a period would give each reviewer, before it is created.',
  fields: (t) => ({
    scope: t.field({ type: PreviewScopeRef, description: 'The rows the period reviews.', resolve: (p) => p.scope }),
    stages: t.field({ type: [PreviewStageRef], description: 'Each stage, in order, with its reviewers.', resolve: (p) => p.stages }),
    fallback: t.field({ type: PreviewFallbackRef, description: 'The rows that go to the fallback reviewers, and why.', resolve: (p) => p.fallback }),
  }),
});

builder.queryFields((t) => ({
  reviewPeriodPreview: t.field({
    type: PreviewRef,
    description: 'What creating a period with this input would give each reviewer (administrators); creates and writes nothing.',
    authScopes: { admin: true },
    errors: {
      types: [ValidationError],
      union: { description: 'What `reviewPeriodPreview` answers: the preview, or a refusal of the input (as creating the period refuses it).' },
      result: { description: 'The preview of the period.' },
      dataField: { description: 'What creating the period would give each reviewer.' },
    },
    args: { input: t.arg({ type: CreateReviewPeriodInput, required: true, description: 'The period as it would be created.' }) },
    resolve: (_root, { input }, ctx) => preview.previewPeriod(ctx.caller!, { ...input, stages: stagePlanInput(input.stages) }),
  }),
}));
