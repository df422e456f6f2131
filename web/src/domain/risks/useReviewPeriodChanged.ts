import { graphql } from 'react-relay';
import { useReloadOn } from '../../relay/useReloadOn';
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
  useReloadOn<useReviewPeriodChangedSubscription>(subscription, 'review-period', onChanged);
}
