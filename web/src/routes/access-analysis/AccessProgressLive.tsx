import { useMemo } from 'react';
import { graphql, useSubscription } from 'react-relay';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import type { AccessProgressLiveSubscription, AccessProgressLiveSubscription$data } from '../../__generated__/AccessProgressLiveSubscription.graphql';

// The event carries the extract's or run's own global id, so Relay writes its
// status, progress and error onto that record: the row showing it follows live.
const subscription = graphql`
  subscription AccessProgressLiveSubscription($id: ID!) {
    accessProgress(id: $id) {
      id
      status
      progress
      errorMessage
    }
  }
`;

export type AccessProgressEvent = AccessProgressLiveSubscription$data['accessProgress'];

/**
 * Follows an extract's load or a run (by its global id) while mounted; `onSettled`
 * hears the event that ends it (completed or failed), so the list can read the counts.
 */
export function AccessProgressLive({ id, onSettled }: { id: string; onSettled: (event: AccessProgressEvent) => void }) {
  const config = useMemo<GraphQLSubscriptionConfig<AccessProgressLiveSubscription>>(
    () => ({
      subscription,
      variables: { id },
      onNext: (data) => {
        const p = data?.accessProgress;
        if (p && p.status !== 'PROCESSING') onSettled(p);
      },
      onError: (error) => console.warn('Access progress subscription failed', error),
    }),
    [id, onSettled],
  );
  useSubscription<AccessProgressLiveSubscription>(config);
  return null;
}
