import { Field, Input, Select } from '@fluentui/react-components';
import { useState } from 'react';
import { graphql, useMutation, useRelayEnvironment } from 'react-relay';
import { fetchQuery } from 'relay-runtime';
import type { CreateAssignmentDialogMutation } from '../../__generated__/CreateAssignmentDialogMutation.graphql';
import type { CreateAssignmentDialogValuesQuery } from '../../__generated__/CreateAssignmentDialogValuesQuery.graphql';
import { FormDialog, SelectOptions, useFailureToast, useFormStyles } from '../../components/forms/FormDialog';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { SearchCombobox, type OptionLookup } from '../../components/lists/SearchCombobox';
import { CRITERIA_TYPE_OPTIONS, defaultAssignmentName, type CriteriaTypeValue } from '../risks/riskDisplay';
import { shownName } from '../users/userNames';
import { useNotify } from '../../components/forms/toast';

// The values of a type matching the text typed (for a reviewer: those they do not have yet).
const valuesQuery = graphql`
  query CreateAssignmentDialogValuesQuery($criteriaType: CriteriaType!, $reviewerId: ID, $search: String, $limit: Int!) {
    assignmentValues(criteriaType: $criteriaType, reviewerId: $reviewerId, search: $search, limit: $limit) {
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

export type ReviewerOption = { id: string; displayName: string; email: string };
/** Values offered per lookup. */
const VALUE_LOOKUP_SIZE = 20;
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
  const [commit, inFlight] = useMutation<CreateAssignmentDialogMutation>(mutation);

  // The value is searched on the server as you type (a thousand role
  // profiles are not listed whole); values the reviewer already has are left out.
  const lookUpValues: OptionLookup = (search, done) =>
    fetchQuery<CreateAssignmentDialogValuesQuery>(
      environment,
      valuesQuery,
      { criteriaType: form.criteriaType || 'RISK_ID', reviewerId: form.reviewerId || null, search: search || null, limit: VALUE_LOOKUP_SIZE },
      { fetchPolicy: 'network-only' },
    ).subscribe({
      next: (d) => done(d.assignmentValues),
      error: (e: unknown) => {
        // SPEC §8: a failed value lookup is logged and the list left empty.
        console.error('Failed to load assignment values', e);
        done([]);
      },
    });
  const chooseLookupField = (patch: Pick<Form, 'reviewerId'> | Pick<Form, 'criteriaType'>) => setForm((f) => ({ ...f, ...patch, criteriaValue: '' }));

  const close = () => {
    setForm(EMPTY);
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

  const valuePlaceholder = form.criteriaType ? 'Type to search values' : 'Choose a type first';
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
              {shownName(r.displayName)} ({r.email})
            </option>
          ))}
        </Select>
      </Field>
      <div className={styles.row}>
        <Field label="Assignment Type" required>
          <Select value={form.criteriaType} onChange={(_, d) => chooseLookupField({ criteriaType: d.value as CriteriaTypeValue })}>
            <SelectOptions options={CRITERIA_TYPE_OPTIONS} placeholder="Select a type" />
          </Select>
        </Field>
        <Field label="Value" required>
          <SearchCombobox
            key={`${form.criteriaType}:${form.reviewerId}`}
            lookup={lookUpValues}
            value={form.criteriaValue}
            disabled={!form.criteriaType}
            placeholder={valuePlaceholder}
            emptyText="No values available"
            onChange={(o) => setForm((f) => ({ ...f, criteriaValue: o?.value ?? '' }))}
          />
        </Field>
      </div>
      <Field label="Assignment Name" hint="Optional: left empty, the name is the type and the value.">
        <Input value={form.name} placeholder={namePlaceholder} onChange={(_, d) => setForm((f) => ({ ...f, name: d.value }))} />
      </Field>
    </FormDialog>
  );
}
