import { graphql } from 'react-relay';
import { useReloadOn } from '../../relay/useReloadOn';
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
  useReloadOn<useSubmissionChangedSubscription>(subscription, 'submission', onChanged);
}
