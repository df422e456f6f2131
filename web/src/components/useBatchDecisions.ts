// Saves one decision on several risk rows at once (the batch buttons of the
// risk queue and of My Assigned Risks): the SPEC's 'No Risks Selected' rule,
// the store update of each row's decision, and the toasts.
import { graphql, useMutation } from 'react-relay';
import type { useBatchDecisionsMutation } from '../__generated__/useBatchDecisionsMutation.graphql';
import { errorMessage, thrownMessage } from './mutationResult';
import { useNotify } from './toast';

const batchMutation = graphql`
  mutation useBatchDecisionsMutation($decisions: [DecisionInput!]!) {
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
    }
  }
`;

export function useBatchDecisions(onSaved: () => void): [decide: (rowIds: readonly string[], decision: 'retain' | 'remove') => void, saving: boolean] {
  const [commit, saving] = useMutation<useBatchDecisionsMutation>(batchMutation);
  const notify = useNotify();
  const decide = (chosen: readonly string[], decision: 'retain' | 'remove') => {
    if (chosen.length === 0) {
      notify({ title: 'No Risks Selected', description: 'Please select risks to make decisions on', intent: 'warning' });
      return;
    }
    const fail = (message?: string) =>
      notify({ title: 'Save Failed', description: message || 'Failed to save changes. Please try again.', intent: 'error' });
    commit({
      variables: { decisions: chosen.map((riskRowId) => ({ riskRowId, decision })) },
      updater: (store, response) => {
        if (response?.saveDecisions.__typename !== 'MutationSaveDecisionsSuccess') return;
        for (const id of chosen) store.get(id)?.setValue(decision, 'myDecision');
      },
      onCompleted: ({ saveDecisions: r }) => {
        if (r.__typename !== 'MutationSaveDecisionsSuccess') return fail(errorMessage(r));
        const n = r.data?.saved ?? chosen.length;
        notify({
          title: 'Decision Submitted',
          description: `${n} ${n === 1 ? 'risk' : 'risks'} marked ${decision === 'retain' ? 'Retain' : 'Remove'}.`,
          intent: 'success',
        });
        onSaved();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };
  return [decide, saving];
}
