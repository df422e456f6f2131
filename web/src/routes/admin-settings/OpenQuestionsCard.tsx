import {
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { QuestionCircle24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { OpenQuestionsCard_query$key } from '../../__generated__/OpenQuestionsCard_query.graphql';
import { fullDateTime } from '../../components/format/dates';
import { relativeTime } from '../../components/format/relativeTime';
import { LinkButton } from '../../components/forms/LinkButton';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  scroll: { overflowX: 'auto' },
  muted: { color: tokens.colorNeutralForeground3 },
  question: { display: '-webkit-box', WebkitLineClamp: '2', WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' },
});

/**
 * Consult questions not answered yet ('Not sure' rows): who asked whom, when, about which row.
 * Each opens the question's page. The rows stay pending meanwhile (services/consult/questions.ts).
 */
export function OpenQuestionsCard({ query }: { query: OpenQuestionsCard_query$key }) {
  const styles = useStyles();
  const data = useFragment(
    graphql`
      fragment OpenQuestionsCard_query on Query {
        openQuestions: consultQuestions(status: OPEN, first: 20) {
          totalCount
          edges {
            node {
              id
              link
              question
              askedAt
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
                userId
                userName
                accessRiskId
                roleProfile
              }
            }
          }
        }
      }
    `,
    query,
  );
  const { totalCount, edges } = data.openQuestions;
  return (
    <Card className={styles.card}>
      <CardHeader image={<QuestionCircle24Regular />} header={<Text weight="semibold">Open Questions</Text>} />
      {totalCount === 0 ? (
        <Text>No reviewer is waiting for an answer.</Text>
      ) : (
        <>
          <Text>
            {totalCount} {totalCount === 1 ? 'question waits' : 'questions wait'} for an answer. The rows stay pending until their reviewers decide.
          </Text>
          <div className={styles.scroll}>
            <Table size="small" aria-label="Open questions">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Asked By</TableHeaderCell>
                  <TableHeaderCell>Asked Of</TableHeaderCell>
                  <TableHeaderCell>When</TableHeaderCell>
                  <TableHeaderCell>Row</TableHeaderCell>
                  <TableHeaderCell>Question</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {edges.map(({ node: q }) => (
                  <TableRow key={q.id}>
                    <TableCell>{q.askedBy.name}</TableCell>
                    <TableCell>{q.askedOf.name}</TableCell>
                    <TableCell>
                      <time dateTime={q.askedAt} title={`${fullDateTime(q.askedAt)} · ${q.period.name}`}>
                        {relativeTime(q.askedAt)}
                      </time>
                    </TableCell>
                    <TableCell>
                      {q.riskRow ? `${q.riskRow.userName || q.riskRow.userId} · ${q.riskRow.accessRiskId} · ${q.riskRow.roleProfile}` : 'No longer in the data'}
                    </TableCell>
                    <TableCell>
                      <LinkButton to={q.link} appearance="transparent" size="small">
                        <span className={styles.question}>{q.question}</span>
                      </LinkButton>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {totalCount > edges.length ? <Caption1 className={styles.muted}>The newest {edges.length} are shown.</Caption1> : null}
        </>
      )}
    </Card>
  );
}
