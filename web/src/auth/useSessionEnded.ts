import { useMemo } from 'react';
import { graphql, useSubscription } from 'react-relay';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import type { useSessionEndedSubscription } from '../__generated__/useSessionEndedSubscription.graphql';
import { notifyUnauthenticated } from '../relay/errors';

const subscription = graphql`
  subscription useSessionEndedSubscription {
    viewerSessionEnded
  }
`;

/**
 * The server ends the viewer's sessions elsewhere (the account deactivated):
 * the open page signs out at once, as a request answered 'not signed in'
 * would (SPEC §8: 'Unauthorized', then the sign-in page).
 */
export function useSessionEnded(): void {
  const config = useMemo<GraphQLSubscriptionConfig<useSessionEndedSubscription>>(
    () => ({
      subscription,
      variables: {},
      onNext: () => notifyUnauthenticated('viewerSessionEnded'),
      onError: (error) => console.warn('The session-ended subscription stopped', error),
    }),
    [],
  );
  useSubscription<useSessionEndedSubscription>(config);
}
