// The decision dialogs of the risk lists: a mitigation of the
// selected rows (control, expiry, justification), a comment the server
// requires for a removal, and 'Decide all N matching' (every row matching the
// current filters, after a confirmation). The rules are the server's: it
// refuses a missing comment or a switched-off bulk decision with a message,
// shown here.
import { Field, Input, makeStyles, Select, Text, Textarea, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { DecisionDialogsByFilterMutation, RiskFilterInput } from '../../__generated__/DecisionDialogsByFilterMutation.graphql';
import { FormDialog, useFormStyles } from '../../components/forms/FormDialog';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { decisionLabel } from './riskDisplay';
import type { Decision, DecisionDetails } from './useSaveDecisions';

const byFilterMutation = graphql`
  mutation DecisionDialogsByFilterMutation(
    $filter: RiskFilterInput
    $decision: DecisionValue!
    $comments: String
    $mitigationControl: String
    $mitigationExpiresAt: DateTime
  ) {
    decideByFilter(
      filter: $filter
      decision: $decision
      comments: $comments
      mitigationControl: $mitigationControl
      mitigationExpiresAt: $mitigationExpiresAt
    ) {
      __typename
      ... on MutationDecideByFilterSuccess {
        data {
          count
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const useStyles = makeStyles({
  error: { color: tokens.colorPaletteRedForeground1 },
});

export type { RiskFilterInput };

/** The fields of a decision: the comment, and for a mitigation the control and the expiry date. */
function DecisionFields({
  decision,
  details,
  onChange,
  commentRequired,
}: {
  decision: Decision;
  details: Required<DecisionDetails>;
  onChange: (patch: DecisionDetails) => void;
  commentRequired: boolean;
}) {
  const formStyles = useFormStyles();
  const mitigated = decision === 'RETAIN_MITIGATED';
  return (
    <>
      {mitigated ? (
        <div className={formStyles.rowNarrow}>
          <Field label="Mitigating control" hint="Leave empty to use each row's Control column from the export">
            <Input value={details.mitigationControl ?? ''} onChange={(_, d) => onChange({ mitigationControl: d.value })} maxLength={200} />
          </Field>
          <Field label="Control expires on" required>
            <Input
              type="date"
              min={new Date().toISOString().slice(0, 10)}
              value={details.mitigationExpiresAt ?? ''}
              onChange={(_, d) => onChange({ mitigationExpiresAt: d.value })}
            />
          </Field>
        </div>
      ) : null}
      <Field label="Justification comment" required={commentRequired}>
        <Textarea value={details.comments ?? ''} onChange={(_, d) => onChange({ comments: d.value })} maxLength={4000} resize="vertical" />
      </Field>
    </>
  );
}

const EMPTY: Required<DecisionDetails> = { comments: '', mitigationControl: '', mitigationExpiresAt: '' };

/** The details as the API takes them: empty fields left out, the date as midnight UTC. */
function detailsInput(decision: Decision, d: Required<DecisionDetails>): DecisionDetails {
  const mitigated = decision === 'RETAIN_MITIGATED';
  return {
    comments: d.comments?.trim() || null,
    mitigationControl: mitigated ? d.mitigationControl?.trim() || null : null,
    mitigationExpiresAt: mitigated && d.mitigationExpiresAt ? `${d.mitigationExpiresAt}T00:00:00.000Z` : null,
  };
}

const ready = (decision: Decision, d: Required<DecisionDetails>, commentRequired: boolean) =>
  (!commentRequired || Boolean(d.comments?.trim())) && (decision !== 'RETAIN_MITIGATED' || Boolean(d.mitigationExpiresAt));

/**
 * The details of one decision on the selected rows: a mitigation, or a
 * removal whose comment the server asked for. `onConfirm` saves.
 */
export function DecisionDetailsDialog({
  decision,
  count,
  intro,
  busy,
  onConfirm,
  onClose,
}: {
  decision: Decision;
  count: number;
  intro?: string;
  busy: boolean;
  onConfirm: (details: DecisionDetails) => void;
  onClose: () => void;
}) {
  const formStyles = useFormStyles();
  const [details, setDetails] = useState(EMPTY);
  const commentRequired = true;
  return (
    <FormDialog
      title={decision === 'RETAIN_MITIGATED' ? 'Retain with mitigating control' : `${decisionLabel(decision)} with a comment`}
      submitLabel={`${decisionLabel(decision)} (${count})`}
      busy={busy}
      submitDisabled={!ready(decision, details, commentRequired)}
      onSubmit={() => onConfirm(detailsInput(decision, details))}
      onClose={onClose}
      describedBy="decision-details-intro"
    >
      <Text id="decision-details-intro" className={formStyles.intro}>
        {intro ?? `${count} selected ${count === 1 ? 'risk' : 'risks'}.`}
      </Text>
      <DecisionFields decision={decision} details={details} onChange={(p) => setDetails((d) => ({ ...d, ...p }))} commentRequired={commentRequired} />
    </FormDialog>
  );
}

/** 'Decide all N matching': one decision on every row matching the list's current filters, after confirming. */
export function DecideAllDialog({
  filter,
  total,
  stage = 1,
  onDecided,
  onClose,
}: {
  filter: RiskFilterInput;
  total: number;
  /** Past stage 1 the decision confirms or overturns the stage before's on each row. */
  stage?: number;
  onDecided: () => void;
  onClose: () => void;
}) {
  const styles = useStyles();
  const formStyles = useFormStyles();
  const notify = useNotify();
  const [decision, setDecision] = useState<Decision>('RETAIN');
  const [details, setDetails] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [commit, busy] = useMutation<DecisionDialogsByFilterMutation>(byFilterMutation);
  // A removal's comment may be required too (an administrator's setting): the server says so, shown below.
  const commentRequired = decision === 'RETAIN_MITIGATED';
  const submit = () => {
    setError(null);
    commit({
      variables: { filter, decision, ...detailsInput(decision, details) },
      onCompleted: ({ decideByFilter: r }) => {
        if (r.__typename !== 'MutationDecideByFilterSuccess') return setError(errorMessage(r) ?? 'Failed to save changes. Please try again.');
        const n = r.data?.count ?? 0;
        notify({ title: 'Decision Submitted', description: `${n} ${n === 1 ? 'risk' : 'risks'} marked ${decisionLabel(decision)}.`, intent: 'success' });
        onDecided();
      },
      onError: (e) => setError(thrownMessage(e) ?? 'Failed to save changes. Please try again.'),
    });
  };
  return (
    <FormDialog
      title="Decide all matching risks"
      submitLabel={`Decide all ${total} matching`}
      busyLabel="Saving..."
      busy={busy}
      submitDisabled={total === 0 || !ready(decision, details, commentRequired)}
      onSubmit={submit}
      onClose={onClose}
      describedBy="decide-all-intro"
    >
      <Text id="decide-all-intro" className={formStyles.intro}>
        Every one of the {total} risks matching the current search and filters gets this decision, not only the risks on this page.
        {stage > 1 ? ` It confirms or overturns stage ${stage - 1}'s decision on each of them; an overturn needs a comment.` : null}
      </Text>
      <Field label="Decision">
        <Select value={decision} onChange={(_, d) => setDecision(d.value as Decision)}>
          <option value="RETAIN">Retain</option>
          <option value="REMOVE">Remove</option>
          <option value="RETAIN_MITIGATED">Retain with mitigating control</option>
        </Select>
      </Field>
      <DecisionFields decision={decision} details={details} onChange={(p) => setDetails((d) => ({ ...d, ...p }))} commentRequired={commentRequired} />
      {error ? (
        <Text role="alert" className={styles.error}>
          {error}
        </Text>
      ) : null}
    </FormDialog>
  );
}
