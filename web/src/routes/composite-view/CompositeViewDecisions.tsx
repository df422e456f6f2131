// Decisions from the composite-role view (SPEC §4): a role defaults to retain
// and toggles; changes are saved 2 seconds after the last one, all pending
// changes batched into one submission. The saved result (users, risk groups
// and roles it touched, as the server now sees them) updates the store by id,
// so every place showing one of them follows without a refetch.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { CompositeViewDecisionsSaveMutation } from '../../__generated__/CompositeViewDecisionsSaveMutation.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import type { Decision, DecisionDetails } from '../../domain/risks/useSaveDecisions';

/** SPEC §9: decision save debounce. */
export const DECISION_SAVE_DEBOUNCE_MS = 2000;

export type RoleDecision = Decision;

type Change = { userId: string; compositeBusinessRole: string; decision: RoleDecision; details?: DecisionDetails; state: 'queued' | 'saving' };

type DecisionsContextValue = {
  /** The unsaved (or being saved) decision on a user's role, if any. */
  pending: (userId: string, compositeBusinessRole: string) => Change | undefined;
  /** With details (a mitigation: control, expiry, comment), saved at once rather than debounced. */
  decide: (userId: string, compositeBusinessRole: string, decision: RoleDecision, details?: DecisionDetails) => void;
  /** Every unsaved (or being saved) decision on a user's roles. */
  pendingFor: (userId: string) => Change[];
};

const DecisionsContext = createContext<DecisionsContextValue | null>(null);
const LockedContext = createContext(false);

const keyOf = (userId: string, role: string) => JSON.stringify([userId, role]);

const saveMutation = graphql`
  mutation CompositeViewDecisionsSaveMutation($decisions: [CompositeRoleDecisionInput!]!) {
    saveCompositeRoleDecisions(decisions: $decisions) {
      __typename
      ... on MutationSaveCompositeRoleDecisionsSuccess {
        data {
          saved
          users {
            id
            totalRisks
            highRisks
            decidedRisks
            allDecided
          }
          riskGroups {
            id
            totalRisks
            decidedRisks
            allDecided
          }
          roles {
            id
            decision
            conflictCount
            decidedCount
            allDecided
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/** Holds the composite view's pending decisions and saves them, debounced and batched. */
export function CompositeViewDecisionsProvider({ children, onSaved }: { children: ReactNode; onSaved?: () => void }) {
  const notify = useNotify();
  const [commit] = useMutation<CompositeViewDecisionsSaveMutation>(saveMutation);
  const [changes, setChanges] = useState<ReadonlyMap<string, Change>>(new Map());
  const changesRef = useRef(changes);
  changesRef.current = changes;
  const timer = useRef<number | null>(null);
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;

  const flush = useCallback(() => {
    if (timer.current != null) {
      window.clearTimeout(timer.current);
      timer.current = null;
    }
    const batch = [...changesRef.current.entries()].filter(([, c]) => c.state === 'queued');
    if (!batch.length) return;
    const sent = new Map(batch.map(([k, c]) => [k, { ...c, state: 'saving' as const }]));
    setChanges((prev) => new Map([...prev, ...sent]));
    // Drops the changes of this batch that were not changed again meanwhile.
    const settle = () =>
      setChanges((prev) => {
        const next = new Map(prev);
        for (const [k, c] of sent) {
          const now = next.get(k);
          if (now && now.state === 'saving' && now.decision === c.decision) next.delete(k);
        }
        return next;
      });
    const fail = (message?: string) => {
      settle();
      notify({ title: 'Save Failed', description: message || 'Failed to save changes. Please try again.', intent: 'error' });
    };
    commit({
      variables: {
        decisions: [...sent.values()].map((c) => ({ userId: c.userId, compositeBusinessRole: c.compositeBusinessRole, decision: c.decision, ...c.details })),
      },
      onCompleted: ({ saveCompositeRoleDecisions: r }) => {
        if (r.__typename !== 'MutationSaveCompositeRoleDecisionsSuccess') return fail(errorMessage(r));
        settle();
        onSavedRef.current?.();
        const n = sent.size;
        const rows = r.data?.saved ?? 0;
        notify({
          title: 'Decision Submitted',
          description: `${n} composite role ${n === 1 ? 'decision' : 'decisions'} saved (${rows} ${rows === 1 ? 'risk' : 'risks'}).`,
          intent: 'success',
        });
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  }, [commit, notify]);

  const decide = useCallback(
    (userId: string, compositeBusinessRole: string, decision: RoleDecision, details?: DecisionDetails) => {
      const next = new Map(changesRef.current).set(keyOf(userId, compositeBusinessRole), { userId, compositeBusinessRole, decision, details, state: 'queued' });
      changesRef.current = next;
      setChanges(next);
      if (timer.current != null) window.clearTimeout(timer.current);
      // A mitigation was confirmed in its dialog: saved now, with whatever else is waiting.
      if (details) return flush();
      timer.current = window.setTimeout(() => {
        timer.current = null;
        flush();
      }, DECISION_SAVE_DEBOUNCE_MS);
    },
    [flush],
  );

  // Leaving the view saves what is still waiting.
  const flushRef = useRef(flush);
  flushRef.current = flush;
  useEffect(() => () => flushRef.current(), []);

  const value = useMemo<DecisionsContextValue>(
    () => ({
      pending: (userId, role) => changes.get(keyOf(userId, role)),
      pendingFor: (userId) => [...changes.values()].filter((c) => c.userId === userId),
      decide,
    }),
    [changes, decide],
  );
  return <DecisionsContext.Provider value={value}>{children}</DecisionsContext.Provider>;
}

export function useRoleDecisions(): DecisionsContextValue {
  const v = useContext(DecisionsContext);
  if (v == null) throw new Error('useRoleDecisions must be used inside <CompositeViewDecisionsProvider>');
  return v;
}

/** Whether decisions are locked (no active review period). */
export const CompositeViewLocked = LockedContext.Provider;
export function useDecisionsLocked(): boolean {
  return useContext(LockedContext);
}
