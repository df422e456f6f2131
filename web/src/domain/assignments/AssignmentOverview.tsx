import { Button, Card, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import {
  Add20Regular,
  ClipboardTaskListLtr24Regular,
  Desktop24Regular,
  People24Regular,
  PeopleTeam24Regular,
  ShieldError24Regular,
} from '@fluentui/react-icons';
import { useEffect, useMemo } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import type { AssignmentOverviewAssignmentsPaginationQuery } from '../../__generated__/AssignmentOverviewAssignmentsPaginationQuery.graphql';
import type { AssignmentOverviewReviewersPaginationQuery } from '../../__generated__/AssignmentOverviewReviewersPaginationQuery.graphql';
import type { AssignmentOverview_assignments$key } from '../../__generated__/AssignmentOverview_assignments.graphql';
import type { AssignmentOverview_reviewers$key } from '../../__generated__/AssignmentOverview_reviewers.graphql';
import { EmptyState } from '../../components/layout/EmptyState';
import { ListTable } from '../../components/lists/ListTable';
import { StatTile } from '../../components/layout/StatTile';
import { AssignmentRow } from './AssignmentRow';
import { CreateAssignmentDialog, type ReviewerOption } from './CreateAssignmentDialog';

const useStyles = makeStyles({
  tiles: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))',
    gap: tokens.spacingHorizontalL,
    marginBottom: tokens.spacingVerticalL,
  },
  card: { padding: 0, rowGap: 0 },
  // The table lays its columns out at fixed widths (Fluent's table-layout: fixed): the short
  // columns get widths that fit their header and content (plus the cells' padding), Name and
  // Reviewer share the rest, and below that sum and 160 px for each of the two (a narrow
  // window, a phone) the table keeps its width and scrolls sideways in its card instead of
  // squeezing Value and Matching Rows to a letter per line.
  table: { minWidth: '928px' },
  typeCol: { width: '96px' },
  valueCol: { width: '144px' },
  matchingCol: { width: '112px' },
  createdCol: { width: '96px' },
  actionsCol: { width: '80px' },
  more: { padding: tokens.spacingHorizontalM },
});

const REVIEWER_PAGE = 50;
const ASSIGNMENT_PAGE = 25;

export function AssignmentOverview({
  assignments: assignmentsRef,
  reviewers: reviewersRef,
  creating,
  onCreatingChange,
  onReassigned,
  emptyHeading,
}: {
  /** A criterion was moved to another reviewer. */
  onReassigned?: () => void;
  assignments: AssignmentOverview_assignments$key;
  reviewers: AssignmentOverview_reviewers$key;
  creating: boolean;
  onCreatingChange: (open: boolean) => void;
  /** The empty list's heading: one level under the heading above it. */
  emptyHeading: 'h2' | 'h3';
}) {
  const styles = useStyles();
  const {
    data: reviewerData,
    hasNext: moreReviewers,
    isLoadingNext: loadingReviewers,
    loadNext: loadMoreReviewers,
  } = usePaginationFragment<AssignmentOverviewReviewersPaginationQuery, AssignmentOverview_reviewers$key>(
    graphql`
      fragment AssignmentOverview_reviewers on Query
      @refetchable(queryName: "AssignmentOverviewReviewersPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" }) {
        users(first: $count, after: $cursor) @connection(key: "AssignmentOverview_users") {
          edges {
            node {
              id
              firstName
              lastName
              displayName
              email
              role
              isActive
            }
          }
        }
      }
    `,
    reviewersRef,
  );
  const {
    data,
    hasNext: moreAssignments,
    isLoadingNext: loadingAssignments,
    loadNext: loadMoreAssignments,
  } = usePaginationFragment<AssignmentOverviewAssignmentsPaginationQuery, AssignmentOverview_assignments$key>(
    graphql`
      fragment AssignmentOverview_assignments on Query
      @refetchable(queryName: "AssignmentOverviewAssignmentsPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 25 }, cursor: { type: "String" }) {
        assignmentCriteria(first: $count, after: $cursor) @connection(key: "AssignmentOverview_assignmentCriteria") {
          __id
          edges {
            node {
              id
              criteriaType
              ...AssignmentRow_assignment
            }
          }
        }
      }
    `,
    assignmentsRef,
  );

  // Every reviewer and every assignment are needed (the dialog's list, the tiles' counts): load the remaining pages.
  useEffect(() => {
    if (moreReviewers && !loadingReviewers) loadMoreReviewers(REVIEWER_PAGE);
  }, [moreReviewers, loadingReviewers, loadMoreReviewers]);
  useEffect(() => {
    if (moreAssignments && !loadingAssignments) loadMoreAssignments(ASSIGNMENT_PAGE);
  }, [moreAssignments, loadingAssignments, loadMoreAssignments]);
  const loadingMore = moreReviewers || moreAssignments;

  const reviewers: ReviewerOption[] = useMemo(
    () =>
      reviewerData.users.edges
        .map((e) => e.node)
        .filter((u) => u.role === 'REVIEWER' && u.isActive)
        .map((u) => ({ id: u.id, displayName: u.displayName, email: u.email }))
        .sort((a, b) => a.displayName.localeCompare(b.displayName)),
    [reviewerData.users],
  );
  const assignments = data.assignmentCriteria.edges.map((e) => e.node);
  const count = (type: string) => assignments.filter((a) => a.criteriaType === type).length;
  const columns = [
    { label: 'Assignment Name' },
    { label: 'Reviewer' },
    { label: 'Type', className: styles.typeCol },
    { label: 'Value', className: styles.valueCol },
    // How many loaded rows the criterion matches.
    { label: 'Matching Rows', className: styles.matchingCol },
    { label: 'Created', className: styles.createdCol },
    { label: 'Actions', className: styles.actionsCol },
  ];

  return (
    <>
      <section className={styles.tiles} aria-label="Assignment summary">
        <StatTile label="Active Assignments" value={assignments.length} icon={<ClipboardTaskListLtr24Regular />} />
        <StatTile label="Available Reviewers" value={reviewers.length} icon={<People24Regular />} tone="success" />
        <StatTile label="System-based" value={count('SYSTEM')} icon={<Desktop24Regular />} tone="neutral" />
        <StatTile label="Group-based" value={count('USER_GROUP')} icon={<PeopleTeam24Regular />} tone="neutral" />
        <StatTile label="Risk-specific" value={count('RISK_ID')} icon={<ShieldError24Regular />} tone="warning" />
      </section>
      <Card className={styles.card}>
        <ListTable
          label="Assignments"
          className={styles.table}
          columns={columns}
          emptyAlone
          empty={
            <EmptyState
              appearance="brand"
              icon={<ClipboardTaskListLtr24Regular />}
              heading={emptyHeading}
              title="No assignments yet"
              description="Assign risks to reviewers by risk ID, user, user group, system or role profile. Reviewers see only the risks assigned to them."
              action={
                <Button appearance="primary" icon={<Add20Regular />} onClick={() => onCreatingChange(true)}>
                  Create Your First Assignment
                </Button>
              }
            />
          }
          rows={assignments.map((a) => (
            <AssignmentRow key={a.id} assignment={a} connectionId={data.assignmentCriteria.__id} onReassigned={onReassigned} />
          ))}
        />
        {loadingMore ? <Spinner className={styles.more} size="tiny" label="Loading more assignments..." /> : null}
      </Card>
      <CreateAssignmentDialog open={creating} onOpenChange={onCreatingChange} reviewers={reviewers} connectionId={data.assignmentCriteria.__id} />
    </>
  );
}
