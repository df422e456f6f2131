import { Link, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { lazy, useState } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { UnassignedConflictsBar_stats$key } from '../../__generated__/UnassignedConflictsBar_stats.graphql';
import { OnDemand } from '../../components/layout/OnDemand';

const UnassignedConflictsDialog = lazy(() => import('./UnassignedConflictsDialog').then((m) => ({ default: m.UnassignedConflictsDialog })));

/**
 * Coverage on the dashboard and Assignments: 'Unassigned conflicts', the rows
 * nobody can review (no assignment gives them to a reviewer who may review
 * them, and no fallback reviewer may take them), with the list for
 * administrators; and any fallback reviewer named who can no longer review.
 */
export function UnassignedConflictsBar({ stats, isAdmin }: { stats: UnassignedConflictsBar_stats$key; isAdmin: boolean }) {
  const data = useFragment(
    graphql`
      fragment UnassignedConflictsBar_stats on DashboardStats {
        unassignedConflicts
        inactiveFallbackReviewers
      }
    `,
    stats,
  );
  const [listing, setListing] = useState(false);
  const count = data.unassignedConflicts;
  const inactive = data.inactiveFallbackReviewers;
  return (
    <>
      <MessageBar intent={count > 0 ? 'warning' : 'success'} aria-live="polite">
        <MessageBarBody>
          <MessageBarTitle>Unassigned conflicts: {count.toLocaleString('en-US')}</MessageBarTitle>
          {count > 0 ? 'Nobody can review these rows: add an assignment or choose a fallback reviewer in Admin Settings.' : 'Every conflict has a reviewer.'}
          {inactive.length ? ` Fallback reviewer${inactive.length === 1 ? '' : 's'} who cannot review (deactivated): ${inactive.join('; ')}.` : null}
        </MessageBarBody>
        {isAdmin ? (
          <MessageBarActions>
            <Link as="button" onClick={() => setListing(true)}>
              View the list
            </Link>
          </MessageBarActions>
        ) : null}
      </MessageBar>
      {isAdmin ? (
        <OnDemand open={listing}>
          <UnassignedConflictsDialog open={listing} onOpenChange={setListing} />
        </OnDemand>
      ) : null}
    </>
  );
}
