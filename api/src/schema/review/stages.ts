// A period's review stages in the graph: each stage of a period with its
// progress (administrators), and on a risk row the stage at which the
// viewer reviews it with the earlier stages' decisions (a later stage's
// reviewer reads them beside the row, as GET /api/assigned-risks gives them).
import { builder } from '../builder.js';
import { ReviewPeriodNode } from './periods.js';
import { RiskRowNode } from './risks.js';
import { DecisionValueEnum } from './decisions.js';
import { planOutputFields } from './stage-input.js';
import * as decisions from '../../services/review/decisions.js';
import { periodStages } from '../../services/stages/stage-reviews.js';
import { stagesOf, type PeriodStage, type PreviousDecision, type StageProgress } from '../../services/stages/stages.js';
import type { RiskRowWithDecision } from '../../services/visibility.js';
import type { DecisionValue } from '../../services/risk-rules.js';

const PreviousStageDecisionRef = builder.objectRef<PreviousDecision>('PreviousStageDecision').implement({
  description: "An earlier stage's submitted decision on a row, as a later stage's reviewer reads it.",
  fields: (t) => ({
    stage: t.exposeInt('stage', { description: 'Which stage decided it (1 to 3).' }),
    reviewerName: t.string({ description: 'Who decided it.', resolve: (d) => d.reviewer.name }),
    reviewerEmail: t.string({ description: 'Their e-mail address.', resolve: (d) => d.reviewer.email }),
    decision: t.field({
      type: DecisionValueEnum,
      description: 'Retain, remove or retain with a mitigating control.',
      resolve: (d) => d.decision as DecisionValue,
    }),
    comments: t.exposeString('comments', { nullable: true, description: 'The comment given with it.' }),
    decidedAt: t.expose('decidedAt', { type: 'DateTime', description: 'When it was last changed.' }),
  }),
});

builder.objectFields(RiskRowNode, (t) => ({
  stage: t.int({
    description: 'The stage at which the viewer reviews the row in the active period (1 in a one-stage period).',
    resolve: (r) => (r as RiskRowWithDecision).stage ?? 1,
  }),
  previousDecisions: t.field({
    type: [PreviousStageDecisionRef],
    description: "The earlier stages' submitted decisions on the row, in stage order (empty at stage 1).",
    resolve: (r) => (r as RiskRowWithDecision).previousDecisions ?? [],
  }),
}));

const StageProgressRef = builder.objectRef<StageProgress>('ReviewStageProgress').implement({
  description: 'How far a stage is.',
  fields: (t) => ({
    reached: t.exposeInt('reached', { description: 'Rows that reached the stage (stage 1: every row in scope).' }),
    decided: t.exposeInt('decided', { description: 'Of those, rows with a decision at the stage.' }),
    pending: t.exposeInt('pending', { description: 'Of those, rows still without one.' }),
    submittedReviewers: t.exposeInt('submittedReviewers', { description: 'Reviewers who submitted the stage.' }),
  }),
});

const ReviewStageRef = builder.objectRef<PeriodStage & { progress: StageProgress }>('ReviewStage').implement({
  description: 'One stage of a review period, with its progress.',
  fields: (t) => ({
    number: t.exposeInt('number', { description: 'Its place, 1 to 3.' }),
    ...planOutputFields(t),
    endDate: t.expose('endDate', { type: 'DateTime', nullable: true, description: 'Its deadline.' }),
    progress: t.field({ type: StageProgressRef, description: 'How far it is.', resolve: (s) => s.progress }),
  }),
});

builder.objectFields(ReviewPeriodNode, (t) => ({
  // Read from the stored plan, without counting anything: a screen asks for `stages` (and their progress) only when there are several.
  stageCount: t.int({
    description: 'How many review stages it has (1 to 3; 1 for a period created without stages).',
    resolve: (p) => stagesOf(p).length,
  }),
  stages: t.field({
    type: [ReviewStageRef],
    description: 'Its review stages in order, each with its progress (administrators; one stage for a period created without stages).',
    authScopes: { admin: true },
    resolve: (p, _args, ctx) => periodStages(ctx.caller!, p.id),
  }),
}));

builder.mutationFields((t) => ({
  submitStageDecisions: t.int({
    description: "Submits the viewer's decisions at their stage (any stage of a multi-stage period); returns how many it held.",
    authScopes: { reviewer: true },
    errors: {},
    resolve: async (_root, _args, ctx) => (await decisions.submit(ctx.caller!)).count,
  }),
}));
