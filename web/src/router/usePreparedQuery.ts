import { useCallback, useTransition } from 'react';
import { useQueryLoader, useRelayEnvironment, type PreloadedQuery } from 'react-relay';
import type { FetchPolicy, GraphQLTaggedNode, OperationType } from 'relay-runtime';

/**
 * A route's query as its loader prepared it (ARCHITECTURE.md, Web: queries
 * at route roots, loaded before render). The screen owns the reference from
 * then on (Relay releases it when the screen goes), and loads it again
 * itself when the user changes its variables (search, filters, paging):
 * `load` runs in a transition, so the current results stay on screen while
 * the next ones load (`isPending`); `refetch` reloads the current variables
 * from the network. `queryRef` is null until a reference for the store on
 * screen exists (a loader runs again when the session changes).
 */
export function usePreparedQuery<T extends OperationType>(query: GraphQLTaggedNode, prepared: PreloadedQuery<T> | null | undefined) {
  const environment = useRelayEnvironment();
  const initial = prepared != null && prepared.environment === environment ? prepared : null;
  const [queryRef, loadQuery] = useQueryLoader<T>(query, initial);
  const [isPending, startTransition] = useTransition();

  const load = useCallback(
    (variables: T['variables'], fetchPolicy: FetchPolicy = 'store-and-network') => startTransition(() => loadQuery(variables, { fetchPolicy })),
    [loadQuery],
  );
  const variables = queryRef?.variables;
  const refetch = useCallback(() => {
    if (variables != null) load(variables, 'network-only');
  }, [load, variables]);
  return { queryRef, isPending, load, refetch };
}
