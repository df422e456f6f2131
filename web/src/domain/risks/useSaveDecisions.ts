// The one save-decisions mutation of the risk lists (a row's Retain / Remove
// in the risk queue and in My Assigned Risks, and the batch buttons of both):
// the SPEC's 'No Risks Selected' rule, the store update of each row's
// decision from the result, and the toasts.
import { graphql, useMutation } from 'react-relay';
import type { RecordSourceSelectorProxy } from 'relay-runtime';
import type { DecisionValue, useSaveDecisionsMutation } from '../../__generated__/useSaveDecisionsMutation.graphql';
import { refusalOf, thrownMessage, type Refusal } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';

const saveDecisionsMutation = graphql`
  mutation useSaveDecisionsMutation($decisions: [DecisionInput!]!) {
    saveDecisions(decisions: $decisions) {
      __typename
      ... on MutationSaveDecisionsSuccess {
        data {
          saved
        }
      }
      ... on Error {
        message
      }
      ... on BaseError {
        code
      }
      ... on ValidationError {
        code
        field
      }
    }
  }
`;

/** The server refused a removal for want of a comment: the rule's refusal names the `comments` field (services/review/decisions.ts checkDecisionRule). */
export const needsRemovalComment = (refusal: Refusal) => refusal.code === 'BAD_USER_INPUT' && refusal.field === 'comments';

/** A decision to save: the schema's DecisionValue enum, as Relay generates it. */
export type Decision = Exclude<DecisionValue, '%future added value'>;

/** A decision's comment, and for a mitigation its control and expiry (an ISO date-time). */
export type DecisionDetails = { comments?: string | null; mitigationControl?: string | null; mitigationExpiresAt?: string | null };

export type SaveDecisionsRequest = {
  rowIds: readonly string[];
  decision: Decision;
  details?: DecisionDetails;
  /** A refusal the caller handles itself (e.g. asks for a required comment): return true and no toast shows. */
  onRefused?: (refusal: Refusal) => boolean;
  /** The 'Decision Submitted' toast's text, given how many rows the server saved. */
  describe: (saved: number) => string;
  /**
   * Shows the decision on the rows at once; a failed save puts back
   * `previous` (the queue's switch).
   */
  optimistic?: { previous: string | null };
  /** Further store changes a successful save implies (e.g. My Assigned Risks' tiles). */
  onSavedInStore?: (store: RecordSourceSelectorProxy) => void;
  onSaved?: () => void;
};

export function useSaveDecisions(): [save: (request: SaveDecisionsRequest) => void, saving: boolean] {
  const [commit, saving] = useMutation<useSaveDecisionsMutation>(saveDecisionsMutation);
  const notify = useNotify();
  const save = ({ rowIds, decision, details, onRefused, describe, optimistic, onSavedInStore, onSaved }: SaveDecisionsRequest) => {
    if (rowIds.length === 0) {
      notify({ title: 'No Risks Selected', description: 'Please select risks to make decisions on', intent: 'warning' });
      return;
    }
    const fail = (message?: string) => notify({ title: 'Save Failed', description: message || 'Failed to save changes. Please try again.', intent: 'error' });
    commit({
      variables: { decisions: rowIds.map((riskRowId) => ({ riskRowId, decision, ...details })) },
      optimisticUpdater: optimistic
        ? (store) => {
            for (const id of rowIds) store.get(id)?.setValue(decision, 'myDecision');
          }
        : undefined,
      updater: (store, response) => {
        const ok = response?.saveDecisions.__typename === 'MutationSaveDecisionsSuccess';
        if (!ok) {
          if (optimistic) for (const id of rowIds) store.get(id)?.setValue(optimistic.previous, 'myDecision');
          return;
        }
        for (const id of rowIds) store.get(id)?.setValue(decision, 'myDecision');
        onSavedInStore?.(store);
      },
      onCompleted: ({ saveDecisions: r }) => {
        if (r.__typename !== 'MutationSaveDecisionsSuccess') {
          const refusal = refusalOf(r);
          if (refusal.message && onRefused?.(refusal)) return;
          return fail(refusal.message);
        }
        notify({ title: 'Decision Submitted', description: describe(r.data?.saved ?? rowIds.length), intent: 'success' });
        onSaved?.();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };
  return [save, saving];
}
