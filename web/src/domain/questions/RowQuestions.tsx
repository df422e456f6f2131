import { Badge, Caption1, makeStyles, Text, tokens } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { RowQuestions_row$key } from '../../__generated__/RowQuestions_row.graphql';
import { fullDateTime } from '../../components/format/dates';
import { relativeTime } from '../../components/format/relativeTime';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, marginTop: tokens.spacingVerticalXXS, minWidth: 0 },
  item: { display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: tokens.spacingHorizontalXS, minWidth: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  answer: { overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' },
});

/**
 * The viewer's questions about a row ('Not sure'): whom they asked, and the answer once given.
 * Not a decision: the row's decision is shown beside it, unchanged.
 */
export function RowQuestions({ row }: { row: RowQuestions_row$key }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment RowQuestions_row on RiskRow {
        myQuestions {
          id
          status
          question
          answer
          askedAt
          askedOf {
            name
          }
        }
      }
    `,
    row,
  );
  if (!r.myQuestions.length) return null;
  return (
    <div className={styles.list} data-testid="row-questions">
      {r.myQuestions.map((q) =>
        q.status === 'OPEN' ? (
          <span key={q.id} className={styles.item}>
            <Badge appearance="tint" color="warning" size="small">
              Not sure
            </Badge>
            <Caption1 className={styles.muted} title={q.question}>
              asked {q.askedOf.name}{' '}
              <time dateTime={q.askedAt} title={fullDateTime(q.askedAt)}>
                {relativeTime(q.askedAt)}
              </time>
            </Caption1>
          </span>
        ) : (
          <span key={q.id} className={styles.item}>
            <Badge appearance="tint" color="informative" size="small">
              Answer
            </Badge>
            <Caption1 className={styles.muted}>{q.askedOf.name}:</Caption1>
            <Text size={200} className={styles.answer} title={`You asked: ${q.question}`}>
              {q.answer}
            </Text>
          </span>
        ),
      )}
    </div>
  );
}
