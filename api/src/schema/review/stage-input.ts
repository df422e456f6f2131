// A period's stages as the graph takes and shows them (createReviewPeriod and its
// preview, and a recurring template's): the same plan as POST /api/review-periods' `stages`
// (services/stages/stage-plan.ts), with the user ids as global ids.
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import { UserNode } from '../identity/users.js';
import { STAGE_PASS_ON, STAGE_REVIEWER_TYPES, type StagePlan, type StagePlanInput, type TemplateStagePlanInput } from '../../services/stages/stage-plan.js';

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

type Types = PothosSchemaTypes.ExtendDefaultTypes<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never>;
type InputFields = PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>;

/** A stage's name, reviewers and passOn: a period's stage and a recurring template's stage both take them. */
const planFields = (t: InputFields) => ({
  name: t.string({ required: true, description: "What the stage is called, e.g. 'Risk owner'." }),
  reviewerType: t.field({ type: StageReviewerTypeEnum, required: true, description: 'Who reviews it.' }),
  userIds: t.globalIDList({ for: UserNode, description: 'The reviewers, when `reviewerType` is users.' }),
  passOn: t.field({ type: StagePassOnEnum, description: 'Default: all.' }),
});

export const ReviewStageInput = builder.inputType('ReviewStageInput', {
  description: 'One stage of a review period.',
  fields: (t) => ({
    ...planFields(t),
    endDate: t.field({ type: 'DateTime', description: "The stage's deadline (reminders count back from it)." }),
  }),
});

export const TemplateStageInput = builder.inputType('ReviewPeriodTemplateStageInput', {
  description: 'One stage of the periods a recurring template makes: as a period’s stage, its deadline in days after the period opens.',
  fields: (t) => ({
    ...planFields(t),
    endDays: t.int({ description: "The stage's deadline: this many days after its period opens (1 to 366, at most the template's duration)." }),
  }),
});

/** A stage's name, who reviews it and what passes on to it, as the graph shows a period's stage and a template's. */
export const planOutputFields = <S extends Pick<StagePlan, 'name' | 'reviewers' | 'passOn'>>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, S>) => ({
  name: t.string({ description: "What it is called, e.g. 'Risk owner'.", resolve: (s) => s.name }),
  reviewerType: t.field({ type: StageReviewerTypeEnum, description: 'Who reviews it.', resolve: (s) => s.reviewers.type }),
  reviewers: t.field({
    type: [UserNode],
    description: 'The users who review it, for a fixed list (empty otherwise).',
    resolve: (s, _args, ctx) =>
      s.reviewers.type === 'users' ? ctx.caller!.deps.prisma.user.findMany({ where: { id: { in: s.reviewers.userIds } }, orderBy: { email: 'asc' } }) : [],
  }),
  passOn: t.field({ type: StagePassOnEnum, description: "Which of the stage before's decisions reach it.", resolve: (s) => s.passOn }),
});

type StageArg = Omit<typeof ReviewStageInput.$inferInput, 'endDate'>;

/** Who reviews a stage, as the stage plan takes it. */
const reviewersOf = (s: StageArg): StagePlanInput['reviewers'] =>
  s.reviewerType === 'users' ? { type: 'users', userIds: (s.userIds ?? []).map((g) => g.id) } : { type: s.reviewerType };

/** The graph's stages as the stage plan takes them. */
export function stagePlanInput(stages: readonly (typeof ReviewStageInput.$inferInput)[] | null | undefined): StagePlanInput[] | undefined {
  return stages?.map((s) => ({ name: s.name, reviewers: reviewersOf(s), passOn: s.passOn ?? undefined, endDate: s.endDate ?? null }));
}

/** A template's stages from the graph as the stage plan takes them (null clears them). */
export function templateStagePlanInput(
  stages: readonly (typeof TemplateStageInput.$inferInput)[] | null | undefined,
): TemplateStagePlanInput[] | null | undefined {
  if (stages === null) return null;
  return stages?.map((s) => ({ name: s.name, reviewers: reviewersOf(s), passOn: s.passOn ?? undefined, endDays: s.endDays ?? null }));
}
