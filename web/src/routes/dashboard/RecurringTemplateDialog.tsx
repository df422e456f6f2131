import { Field, Input, MessageBar, MessageBarBody, Select, Textarea } from '@fluentui/react-components';
import { useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { RecurringTemplateDialogCreateMutation } from '../../__generated__/RecurringTemplateDialogCreateMutation.graphql';
import type { RecurringTemplateDialogUpdateMutation } from '../../__generated__/RecurringTemplateDialogUpdateMutation.graphql';
import { failureOf, FormDialog, SelectOptions, useFailureToast, useFormStyles, useFieldErrors } from '../../components/forms/FormDialog';
import { thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import type { Template } from './RecurringPeriods';
import { PeriodStages, templateStagesForm, templateStagesInput, type StageForm } from './PeriodStages';

// Both mutations answer every field the Recurring section reads, so the list shows the change at once.
const createMutation = graphql`
  mutation RecurringTemplateDialogCreateMutation($input: CreateReviewPeriodTemplateInput!) {
    createReviewPeriodTemplate(input: $input) {
      __typename
      ... on MutationCreateReviewPeriodTemplateSuccess {
        data {
          id
          namePattern
          description
          durationDays
          reminderDaysBefore
          defaultDecisionAtClose
          schedule
          cron
          nextRunAt
          nextPeriodName
          status
          statusText
          stages {
            name
            reviewerType
            reviewers {
              id
            }
            passOn
            endDays
          }
        }
      }
      ... on ValidationError {
        field
      }
      ... on Error {
        message
      }
    }
  }
`;

const updateMutation = graphql`
  mutation RecurringTemplateDialogUpdateMutation($id: ID!, $input: UpdateReviewPeriodTemplateInput!) {
    updateReviewPeriodTemplate(id: $id, input: $input) {
      __typename
      ... on MutationUpdateReviewPeriodTemplateSuccess {
        data {
          id
          namePattern
          description
          durationDays
          reminderDaysBefore
          defaultDecisionAtClose
          schedule
          cron
          nextRunAt
          nextPeriodName
          status
          statusText
          stages {
            name
            reviewerType
            reviewers {
              id
            }
            passOn
            endDays
          }
        }
      }
      ... on ValidationError {
        field
      }
      ... on Error {
        message
      }
    }
  }
`;

type Schedule = 'MONTHLY' | 'QUARTERLY' | 'YEARLY' | 'CRON';
type DefaultAtClose = 'PENDING' | 'RETAIN' | 'REMOVE';
type Form = {
  namePattern: string;
  description: string;
  duration: string;
  reminders: string;
  defaultDecisionAtClose: DefaultAtClose;
  schedule: Schedule;
  cron: string;
  stages: readonly StageForm[];
};
type FieldName = 'namePattern' | 'durationDays' | 'reminderDaysBefore' | 'cron' | 'stages';
const FIELDS = ['namePattern', 'durationDays', 'reminderDaysBefore', 'cron', 'stages'] as const;

const SCHEDULE_OPTIONS = [
  { value: 'MONTHLY', label: 'Monthly (1st of each month)' },
  { value: 'QUARTERLY', label: 'Quarterly (1 Jan, Apr, Jul, Oct)' },
  { value: 'YEARLY', label: 'Yearly (1 January)' },
  { value: 'CRON', label: 'Cron expression' },
] as const;
const DEFAULT_AT_CLOSE_OPTIONS = [
  { value: 'PENDING', label: 'Leave pending' },
  { value: 'RETAIN', label: 'Retain' },
  { value: 'REMOVE', label: 'Remove' },
] as const;

function formOf(t: Template | null): Form {
  if (!t)
    return {
      namePattern: 'Q{quarter} {year} SoD review',
      description: '',
      duration: '30',
      reminders: '7, 1',
      defaultDecisionAtClose: 'PENDING',
      schedule: 'QUARTERLY',
      cron: '',
      stages: templateStagesForm([]),
    };
  return {
    namePattern: t.namePattern,
    description: t.description ?? '',
    duration: String(t.durationDays),
    reminders: t.reminderDaysBefore.join(', '),
    defaultDecisionAtClose: t.defaultDecisionAtClose as DefaultAtClose,
    schedule: t.schedule as Schedule,
    cron: t.cron ?? '',
    stages: templateStagesForm(t.stages),
  };
}

/** '7, 1' as [7, 1]; null when a part is not a whole number. */
function days(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map(Number);
  return parts.every(Number.isInteger) ? parts : null;
}

/** Creating or changing a recurring review period template; the server checks the pattern, schedule and numbers and names what is wrong. */
export function RecurringTemplateDialog({ template, open, onClose }: { template: Template | null; open: boolean; onClose: () => void }) {
  const formStyles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Error', 'Failed to save the recurring period. Please try again');
  const [form, setForm] = useState<Form>(() => formOf(template));
  const [shownFor, setShownFor] = useState(template);
  if (shownFor !== template) {
    setShownFor(template);
    setForm(formOf(template));
  }
  const { errors, setErrors, clearError, validation } = useFieldErrors<FieldName>();
  const [create, creating] = useMutation<RecurringTemplateDialogCreateMutation>(createMutation);
  const [update, updating] = useMutation<RecurringTemplateDialogUpdateMutation>(updateMutation);
  const set = <K extends keyof Form>(key: K, value: Form[K], field?: FieldName) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (field) clearError(field);
  };
  const close = () => {
    setErrors({});
    onClose();
  };

  const onSubmit = () => {
    const reminderDaysBefore = days(form.reminders);
    if (!reminderDaysBefore) return setErrors({ reminderDaysBefore: 'Enter whole numbers of days, separated by commas' });
    const durationDays = Number(form.duration);
    const input = {
      namePattern: form.namePattern,
      description: form.description.trim() || null,
      durationDays: Number.isInteger(durationDays) ? durationDays : -1,
      reminderDaysBefore,
      defaultDecisionAtClose: form.defaultDecisionAtClose,
      schedule: form.schedule,
      cron: form.schedule === 'CRON' ? form.cron : null,
      // Null: the one default stage (and, on a change, the template's stages cleared back to it).
      stages: templateStagesInput(form.stages),
    };
    const done = (r: { __typename: string }, success: string) => {
      if (r.__typename !== success) {
        const { message, field } = failureOf(r, FIELDS);
        if (field) setErrors({ [field]: message });
        return fail(message);
      }
      notify({ title: 'Success', description: template ? 'Recurring period saved' : 'Recurring period added', intent: 'success' });
      close();
    };
    if (template) {
      update({
        variables: { id: template.id, input },
        onCompleted: ({ updateReviewPeriodTemplate: r }) => done(r, 'MutationUpdateReviewPeriodTemplateSuccess'),
        onError: (e) => fail(thrownMessage(e)),
      });
    } else {
      create({
        variables: { input },
        updater: (store) => {
          const created = store.getRootField('createReviewPeriodTemplate')?.getLinkedRecord('data');
          if (!created) return;
          const root = store.getRoot();
          root.setLinkedRecords([...(root.getLinkedRecords('reviewPeriodTemplates') ?? []), created], 'reviewPeriodTemplates');
        },
        onCompleted: ({ createReviewPeriodTemplate: r }) => done(r, 'MutationCreateReviewPeriodTemplateSuccess'),
        onError: (e) => fail(thrownMessage(e)),
      });
    }
  };

  return (
    <FormDialog
      open={open}
      title={template ? 'Edit Recurring Review Period' : 'Add Recurring Review Period'}
      submitLabel={template ? 'Save' : 'Add'}
      busy={creating || updating}
      submitDisabled={!form.namePattern.trim()}
      onSubmit={onSubmit}
      onClose={close}
      size="medium"
    >
      <Field
        label="Name pattern"
        required
        hint="Filled in from each period's start: {year}, {quarter}, {month} (01–12), {monthName}."
        {...validation('namePattern')}
      >
        <Input value={form.namePattern} autoFocus onChange={(_, d) => set('namePattern', d.value, 'namePattern')} />
      </Field>
      <Field label="Description" hint="Optional">
        <Textarea value={form.description} resize="vertical" onChange={(_, d) => set('description', d.value)} />
      </Field>
      <div className={formStyles.rowNarrow}>
        <Field label="Schedule (UTC)">
          <Select value={form.schedule} onChange={(_, d) => set('schedule', d.value as Schedule, 'cron')}>
            <SelectOptions options={SCHEDULE_OPTIONS} />
          </Select>
        </Field>
        <Field label="Runs for (days)" required {...validation('durationDays')}>
          <Input type="number" min={1} max={366} value={form.duration} onChange={(_, d) => set('duration', d.value, 'durationDays')} />
        </Field>
      </div>
      {form.schedule === 'CRON' ? (
        <Field label="Cron expression" required hint="Five fields: minute hour day-of-month month day-of-week, e.g. 0 6 1 */2 *" {...validation('cron')}>
          <Input value={form.cron} onChange={(_, d) => set('cron', d.value, 'cron')} />
        </Field>
      ) : null}
      <Field label="Reminders (days before the end)" hint="For example 7, 1. Leave empty for no reminders." {...validation('reminderDaysBefore')}>
        <Input value={form.reminders} inputMode="numeric" onChange={(_, d) => set('reminders', d.value, 'reminderDaysBefore')} />
      </Field>
      <Field label="Items without a decision at close">
        <Select value={form.defaultDecisionAtClose} onChange={(_, d) => set('defaultDecisionAtClose', d.value as DefaultAtClose)}>
          <SelectOptions options={DEFAULT_AT_CLOSE_OPTIONS} />
        </Select>
      </Field>
      <PeriodStages deadline="days" stages={form.stages} onChange={(stages) => set('stages', stages, 'stages')} />
      {errors.stages ? (
        <MessageBar intent="error">
          <MessageBarBody>{errors.stages}</MessageBarBody>
        </MessageBar>
      ) : null}
    </FormDialog>
  );
}
