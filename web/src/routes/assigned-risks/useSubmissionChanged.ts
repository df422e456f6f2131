import { useMemo, useRef } from 'react';
import { graphql, useSubscription } from 'react-relay';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import type { useSubmissionChangedSubscription } from '../../__generated__/useSubmissionChangedSubscription.graphql';

const subscription = graphql`
  subscription useSubmissionChangedSubscription {
    viewerSubmissionChanged {
      status
      submission {
        id
        status
        decisionCount
      }
    }
  }
`;

/**
 * The viewer's set was submitted or recalled (in this page or another of
 * theirs) or approved or returned by an administrator: `onChanged` reloads
 * the screen, so every open page shows the state the server holds (the
 * submission area, the tiles, which controls are locked) without a reload,
 * instead of offering a Submit the server would refuse.
 */
export function useSubmissionChanged(onChanged: () => void): void {
  const latest = useRef(onChanged);
  latest.current = onChanged;
  const config = useMemo<GraphQLSubscriptionConfig<useSubmissionChangedSubscription>>(
    () => ({
      subscription,
      variables: {},
      onNext: () => latest.current(),
      onError: (error) => console.warn('The submission subscription stopped', error),
    }),
    [],
  );
  useSubscription<useSubmissionChangedSubscription>(config);
}
