// A period's stages as the graph takes them (createReviewPeriod and its
// preview): the same plan as POST /api/review-periods' `stages`
// (services/stages/stage-plan.ts), with the user ids as global ids.
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import { UserNode } from '../identity/users.js';
import { STAGE_PASS_ON, STAGE_REVIEWER_TYPES, type StagePlanInput } from '../../services/stages/stage-plan.js';

export const StageReviewerTypeEnum = enumOf('StageReviewerType', {
  description: 'Who reviews a stage.',
  values: STAGE_REVIEWER_TYPES,
  descriptions: {
    criteria: 'The reviewers the assignment criteria give each row, as a one-stage period has.',
    users: 'A fixed list of users (`userIds`), each of whom sees every row that reaches the stage.',
    processOwner: "The owners of each row's business process, as Admin Settings keeps them.",
  },
});

export const StagePassOnEnum = enumOf('StagePassOn', {
  description: "Which of the earlier stage's decisions reach a stage (ignored on the first).",
  values: STAGE_PASS_ON,
  descriptions: {
    all: 'Every decision.',
    removals: 'Removals only.',
    highRetentions: 'Retentions of high (and critical) risks only.',
    mitigated: 'Retentions with a mitigating control only.',
  },
});

export const ReviewStageInput = builder.inputType('ReviewStageInput', {
  description: 'One stage of a review period.',
  fields: (t) => ({
    name: t.string({ required: true, description: "What the stage is called, e.g. 'Risk owner'." }),
    reviewerType: t.field({ type: StageReviewerTypeEnum, required: true, description: 'Who reviews it.' }),
    userIds: t.globalIDList({ for: UserNode, description: 'The reviewers, when `reviewerType` is users.' }),
    passOn: t.field({ type: StagePassOnEnum, description: 'Default: all.' }),
    endDate: t.field({ type: 'DateTime', description: "The stage's deadline (reminders count back from it)." }),
  }),
});

type StageArg = typeof ReviewStageInput.$inferInput;

/** The graph's stages as the stage plan takes them. */
export function stagePlanInput(stages: readonly StageArg[] | null | undefined): StagePlanInput[] | undefined {
  return stages?.map((s) => ({
    name: s.name,
    reviewers: s.reviewerType === 'users' ? { type: 'users' as const, userIds: (s.userIds ?? []).map((g) => g.id) } : { type: s.reviewerType },
    passOn: s.passOn ?? undefined,
    endDate: s.endDate ?? null,
  }));
}
