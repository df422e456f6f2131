import { Caption1, Card, CardHeader, Field, makeStyles, ProgressBar, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { PeopleTeam24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { ReviewerProgressCard_query$key } from '../../__generated__/ReviewerProgressCard_query.graphql';
import { fullName } from '../../domain/users/userNames';

const useStyles = makeStyles({
  card: { padding: tokens.spacingHorizontalL, minWidth: 0 },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  icon: { color: tokens.colorBrandForeground1 },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

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
          {rows.map((r) => {
            const name = fullName(r.reviewer.firstName, r.reviewer.lastName);
            const done = Math.min(r.decided, r.assigned);
            return (
              <li key={r.reviewer.id}>
                <Field
                  label={name}
                  hint={`${done.toLocaleString('en-US')} of ${r.assigned.toLocaleString('en-US')} decided (${Math.round((done / r.assigned) * 100)}%)`}
                  validationState="none"
                >
                  <ProgressBar value={done} max={r.assigned} thickness="large" color={done >= r.assigned ? 'success' : 'brand'} aria-label={`${name} progress`} />
                </Field>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
