import { Body1, Field, Select, Textarea, useId } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { graphql, useMutation, useRelayEnvironment } from 'react-relay';
import { fetchQuery } from 'relay-runtime';
import type { ReassignDialogMutation } from '../../__generated__/ReassignDialogMutation.graphql';
import type { ReassignDialogReviewersQuery, ReassignDialogReviewersQuery$data } from '../../__generated__/ReassignDialogReviewersQuery.graphql';
import { FormDialog, useFailureToast, useFormStyles } from '../../components/forms/FormDialog';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';

// Who the work can go to: a lookup the dialog makes when it opens.
const reviewersQuery = graphql`
  query ReassignDialogReviewersQuery {
    reassignmentReviewers {
      id
      name
    }
  }
`;

const mutation = graphql`
  mutation ReassignDialogMutation($input: ReassignWorkInput!) {
    reassignWork(input: $input) {
      __typename
      ... on MutationReassignWorkSuccess {
        data {
          id
          toReviewer
          criterion {
            ...AssignmentRow_assignment
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/** What moves: an assignment criterion, or single items (global ids), from a named reviewer when given. */
export type ReassignTarget = { criteriaId?: string; items?: readonly string[]; riskRowIds?: readonly string[]; fromReviewerId?: string };

type Reviewers = ReassignDialogReviewersQuery$data['reassignmentReviewers'];

/**
 * The 'Reassign Work' dialog: the reviewer to take the
 * work over and a note for them (in their notification and e-mail). Mounted
 * while open.
 */
export function ReassignDialog({
  target,
  what,
  excludeReviewerId,
  onClose,
  onDone,
}: {
  target: ReassignTarget;
  /** What is moved, in words ('SYSTEM: SAP ERP', '3 selected items'). */
  what: string;
  /** The current holder, left out of the picker. */
  excludeReviewerId?: string;
  onClose: () => void;
  onDone?: () => void;
}) {
  const styles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Reassignment Failed', 'Failed to reassign the work');
  const environment = useRelayEnvironment();
  const [reviewers, setReviewers] = useState<Reviewers | null>(null);
  const [toReviewerId, setToReviewerId] = useState('');
  const [note, setNote] = useState('');
  const [commit, inFlight] = useMutation<ReassignDialogMutation>(mutation);
  const introId = useId('reassign-what');

  useEffect(() => {
    const sub = fetchQuery<ReassignDialogReviewersQuery>(environment, reviewersQuery, {}, { fetchPolicy: 'network-only' }).subscribe({
      next: (d) => setReviewers(d.reassignmentReviewers.filter((r) => r.id !== excludeReviewerId)),
      error: (e: unknown) => {
        console.error('Failed to load reviewers', e);
        setReviewers([]);
      },
    });
    return () => sub.unsubscribe();
  }, [environment, excludeReviewerId]);

  const onSubmit = () => {
    if (!toReviewerId) {
      notify({ title: 'Missing Information', description: 'Please choose the reviewer to reassign to', intent: 'error' });
      return;
    }
    commit({
      variables: {
        input: {
          criteriaId: target.criteriaId ?? null,
          items: target.items ? [...target.items] : null,
          riskRowIds: target.riskRowIds ? [...target.riskRowIds] : null,
          fromReviewerId: target.fromReviewerId ?? null,
          toReviewerId,
          note: note.trim() || null,
        },
      },
      onCompleted: ({ reassignWork: r }) => {
        if (r.__typename !== 'MutationReassignWorkSuccess') return fail(errorMessage(r));
        notify({ title: 'Work Reassigned', description: r.data ? `${what} now with ${r.data.toReviewer}.` : undefined, intent: 'success' });
        onClose();
        onDone?.();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  return (
    <FormDialog
      title="Reassign Work"
      submitLabel="Reassign"
      busyLabel="Reassigning..."
      busy={inFlight}
      onSubmit={onSubmit}
      onClose={onClose}
      describedBy={introId}
    >
      <Body1 id={introId} className={styles.intro}>
        Move {what} to another reviewer. Decisions already made stay with their author.
      </Body1>
      <Field label="New Reviewer" required>
        <Select value={toReviewerId} onChange={(_, d) => setToReviewerId(d.value)}>
          <option value="" disabled>
            {reviewers == null ? 'Loading reviewers...' : reviewers.length ? 'Select a reviewer' : 'No other active reviewers'}
          </option>
          {(reviewers ?? []).map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Note" hint="Optional: told to the new reviewer in their notification and e-mail.">
        <Textarea value={note} onChange={(_, d) => setNote(d.value)} maxLength={2000} resize="vertical" />
      </Field>
    </FormDialog>
  );
}
