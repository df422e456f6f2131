// A period's review stages, as a period (and its preview) is created with
// them: 1 to 3 stages, each naming who reviews it and which of the earlier
// stage's decisions reach it. A period created without stages has the one
// stage it always had (its reviewers by assignment criteria), followed by the
// administrator's approval; every later stage only adds to that.
import { z } from 'zod';
import { dateInput } from '../../core/validation.js';
import { DAY_MS } from '../../core/types.js';

export const MAX_STAGES = 3;
export const MAX_STAGE_NAME = 60;

/** Who reviews a stage: the assignment criteria as today, a fixed list of users, or each row's business process owners. */
export const STAGE_REVIEWER_TYPES = ['criteria', 'users', 'processOwner'] as const;
export type StageReviewerType = (typeof STAGE_REVIEWER_TYPES)[number];

/**
 * Which of the earlier stage's decisions reach a stage (ignored on stage 1):
 * all of them, removals only, retentions of high risks only, or mitigated ones.
 */
export const STAGE_PASS_ON = ['all', 'removals', 'highRetentions', 'mitigated'] as const;
export type StagePassOn = (typeof STAGE_PASS_ON)[number];

const reviewersSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('criteria') }),
    z.strictObject({
      type: z.literal('users'),
      userIds: z.array(z.uuid({ error: 'Stage reviewers must be user ids' }), { error: 'Stage reviewers must be a list of user ids' }).max(100),
    }),
    z.strictObject({ type: z.literal('processOwner') }),
  ],
  { error: "A stage's reviewers must be { type: 'criteria' }, { type: 'users', userIds } or { type: 'processOwner' }" },
);

/** A stage's name, reviewers and passOn: what a period's stage and a recurring template's stage both are. */
const planFields = {
  name: z
    .string({ error: 'Each stage needs a name' })
    .trim()
    .min(1, 'Each stage needs a name')
    .max(MAX_STAGE_NAME, `A stage name has at most ${MAX_STAGE_NAME} characters`),
  reviewers: reviewersSchema,
  passOn: z.enum(STAGE_PASS_ON, { error: 'passOn must be all, removals, highRetentions or mitigated' }).default('all'),
};

/** 1 to MAX_STAGES stages of `stage`, in order. */
const stageList = <T extends z.ZodType>(stage: T) =>
  z.array(stage, { error: 'Stages must be a list' }).min(1, 'A period has at least one stage').max(MAX_STAGES, `A period has at most ${MAX_STAGES} stages`);

export const stageSchema = z.strictObject({ ...planFields, endDate: dateInput('Stage end date is not a valid date').nullish() });
export const stagesSchema = stageList(stageSchema);

export type StagePlan = z.output<typeof stageSchema>;
export type StagePlanInput = z.input<typeof stageSchema>;

const END_DAYS = 'A stage of a recurring template ends a whole number of days (endDays, 1 to 366) after its period opens';

/**
 * A recurring template's stage: the same plan, its deadline a number of
 * days after each period made from it opens (a date would be right for one
 * period only).
 */
export const templateStageSchema = z.strictObject({
  ...planFields,
  endDays: z.number({ error: END_DAYS }).int(END_DAYS).min(1, END_DAYS).max(366, END_DAYS).nullish(),
});
export const templateStagesSchema = stageList(templateStageSchema);

export type TemplateStagePlan = z.output<typeof templateStageSchema>;
export type TemplateStagePlanInput = z.input<typeof templateStageSchema>;

/** A template's stages for the period that opens at `opens` (UTC midnight): each deadline its endDays after. */
export function datedStages(stages: readonly TemplateStagePlan[], opens: Date): StagePlan[] {
  return stages.map(({ endDays, ...s }) => ({ ...s, endDate: endDays ? new Date(opens.getTime() + endDays * DAY_MS) : null }));
}

/** The stage a period created without stages has: its reviewers by the assignment criteria. */
export const DEFAULT_STAGES: StagePlan[] = [{ name: 'Reviewer', reviewers: { type: 'criteria' }, passOn: 'all', endDate: null }];
