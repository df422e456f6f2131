import { useMemo, useRef } from 'react';
import { graphql, useSubscription } from 'react-relay';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import type { useReviewPeriodChangedSubscription } from '../../__generated__/useReviewPeriodChangedSubscription.graphql';

const subscription = graphql`
  subscription useReviewPeriodChangedSubscription {
    reviewPeriodChanged {
      id
      status
      endDate
    }
  }
`;

/**
 * A review period was created, closed or reopened: `onChanged` reloads the
 * screen, so its controls lock or unlock at once (no reload, no waiting for
 * the next request to be refused).
 */
export function useReviewPeriodChanged(onChanged: () => void): void {
  const latest = useRef(onChanged);
  latest.current = onChanged;
  const config = useMemo<GraphQLSubscriptionConfig<useReviewPeriodChangedSubscription>>(
    () => ({
      subscription,
      variables: {},
      onNext: () => latest.current(),
      onError: (error) => console.warn('The review-period subscription stopped', error),
    }),
    [],
  );
  useSubscription<useReviewPeriodChangedSubscription>(config);
}
