import { Caption1, Card, CardHeader, makeStyles, ProgressBar, Subtitle2, Text, tokens, useId } from '@fluentui/react-components';
import { PeopleTeam24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { ReviewerProgressCard_query$key } from '../../__generated__/ReviewerProgressCard_query.graphql';
import { shownName } from '../../domain/users/userNames';
import { formatCount } from '../../components/layout/StatTile';

const useStyles = makeStyles({
  card: { padding: tokens.spacingHorizontalL, minWidth: 0 },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  icon: { color: tokens.colorBrandForeground1 },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  item: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
});

/**
 * One reviewer's bar: their name over it, 'n of m decided (p%)' under it, both its
 * accessible name and description. (Written out rather than in a Fluent Field, whose
 * code is not otherwise on the dashboard's first load.)
 */
function ReviewerBar({ name, done, assigned }: { name: string; done: number; assigned: number }) {
  const styles = useStyles();
  const labelId = useId('reviewer-');
  const hintId = useId('reviewer-hint-');
  return (
    <li className={styles.item}>
      <Text id={labelId}>{name}</Text>
      <ProgressBar
        value={done}
        max={assigned}
        thickness="large"
        color={done >= assigned ? 'success' : 'brand'}
        aria-labelledby={labelId}
        aria-describedby={hintId}
      />
      <Caption1 id={hintId} className={styles.muted}>
        {`${formatCount(done)} of ${formatCount(assigned)} decided (${Math.round((done / assigned) * 100)}%)`}
      </Caption1>
    </li>
  );
}

/** Progress by reviewer in the active period (administrators): decided of assigned. */
export function ReviewerProgressCard({ query }: { query: ReviewerProgressCard_query$key }) {
  const styles = useStyles();
  const data = useFragment(
    graphql`
      fragment ReviewerProgressCard_query on Query {
        activeReviewPeriod {
          id
        }
        reviewerStatus(first: 500) {
          edges {
            node {
              reviewer {
                id
                firstName
                lastName
                displayName
                isActive
              }
              assigned
              decided
            }
          }
        }
      }
    `,
    query,
  );
  const rows = data.reviewerStatus.edges.map((e) => e.node).filter((r) => r.reviewer.isActive && r.assigned > 0);
  return (
    <Card className={styles.card}>
      <CardHeader
        image={<PeopleTeam24Regular className={styles.icon} />}
        header={
          <Subtitle2 as="h2" className={styles.title}>
            Progress by Reviewer
          </Subtitle2>
        }
        description={<Caption1 className={styles.muted}>Decided of assigned in the active period</Caption1>}
      />
      {!data.activeReviewPeriod ? (
        <Text className={styles.muted}>No active review period.</Text>
      ) : rows.length === 0 ? (
        <Text className={styles.muted}>No reviewer has assigned risks yet.</Text>
      ) : (
        <ul className={styles.list} aria-label="Progress by reviewer">
          {rows.map((r) => (
            <ReviewerBar key={r.reviewer.id} name={shownName(r.reviewer.displayName)} done={Math.min(r.decided, r.assigned)} assigned={r.assigned} />
          ))}
        </ul>
      )}
    </Card>
  );
}
