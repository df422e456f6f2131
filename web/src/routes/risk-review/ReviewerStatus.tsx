import { Card, makeStyles, MessageBar, MessageBarBody, MessageBarTitle, Spinner, tokens } from '@fluentui/react-components';
import { People24Regular } from '@fluentui/react-icons';
import { Suspense } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import type { ReviewerStatusQuery } from '../../__generated__/ReviewerStatusQuery.graphql';
import { EmptyState } from '../../components/layout/EmptyState';
import { ListTable } from '../../components/lists/ListTable';
import { useIsMobile } from '../../components/layout/useMediaQuery';
import { LoadingBar } from '../../components/lists/SearchToolbar';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { ReviewerStatusRow } from './ReviewerStatusRow';
import { StageProgressSection } from './StageProgress';

const query = graphql`
  query ReviewerStatusQuery {
    activeReviewPeriod {
      id
      name
      stageCount
    }
    reviewerStatus(first: 500) {
      edges {
        node {
          reviewer {
            id
          }
          ...ReviewerStatusRow_status
        }
      }
    }
    submissions(status: SUBMITTED, first: 100) {
      edges {
        node {
          id
          reviewer {
            id
          }
          period {
            id
          }
        }
      }
    }
  }
`;

const useStyles = makeStyles({
  card: { padding: 0, rowGap: 0 },
  // Sized by content (numbers stay narrow, the reviewer's name and e-mail get the rest).
  table: { minWidth: '940px', tableLayout: 'auto' },
  reviewerCol: { minWidth: '180px' },
  numCol: { width: '1%', whiteSpace: 'nowrap' },
  progressCol: { width: '120px' },
  statusCol: { width: '1%' },
  activityCol: { minWidth: '112px' },
  actionsCol: { width: '1%', whiteSpace: 'nowrap' },
  banner: { margin: tokens.spacingHorizontalL },
  loading: { paddingTop: tokens.spacingVerticalXXL, paddingBottom: tokens.spacingVerticalXXL },
});

/** Risk Review's 'Reviewer Status' tab: per-reviewer progress in the active period, with approval of submitted sets. */
export function ReviewerStatus({ prepared }: { prepared: PreloadedQuery<ReviewerStatusQuery> | null | undefined }) {
  const styles = useStyles();
  const { queryRef, isPending, refetch } = usePreparedQuery<ReviewerStatusQuery>(query, prepared);
  const loading = <Spinner className={styles.loading} label="Loading reviewer status..." />;

  return (
    <Card className={styles.card}>
      <LoadingBar active={isPending} label="Refreshing reviewer status" />
      {queryRef == null ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <LoadedStatus queryRef={queryRef} onChanged={refetch} />
        </Suspense>
      )}
    </Card>
  );
}

function LoadedStatus({ queryRef, onChanged }: { queryRef: PreloadedQuery<ReviewerStatusQuery>; onChanged: () => void }) {
  const styles = useStyles();
  const isMobile = useIsMobile();
  const data = usePreloadedQuery<ReviewerStatusQuery>(query, queryRef);
  const periodId = data.activeReviewPeriod?.id;
  // The submission awaiting approval for each reviewer in the active period.
  const pending = new Map<string, string>();
  for (const { node } of data.submissions.edges) {
    if (node.period.id === periodId && !pending.has(node.reviewer.id)) pending.set(node.reviewer.id, node.id);
  }
  const columns = [
    { label: 'Reviewer', className: styles.reviewerCol },
    { label: 'Assigned', className: styles.numCol },
    { label: 'Decided', className: styles.progressCol },
    { label: 'Submitted', className: styles.numCol },
    { label: 'Approved', className: styles.numCol },
    { label: 'Status', className: styles.statusCol },
    { label: 'Last Activity', className: styles.activityCol },
    { label: 'Actions', className: styles.actionsCol },
  ];

  return (
    <>
      {data.activeReviewPeriod == null ? (
        <MessageBar intent="warning" className={styles.banner} layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>No Active Review Period</MessageBarTitle>
            Progress is counted within the active review period. Open one from the dashboard to start a review.
          </MessageBarBody>
        </MessageBar>
      ) : data.activeReviewPeriod.stageCount > 1 ? (
        <StageProgressSection periodId={data.activeReviewPeriod.id} refreshKey={queryRef} />
      ) : null}
      <ListTable
        label="Reviewer status"
        className={styles.table}
        asCards={isMobile}
        columns={columns}
        emptyAlone
        empty={
          <EmptyState
            icon={<People24Regular />}
            heading="h3"
            title="No reviewers yet"
            description="Create reviewer accounts in User Management, then assign risks to them."
          />
        }
        rows={data.reviewerStatus.edges.map(({ node: p }) => (
          <ReviewerStatusRow key={p.reviewer.id} reviewer={p} submissionId={pending.get(p.reviewer.id) ?? null} onChanged={onChanged} />
        ))}
      />
    </>
  );
}
