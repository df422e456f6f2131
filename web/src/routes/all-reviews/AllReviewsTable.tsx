import { Badge, makeStyles, mergeClasses, Spinner, TableCell, TableRow, Text, tokens } from '@fluentui/react-components';
import { DocumentSearch24Regular } from '@fluentui/react-icons';
import type { AllReviewsRouteQuery$data } from '../../__generated__/AllReviewsRouteQuery.graphql';
import { ListEmpty, ListTable } from '../../components/lists/ListTable';
import { ReviewDecisionRow } from '../../domain/reviews/ReviewDecisionRow';
import { decisionLabel } from '../../domain/risks/riskDisplay';

export type ReviewNode = AllReviewsRouteQuery$data['allReviews']['edges'][number]['node'];

const useStyles = makeStyles({
  table: { minWidth: '940px' },
  shared: {
    backgroundColor: tokens.colorPaletteYellowBackground1,
    boxShadow: `inset 4px 0 0 ${tokens.colorPaletteYellowBorder2}`,
    ':hover': { backgroundColor: tokens.colorPaletteYellowBackground2 },
  },
  muted: { color: tokens.colorNeutralForeground3 },
  sharedList: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS },
  sharedItem: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  loading: { display: 'flex', justifyContent: 'center', paddingTop: tokens.spacingVerticalL, paddingBottom: tokens.spacingVerticalL },
});

const COLUMNS = ['User', 'Risk Level', 'Role', 'Decision', 'Primary Reviewer', 'Shared With', 'Date'].map((label) => ({ label }));

/** The table of All Review Decisions (SPEC §2): shared-role rows highlighted; a loading row while a page loads. */
export function AllReviewsTable({ reviews, loading }: { reviews: readonly ReviewNode[]; loading: boolean }) {
  const styles = useStyles();
  const rows = loading
    ? [
        <TableRow key="loading">
          <TableCell colSpan={COLUMNS.length}>
            <div className={styles.loading}>
              <Spinner size="small" label="Loading reviews..." />
            </div>
          </TableCell>
        </TableRow>,
      ]
    : reviews.map((r) => <ReviewRow key={r.id} review={r} />);
  return (
    <ListTable
      label="All review decisions"
      className={styles.table}
      columns={COLUMNS}
      empty={<ListEmpty icon={<DocumentSearch24Regular aria-hidden />} title="No reviews found matching your criteria" />}
      rows={rows}
    />
  );
}

function ReviewRow({ review: r }: { review: ReviewNode }) {
  const styles = useStyles();
  return (
    <ReviewDecisionRow
      review={r}
      avatar
      className={mergeClasses(r.isSharedRole && styles.shared)}
      data-shared={r.isSharedRole ? 'true' : undefined}
      roleBadge={
        r.isSharedRole ? (
          <Badge appearance="filled" color="warning" size="small">
            Shared
          </Badge>
        ) : null
      }
      beforeDate={
        <TableCell>
          {r.sharedWith.length === 0 ? (
            <Text className={styles.muted}>None</Text>
          ) : (
            <ul className={styles.sharedList}>
              {r.sharedWith.map((s) => (
                <li key={s.reviewerName} className={styles.sharedItem}>
                  <Text size={200}>{s.reviewerName}:</Text>
                  <Badge appearance="outline" size="small" color={s.decision === 'REMOVE' ? 'danger' : s.decision ? 'success' : 'warning'}>
                    {decisionLabel(s.decision)}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </TableCell>
      }
    />
  );
}
