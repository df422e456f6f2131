import { Badge, Body1, Caption1, Card, CardHeader, makeStyles, Text, tokens } from '@fluentui/react-components';
import { QuestionCircle24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { QuestionDetails_question$key } from '../../__generated__/QuestionDetails_question.graphql';
import { fullDateTime } from '../../components/format/dates';
import { relativeTime } from '../../components/format/relativeTime';
import { AnswerForm } from './AnswerForm';
import { QuestionRowFacts } from './QuestionRowFacts';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, minWidth: 0 },
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minWidth: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  text: { overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' },
});

/** The question, who asked whom and when, its answer (or the box to answer it), and the row it is about. */
export function QuestionDetails({ question, onAnswered }: { question: QuestionDetails_question$key; onAnswered: () => void }) {
  const styles = useStyles();
  const q = useFragment(
    graphql`
      fragment QuestionDetails_question on ConsultQuestion {
        id
        question
        answer
        status
        askedAt
        answeredAt
        canAnswer
        askedBy {
          name
        }
        askedOf {
          name
        }
        period {
          name
        }
        riskRow {
          ...QuestionRowFacts_row
        }
      }
    `,
    question,
  );
  const when = (iso: string) => (
    <time dateTime={iso} title={fullDateTime(iso)}>
      {relativeTime(iso)}
    </time>
  );
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardHeader
          image={<QuestionCircle24Regular />}
          header={<Text weight="semibold">{q.askedBy.name} is not sure and asks</Text>}
          description={
            <Caption1 className={styles.muted}>
              Asked of {q.askedOf.name} {when(q.askedAt)} · {q.period.name}
            </Caption1>
          }
          action={
            <Badge appearance="tint" color={q.status === 'OPEN' ? 'warning' : 'success'}>
              {q.status === 'OPEN' ? 'Open' : 'Answered'}
            </Badge>
          }
        />
        <Body1 className={styles.text}>{q.question}</Body1>
        {q.answer != null ? (
          <>
            <Text weight="semibold">
              Answer from {q.askedOf.name} {q.answeredAt ? when(q.answeredAt) : null}
            </Text>
            <Body1 className={styles.text}>{q.answer}</Body1>
          </>
        ) : null}
        {q.canAnswer ? <AnswerForm questionId={q.id} askedBy={q.askedBy.name} onAnswered={onAnswered} /> : null}
        <Caption1 className={styles.muted}>The decision stays with {q.askedBy.name}; the answer is shown beside the row in their review.</Caption1>
      </Card>
      {q.riskRow ? <QuestionRowFacts row={q.riskRow} /> : <Text className={styles.muted}>The row is no longer in the data.</Text>}
    </div>
  );
}
