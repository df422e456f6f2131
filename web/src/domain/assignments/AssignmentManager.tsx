import { Button, makeStyles, Spinner, Subtitle1, tokens } from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import { Suspense, useState } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import type { AssignmentManagerQuery } from '../../__generated__/AssignmentManagerQuery.graphql';
import { PageHeader } from '../../components/layout/PageHeader';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { AssignmentOverview } from './AssignmentOverview';
import { ReassignmentPanel } from './ReassignmentPanel';
import { UnassignedConflictsBar } from '../coverage/UnassignedConflictsBar';

const query = graphql`
  query AssignmentManagerQuery {
    ...AssignmentOverview_reviewers
    ...AssignmentOverview_assignments
    ...ReassignmentPanel_query
    dashboardStats {
      ...UnassignedConflictsBar_stats
    }
  }
`;

const useStyles = makeStyles({
  sectionHeader: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    marginBottom: tokens.spacingVerticalL,
  },
  sectionTitle: { margin: 0 },
  coverage: { marginBottom: tokens.spacingVerticalL },
  loading: { paddingTop: tokens.spacingVerticalXXL, paddingBottom: tokens.spacingVerticalXXL },
});

/**
 * SPEC §2 'Assignments': summary tiles, the assignment table and the 'Create
 * Assignment' dialog. The /assignments screen, and embedded in Risk Review's
 * 'Manage Assignments' tab; the query comes prepared by the route's loader.
 */
export function AssignmentManager({ prepared, embedded = false }: { prepared: PreloadedQuery<AssignmentManagerQuery> | null | undefined; embedded?: boolean }) {
  const styles = useStyles();
  const { queryRef } = usePreparedQuery<AssignmentManagerQuery>(query, prepared);
  const [creating, setCreating] = useState(false);

  const createButton = (
    <Button appearance="primary" icon={<Add20Regular />} onClick={() => setCreating(true)}>
      Create Assignment
    </Button>
  );
  const loading = <Spinner className={styles.loading} label="Loading assignments..." />;

  return (
    <>
      {embedded ? (
        <div className={styles.sectionHeader}>
          <Subtitle1 as="h2" className={styles.sectionTitle}>
            Risk Assignment Management
          </Subtitle1>
          {createButton}
        </div>
      ) : (
        <PageHeader
          title="Risk Assignment Management"
          subtitle="Assign risks to reviewers by risk ID, user, user group, system or role profile."
          actions={createButton}
        />
      )}
      {queryRef == null ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <LoadedAssignments queryRef={queryRef} creating={creating} onCreatingChange={setCreating} embedded={embedded} />
        </Suspense>
      )}
    </>
  );
}

function LoadedAssignments({
  queryRef,
  creating,
  onCreatingChange,
  embedded,
}: {
  queryRef: PreloadedQuery<AssignmentManagerQuery>;
  creating: boolean;
  onCreatingChange: (open: boolean) => void;
  embedded: boolean;
}) {
  const styles = useStyles();
  const data = usePreloadedQuery<AssignmentManagerQuery>(query, queryRef);
  // Headings in order: under the page's h1 alone, under the tab's h2 when embedded.
  // A criterion moved in the table refreshes the reassignment list.
  const [moves, setMoves] = useState(0);
  return (
    <>
      <div className={styles.coverage}>
        <UnassignedConflictsBar stats={data.dashboardStats} isAdmin />
      </div>
      <AssignmentOverview
        reviewers={data}
        assignments={data}
        creating={creating}
        onCreatingChange={onCreatingChange}
        onReassigned={() => setMoves((n) => n + 1)}
        emptyHeading={embedded ? 'h3' : 'h2'}
      />
      <ReassignmentPanel query={data} version={moves} />
    </>
  );
}
