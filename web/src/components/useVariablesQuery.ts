import { useCallback, useEffect, useRef, useTransition } from 'react';
import { useQueryLoader } from 'react-relay';
import type { GraphQLTaggedNode, OperationType } from 'relay-runtime';

/**
 * Loads a query whenever its variables change: the first load suspends (the
 * page's loading state), later ones run in a transition so the current
 * results stay on screen while the next load (`isPending`). `refetch` reloads
 * the same variables from the network.
 */
export function useVariablesQuery<T extends OperationType>(query: GraphQLTaggedNode, variables: T['variables']) {
  const [queryRef, loadQuery] = useQueryLoader<T>(query);
  const [isPending, startTransition] = useTransition();
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      loadQuery(variables, { fetchPolicy: 'store-and-network' });
      return;
    }
    startTransition(() => loadQuery(variables, { fetchPolicy: 'store-and-network' }));
  }, [loadQuery, variables]);

  const refetch = useCallback(
    () => startTransition(() => loadQuery(variables, { fetchPolicy: 'network-only' })),
    [loadQuery, variables],
  );
  return { queryRef, isPending, refetch };
}
