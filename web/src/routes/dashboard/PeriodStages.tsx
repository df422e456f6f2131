// The 'Stages' section of the create-period dialog: 1 to 3 stages, each with
// its name, who reviews it, which of the stage before's decisions reach it
// ('Passes on') and an optional deadline. Stage 1 is reviewed by the
// assignment criteria (the server refuses anything else); stages 2 and 3 by
// a fixed list of reviewers or each row's business process owners. Left as
// the one default stage, the period is created without `stages`, exactly as
// before stages existed; every other rule (reviewers who exist, process
// owners set, a deadline within the period) is the server's, whose refusal
// the preview and the create button show. A recurring template's dialog
// shows the same section with each deadline as days after its period opens
// (`deadline="days"`), since its periods' dates are not known yet.
import {
  Button,
  Caption1,
  Combobox,
  Field,
  Input,
  makeStyles,
  Option,
  Radio,
  RadioGroup,
  Select,
  Spinner,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { Suspense, useEffect, useRef, useState } from 'react';
import { graphql, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import type { PeriodStagesReviewersQuery } from '../../__generated__/PeriodStagesReviewersQuery.graphql';
import type { ReviewStageInput, StagePassOn } from '../../__generated__/CreateReviewPeriodDialogMutation.graphql';
import type { ReviewPeriodTemplateStageInput } from '../../__generated__/RecurringTemplateDialogCreateMutation.graphql';
import { SelectOptions } from '../../components/forms/FormDialog';
import { useDialogSectionStyles } from './PeriodPreview';

const reviewersQuery = graphql`
  query PeriodStagesReviewersQuery {
    users(first: 500, role: REVIEWER, active: true) {
      edges {
        node {
          id
          displayName
          email
        }
      }
    }
  }
`;

export const MAX_STAGES = 3;
/** Stage 1's name when nobody changes it: the one stage a period without stages has. */
export const DEFAULT_STAGE_NAME = 'Reviewer';

type LaterReviewers = 'USERS' | 'PROCESS_OWNER';
type PassOn = Exclude<StagePassOn, '%future added value'>;
/** One stage as the dialog holds it; its deadline a day (`endDate`, a period's) or days after the period opens (`endDays`, a template's). */
export type StageForm = {
  key: number;
  name: string;
  reviewers: LaterReviewers;
  userIds: readonly string[];
  passOn: PassOn;
  endDate: string;
  endDays: string;
};
/** How a stage's deadline is entered: a date (a period) or days after the period opens (a recurring template). */
export type StageDeadline = 'date' | 'days';

const NEW_STAGE: Omit<StageForm, 'key' | 'name'> = { reviewers: 'USERS', userIds: [], passOn: 'ALL', endDate: '', endDays: '' };
export const DEFAULT_STAGES: readonly StageForm[] = [{ ...NEW_STAGE, key: 0, name: DEFAULT_STAGE_NAME }];

const PASS_ON_OPTIONS = [
  { value: 'ALL', label: 'All decisions' },
  { value: 'REMOVALS', label: 'Removals only' },
  { value: 'HIGH_RETENTIONS', label: 'Retentions of high risks' },
  { value: 'MITIGATED', label: 'Mitigated' },
] as const;

/** A date field's day as the API takes a deadline: the end of that day, local time. */
export const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();

/** The stages as the period is created with them; null for the one default stage (the period as it always was). */
export function stagesInput(stages: readonly StageForm[]): ReviewStageInput[] | null {
  const [first] = stages;
  if (stages.length === 1 && first && first.name.trim() === DEFAULT_STAGE_NAME && !first.endDate) return null;
  return stages.map((s, i) => ({
    name: s.name.trim(),
    reviewerType: i === 0 ? 'CRITERIA' : s.reviewers,
    ...(i > 0 && s.reviewers === 'USERS' ? { userIds: [...s.userIds] } : {}),
    ...(i > 0 ? { passOn: s.passOn } : {}),
    endDate: s.endDate ? endOfDay(s.endDate) : null,
  }));
}

/** A template's stages as it is created or changed with them; null for the one default stage (its periods as they always were). */
export function templateStagesInput(stages: readonly StageForm[]): ReviewPeriodTemplateStageInput[] | null {
  const [first] = stages;
  if (stages.length === 1 && first && first.name.trim() === DEFAULT_STAGE_NAME && !first.endDays.trim()) return null;
  return stages.map((s, i) => ({
    name: s.name.trim(),
    reviewerType: i === 0 ? 'CRITERIA' : s.reviewers,
    ...(i > 0 && s.reviewers === 'USERS' ? { userIds: [...s.userIds] } : {}),
    ...(i > 0 ? { passOn: s.passOn } : {}),
    // Not a whole number: sent as it is read (NaN → -1), so the server names the stage and the rule.
    endDays: s.endDays.trim() ? (Number.isInteger(Number(s.endDays)) ? Number(s.endDays) : -1) : null,
  }));
}

/** A template's stages as the dialog holds them (a template shows its stages, the default one included). */
export function templateStagesForm(
  stages: readonly { name: string; reviewerType: string; reviewers: readonly { id: string }[]; passOn: string; endDays: number | null | undefined }[],
): readonly StageForm[] {
  if (!stages.length) return DEFAULT_STAGES;
  return stages.map((s, key) => ({
    ...NEW_STAGE,
    key,
    name: s.name,
    reviewers: s.reviewerType === 'PROCESS_OWNER' ? 'PROCESS_OWNER' : 'USERS',
    userIds: s.reviewers.map((u) => u.id),
    passOn: s.passOn as PassOn,
    endDays: s.endDays == null ? '' : String(s.endDays),
  }));
}

const useStyles = makeStyles({
  stage: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    minWidth: 0,
    margin: 0,
    padding: tokens.spacingHorizontalM,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  legend: { padding: `0 ${tokens.spacingHorizontalXS}`, fontWeight: tokens.fontWeightSemibold },
  fields: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: tokens.spacingHorizontalM, minWidth: 0 },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  picker: { minWidth: 0, maxWidth: '100%' },
});

/** The 'Stages' section: the stages and how to add and remove them (at most 3; stage 1 stays). */
export function PeriodStages({
  stages,
  onChange,
  deadline = 'date',
}: {
  stages: readonly StageForm[];
  onChange: (stages: readonly StageForm[]) => void;
  deadline?: StageDeadline;
}) {
  const styles = useStyles();
  const section = useDialogSectionStyles();
  // The reviewers to choose from load once a later stage is reviewed by listed users.
  const [reviewersRef, loadReviewers] = useQueryLoader<PeriodStagesReviewersQuery>(reviewersQuery);
  const wantsUsers = stages.some((s, i) => i > 0 && s.reviewers === 'USERS');
  useEffect(() => {
    if (wantsUsers && !reviewersRef) loadReviewers({}, { fetchPolicy: 'store-or-network' });
  }, [wantsUsers, reviewersRef, loadReviewers]);
  const change = (key: number, patch: Partial<StageForm>) => onChange(stages.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  // A removed stage takes its focused button with it: focus goes on to 'Add Stage', not to the page.
  const addButton = useRef<HTMLButtonElement>(null);
  const [removals, setRemovals] = useState(0);
  useEffect(() => {
    if (removals) addButton.current?.focus();
  }, [removals]);
  const remove = (key: number) => {
    onChange(stages.filter((x) => x.key !== key));
    setRemovals((n) => n + 1);
  };
  const add = () => {
    const key = Math.max(...stages.map((s) => s.key)) + 1;
    onChange([...stages, { ...NEW_STAGE, key, name: '' }]);
  };
  return (
    <section className={section.section} aria-labelledby="period-stages-title">
      <Subtitle2 as="h3" id="period-stages-title" className={section.title}>
        Stages
      </Subtitle2>
      <Caption1 className={section.muted}>
        Stage 1 is reviewed by the assignment criteria. Add up to two later stages: their reviewers confirm or overturn the decisions passed on to them.
      </Caption1>
      {stages.map((s, i) => (
        <StageFields
          key={s.key}
          stage={s}
          number={i + 1}
          deadline={deadline}
          reviewersRef={reviewersRef}
          onChange={(patch) => change(s.key, patch)}
          onRemove={i > 0 ? () => remove(s.key) : undefined}
        />
      ))}
      {stages.length < MAX_STAGES ? (
        <div className={styles.actions}>
          <Button ref={addButton} icon={<Add20Regular />} onClick={add}>
            Add Stage
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function StageFields({
  stage: s,
  number,
  deadline,
  reviewersRef,
  onChange,
  onRemove,
}: {
  stage: StageForm;
  number: number;
  deadline: StageDeadline;
  reviewersRef: PreloadedQuery<PeriodStagesReviewersQuery> | null | undefined;
  onChange: (patch: Partial<StageForm>) => void;
  onRemove?: () => void;
}) {
  const styles = useStyles();
  const section = useDialogSectionStyles();
  const label = `Stage ${number}`;
  const loadingReviewers = <Spinner size="tiny" label="Loading reviewers..." />;
  return (
    <fieldset className={styles.stage} aria-label={label}>
      <legend className={styles.legend}>{label}</legend>
      <div className={styles.fields}>
        <Field label="Stage name" required>
          <Input value={s.name} maxLength={60} onChange={(_, d) => onChange({ name: d.value })} />
        </Field>
        {deadline === 'date' ? (
          <Field label="Deadline" hint="Optional">
            <Input type="date" value={s.endDate} onChange={(_, d) => onChange({ endDate: d.value })} />
          </Field>
        ) : (
          <Field label="Deadline (days after the period opens)" hint="Optional">
            <Input type="number" min={1} max={366} value={s.endDays} onChange={(_, d) => onChange({ endDays: d.value })} />
          </Field>
        )}
      </div>
      {number === 1 ? (
        <Text>Who reviews: the assignment criteria (each reviewer gets their assigned conflicts).</Text>
      ) : (
        <>
          <Field label="Who reviews">
            <RadioGroup layout="horizontal" value={s.reviewers} onChange={(_, d) => onChange({ reviewers: d.value as LaterReviewers })}>
              <Radio value="USERS" label="Users" />
              <Radio value="PROCESS_OWNER" label="Business process owner" />
            </RadioGroup>
          </Field>
          {s.reviewers === 'USERS' ? (
            reviewersRef ? (
              <Suspense fallback={loadingReviewers}>
                <StageReviewersPicker queryRef={reviewersRef} userIds={s.userIds} onChange={(userIds) => onChange({ userIds })} />
              </Suspense>
            ) : (
              loadingReviewers
            )
          ) : (
            <Caption1 className={section.muted}>The owners of each conflict&apos;s business process (Admin Settings) review it.</Caption1>
          )}
          <Field label="Passes on" hint={`Which of stage ${number - 1}'s decisions reach this stage`}>
            <Select value={s.passOn} onChange={(_, d) => onChange({ passOn: d.value as PassOn })}>
              <SelectOptions options={PASS_ON_OPTIONS} />
            </Select>
          </Field>
          <div className={styles.actions}>
            <Button icon={<Delete20Regular />} appearance="subtle" onClick={onRemove}>
              {`Remove ${label}`}
            </Button>
          </div>
        </>
      )}
    </fieldset>
  );
}

/** The active reviewers to choose a stage's fixed list from (several can be chosen). */
function StageReviewersPicker({
  queryRef,
  userIds,
  onChange,
}: {
  queryRef: PreloadedQuery<PeriodStagesReviewersQuery>;
  userIds: readonly string[];
  onChange: (ids: readonly string[]) => void;
}) {
  const styles = useStyles();
  const data = usePreloadedQuery<PeriodStagesReviewersQuery>(reviewersQuery, queryRef);
  const users = (data.users?.edges ?? []).flatMap((e) => (e?.node ? [e.node] : []));
  const name = (u: (typeof users)[number]) => (u.displayName ? `${u.displayName} (${u.email})` : u.email);
  const chosen = users.filter((u) => userIds.includes(u.id));
  return (
    <Field label="Reviewers" required hint={chosen.length ? undefined : 'Choose at least one reviewer'}>
      <Combobox
        className={styles.picker}
        multiselect
        // The options inside the dialog (not a portal beside it), so the dialog's modal focus and reading order include them.
        inlinePopup
        placeholder={users.length ? 'Choose reviewers' : 'No active reviewers'}
        value={chosen.map(name).join(', ')}
        selectedOptions={[...userIds]}
        onOptionSelect={(_, d) => onChange(d.selectedOptions)}
      >
        {users.map((u) => (
          <Option key={u.id} value={u.id} text={name(u)}>
            {name(u)}
          </Option>
        ))}
      </Combobox>
    </Field>
  );
}
