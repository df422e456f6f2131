import { useMemo, useRef } from 'react';
import { useSubscription } from 'react-relay';
import type { GraphQLSubscriptionConfig, GraphQLTaggedNode, OperationType } from 'relay-runtime';

/**
 * Calls `onChanged` (a screen's reload) on each event of a subscription that
 * only says something changed, so the screen shows what the server holds
 * without a page reload. `what` names the subscription in the warning when it stops.
 */
export function useReloadOn<T extends OperationType>(subscription: GraphQLTaggedNode, what: string, onChanged: () => void): void {
  const latest = useRef(onChanged);
  latest.current = onChanged;
  const config = useMemo<GraphQLSubscriptionConfig<T>>(
    () => ({
      subscription,
      variables: {} as T['variables'],
      onNext: () => latest.current(),
      onError: (error) => console.warn(`The ${what} subscription stopped`, error),
    }),
    [subscription, what],
  );
  useSubscription<T>(config);
}
