import { Field, Input, MessageBar, MessageBarBody, Select, Textarea } from '@fluentui/react-components';
import { useMemo, useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { CreateReviewPeriodDialogMutation } from '../../__generated__/CreateReviewPeriodDialogMutation.graphql';
import { failureOf, FormDialog, SelectOptions, useFailureToast, useFieldErrors } from '../../components/forms/FormDialog';
import { thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { PeriodPreview } from './PeriodPreview';
import { DEFAULT_STAGES, endOfDay, PeriodStages, stagesInput, type StageForm } from './PeriodStages';

const mutation = graphql`
  mutation CreateReviewPeriodDialogMutation($input: CreateReviewPeriodInput!, $connections: [ID!]!) {
    createReviewPeriod(input: $input) {
      __typename
      ... on MutationCreateReviewPeriodSuccess {
        data @prependNode(connections: $connections, edgeTypeName: "QueryReviewPeriodsConnectionEdge") {
          id
          name
          description
          startDate
          endDate
          closedAt
          status
          reminderDaysBefore
          defaultDecisionAtClose
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

type DefaultAtClose = 'PENDING' | 'RETAIN' | 'REMOVE';
type Form = {
  name: string;
  description: string;
  endDate: string;
  reminders: string;
  defaultDecisionAtClose: DefaultAtClose;
  stages: readonly StageForm[];
};
const EMPTY: Form = { name: '', description: '', endDate: '', reminders: '7, 1', defaultDecisionAtClose: 'PENDING', stages: DEFAULT_STAGES };

const DEFAULT_AT_CLOSE_OPTIONS = [
  { value: 'PENDING', label: 'Leave pending' },
  { value: 'RETAIN', label: 'Retain' },
  { value: 'REMOVE', label: 'Remove' },
] as const;

const REMINDERS_INVALID = 'Enter whole numbers of days from 1 to 365, separated by commas';

/** '7, 1' as [7, 1]; null when it is not a list of whole days. */
function reminderDays(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const days = parts.map(Number);
  return days.every((d) => Number.isInteger(d) && d >= 1 && d <= 365) ? days : null;
}

type PeriodInput = CreateReviewPeriodDialogMutation['variables']['input'];

/** The period as the form would create it (and the preview shows it); null while it cannot be (no name, reminders not days). */
function periodInput(form: Form): PeriodInput | null {
  const days = form.endDate ? reminderDays(form.reminders) : [];
  if (!form.name.trim() || !days) return null;
  const stages = stagesInput(form.stages);
  return {
    name: form.name.trim(),
    description: form.description.trim() || null,
    endDate: form.endDate ? endOfDay(form.endDate) : null,
    reminderDaysBefore: days,
    defaultDecisionAtClose: form.defaultDecisionAtClose,
    // Left out for the one default stage: the period is created as it always was.
    ...(stages ? { stages } : {}),
  };
}

/** SPEC §2/§5: 'Create New Review Period' (creates and activates), with the preview of who reviews what. */
export function CreateReviewPeriodDialog({
  open,
  onOpenChange,
  connectionId,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  connectionId: string;
  onCreated: () => void;
}) {
  const notify = useNotify();
  const fail = useFailureToast('Error', 'Failed to create review period. Please try again');
  const [form, setForm] = useState<Form>(EMPTY);
  const { errors, setErrors, clearError, validation } = useFieldErrors<'name' | 'endDate' | 'reminderDaysBefore' | 'stages'>();
  const [commit, inFlight] = useMutation<CreateReviewPeriodDialogMutation>(mutation);

  const close = () => {
    setForm(EMPTY);
    setErrors({});
    onOpenChange(false);
  };

  const input = useMemo(() => periodInput(form), [form]);

  const onSubmit = () => {
    if (!form.name.trim()) return;
    if (!input) return setErrors({ reminderDaysBefore: REMINDERS_INVALID });
    commit({
      variables: { input, connections: [connectionId] },
      updater: (store) => {
        const period = store.getRootField('createReviewPeriod')?.getLinkedRecord('data');
        if (period) store.getRoot().setLinkedRecord(period, 'activeReviewPeriod');
      },
      onCompleted: ({ createReviewPeriod: r }) => {
        if (r.__typename !== 'MutationCreateReviewPeriodSuccess') {
          const { message, field } = failureOf(r, ['name', 'endDate', 'reminderDaysBefore', 'stages'] as const);
          if (field) setErrors({ [field]: message });
          return fail(message);
        }
        notify({ title: 'Success', description: 'Review period created and activated', intent: 'success' });
        close();
        onCreated();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  return (
    <FormDialog
      open={open}
      title="Create New Review Period"
      submitLabel="Create & Activate"
      busy={inFlight}
      submitDisabled={!form.name.trim()}
      onSubmit={onSubmit}
      onClose={close}
      size="medium"
    >
      <Field label="Name" required {...validation('name')}>
        <Input
          value={form.name}
          placeholder="e.g. Q3 2025 Access Review"
          autoFocus
          onChange={(_, d) => {
            setForm((f) => ({ ...f, name: d.value }));
            clearError('name');
          }}
        />
      </Field>
      <Field label="Description" hint="Optional">
        <Textarea value={form.description} resize="vertical" onChange={(_, d) => setForm((f) => ({ ...f, description: d.value }))} />
      </Field>
      <Field label="End Date" hint="Optional: reviewers with pending decisions are reminded as it nears." {...validation('endDate')}>
        <Input
          type="date"
          value={form.endDate}
          onChange={(_, d) => {
            setForm((f) => ({ ...f, endDate: d.value }));
            clearError('endDate');
          }}
        />
      </Field>
      {form.endDate ? (
        <Field label="Reminders (days before the end date)" hint="For example 7, 1. Leave empty for no reminders." {...validation('reminderDaysBefore')}>
          <Input
            value={form.reminders}
            inputMode="numeric"
            onChange={(_, d) => {
              setForm((f) => ({ ...f, reminders: d.value }));
              clearError('reminderDaysBefore');
            }}
          />
        </Field>
      ) : null}
      <Field label="Items without a decision at close" hint="What closing the period does to items nobody decided.">
        <Select value={form.defaultDecisionAtClose} onChange={(_, d) => setForm((f) => ({ ...f, defaultDecisionAtClose: d.value as DefaultAtClose }))}>
          <SelectOptions options={DEFAULT_AT_CLOSE_OPTIONS} />
        </Select>
      </Field>
      <PeriodStages
        stages={form.stages}
        onChange={(stages) => {
          setForm((f) => ({ ...f, stages }));
          clearError('stages');
        }}
      />
      {errors.stages ? (
        <MessageBar intent="error">
          <MessageBarBody>{errors.stages}</MessageBarBody>
        </MessageBar>
      ) : null}
      {open ? <PeriodPreview input={input} /> : null}
    </FormDialog>
  );
}
