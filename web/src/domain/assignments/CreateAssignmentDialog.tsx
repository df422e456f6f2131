import { Field, Input, Select } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { graphql, useMutation, useRelayEnvironment } from 'react-relay';
import { fetchQuery, type Subscription } from 'relay-runtime';
import type { CreateAssignmentDialogMutation } from '../../__generated__/CreateAssignmentDialogMutation.graphql';
import type {
  CreateAssignmentDialogValuesQuery,
  CreateAssignmentDialogValuesQuery$data,
} from '../../__generated__/CreateAssignmentDialogValuesQuery.graphql';
import { FormDialog, SelectOptions, useFailureToast, useFormStyles } from '../../components/FormDialog';
import { errorMessage, thrownMessage } from '../../components/mutationResult';
import { CRITERIA_TYPE_OPTIONS, defaultAssignmentName, type CriteriaTypeValue } from '../risks/riskDisplay';
import { fullName } from '../users/userNames';
import { useNotify } from '../../components/toast';

// The value list for a type and reviewer: a lookup the dialog makes as the form changes.
const valuesQuery = graphql`
  query CreateAssignmentDialogValuesQuery($criteriaType: CriteriaType!, $reviewerId: ID) {
    assignmentValues(criteriaType: $criteriaType, reviewerId: $reviewerId) {
      value
      label
    }
  }
`;

const mutation = graphql`
  mutation CreateAssignmentDialogMutation($input: CreateAssignmentInput!, $connections: [ID!]!) {
    createAssignment(input: $input) {
      __typename
      ... on MutationCreateAssignmentSuccess {
        data @prependNode(connections: $connections, edgeTypeName: "QueryAssignmentCriteriaConnectionEdge") {
          id
          name
          criteriaType
          ...AssignmentRow_assignment
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

export type ReviewerOption = { id: string; firstName: string; lastName: string; email: string };
type Options = CreateAssignmentDialogValuesQuery$data['assignmentValues'];
type Form = { reviewerId: string; criteriaType: CriteriaTypeValue | ''; criteriaValue: string; name: string };
const EMPTY: Form = { reviewerId: '', criteriaType: '', criteriaValue: '', name: '' };

/** SPEC §2/§5: the 'Create Assignment' dialog. */
export function CreateAssignmentDialog({
  open,
  onOpenChange,
  reviewers,
  connectionId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  reviewers: ReviewerOption[];
  connectionId: string;
}) {
  const styles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Creation Failed', 'Failed to create assignment');
  const environment = useRelayEnvironment();
  const [form, setForm] = useState<Form>(EMPTY);
  const [options, setOptions] = useState<Options>([]);
  const [loadingValues, setLoadingValues] = useState(false);
  const [commit, inFlight] = useMutation<CreateAssignmentDialogMutation>(mutation);

  // The value list follows the type and the reviewer (values the reviewer already has are left out):
  // looked up when either changes, the previous lookup dropped.
  const lookup = useRef<Subscription | null>(null);
  useEffect(() => () => lookup.current?.unsubscribe(), []);
  const lookUpValues = (next: Form) => {
    lookup.current?.unsubscribe();
    lookup.current = null;
    if (!next.criteriaType) {
      setOptions([]);
      setLoadingValues(false);
      return;
    }
    setLoadingValues(true);
    lookup.current = fetchQuery<CreateAssignmentDialogValuesQuery>(
      environment,
      valuesQuery,
      { criteriaType: next.criteriaType, reviewerId: next.reviewerId || null },
      { fetchPolicy: 'network-only' },
    ).subscribe({
      next: (d) => {
        setOptions(d.assignmentValues);
        setLoadingValues(false);
      },
      error: (e: unknown) => {
        // SPEC §8: a failed value lookup is logged and the list left empty.
        console.error('Failed to load assignment values', e);
        setOptions([]);
        setLoadingValues(false);
      },
    });
  };
  const chooseLookupField = (patch: Pick<Form, 'reviewerId'> | Pick<Form, 'criteriaType'>) => {
    const next = { ...form, ...patch, criteriaValue: '' };
    setForm(next);
    lookUpValues(next);
  };

  const close = () => {
    setForm(EMPTY);
    lookUpValues(EMPTY);
    onOpenChange(false);
  };

  const onSubmit = () => {
    if (!form.reviewerId || !form.criteriaType || !form.criteriaValue) {
      notify({ title: 'Missing Information', description: 'Please fill in all required fields', intent: 'error' });
      return;
    }
    commit({
      variables: {
        input: {
          reviewerId: form.reviewerId,
          criteriaType: form.criteriaType,
          criteriaValue: form.criteriaValue,
          name: form.name.trim() || null,
        },
        connections: [connectionId],
      },
      onCompleted: ({ createAssignment: r }) => {
        if (r.__typename !== 'MutationCreateAssignmentSuccess') return fail(errorMessage(r));
        notify({ title: 'Assignment Created', description: r.data ? `'${r.data.name}' has been created.` : undefined, intent: 'success' });
        close();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  const valuePlaceholder = !form.criteriaType
    ? 'Choose a type first'
    : loadingValues
      ? 'Loading values...'
      : options.length === 0
        ? 'No values available'
        : 'Select a value';
  const namePlaceholder =
    form.criteriaType && form.criteriaValue
      ? defaultAssignmentName(form.criteriaType, form.criteriaValue)
      : form.criteriaType
        ? defaultAssignmentName(form.criteriaType, 'value')
        : 'TYPE: value';

  return (
    <FormDialog open={open} title="Create Assignment" submitLabel="Create Assignment" busy={inFlight} onSubmit={onSubmit} onClose={close}>
      <Field label="Reviewer" required>
        <Select value={form.reviewerId} onChange={(_, d) => chooseLookupField({ reviewerId: d.value })}>
          <option value="" disabled>
            {reviewers.length ? 'Select a reviewer' : 'No active reviewers'}
          </option>
          {reviewers.map((r) => (
            <option key={r.id} value={r.id}>
              {fullName(r.firstName, r.lastName)} ({r.email})
            </option>
          ))}
        </Select>
      </Field>
      <div className={styles.row}>
        <Field label="Assignment Type" required>
          <Select
            value={form.criteriaType}
            onChange={(_, d) => chooseLookupField({ criteriaType: d.value as CriteriaTypeValue })}
          >
            <SelectOptions options={CRITERIA_TYPE_OPTIONS} placeholder="Select a type" />
          </Select>
        </Field>
        <Field label="Value" required hint={loadingValues ? undefined : form.criteriaType ? `${options.length} available` : undefined}>
          <Select
            value={form.criteriaValue}
            disabled={loadingValues || options.length === 0}
            onChange={(_, d) => setForm((f) => ({ ...f, criteriaValue: d.value }))}
          >
            <SelectOptions options={options} placeholder={valuePlaceholder} />
          </Select>
        </Field>
      </div>
      <Field label="Assignment Name" hint="Optional: left empty, the name is the type and the value.">
        <Input value={form.name} placeholder={namePlaceholder} onChange={(_, d) => setForm((f) => ({ ...f, name: d.value }))} />
      </Field>
    </FormDialog>
  );
}
