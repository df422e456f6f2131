import { useEffect, useMemo, useRef } from 'react';
import { graphql, useRelayEnvironment, useSubscription } from 'react-relay';
import { useRevalidator } from 'react-router';
import type { GraphQLSubscriptionConfig, RecordSourceSelectorProxy } from 'relay-runtime';
import type { RiskDataPurgedListenerSubscription } from '../__generated__/RiskDataPurgedListenerSubscription.graphql';
import { refreshRouteData } from '../router/routeSession';

const subscription = graphql`
  subscription RiskDataPurgedListenerSubscription {
    riskDataPurged {
      purgedAt
    }
  }
`;

/**
 * SPEC §7 (DELETE /api/admin/purge-risk-data: 'all cached data is refreshed'):
 * when any administrator purges the risk data, every open page of every user
 * drops what its store holds and loads its queries again, without a reload.
 */
export function RiskDataPurgedListener() {
  const environment = useRelayEnvironment();
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  useEffect(() => {
    latest.current = revalidator;
  });
  const config = useMemo<GraphQLSubscriptionConfig<RiskDataPurgedListenerSubscription>>(
    () => ({
      subscription,
      variables: {},
      onNext: () => {
        // Relay's store proxy can invalidate (its types list it on the selector proxy only).
        environment.commitUpdate((store) => (store as RecordSourceSelectorProxy).invalidateStore());
        refreshRouteData();
        void latest.current.revalidate();
      },
      onError: (error) => console.warn('Purge subscription failed; pages refresh on their next load', error),
    }),
    [environment],
  );
  useSubscription<RiskDataPurgedListenerSubscription>(config);
  return null;
}
