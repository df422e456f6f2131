import { Button, Field, makeStyles, Spinner, Textarea, tokens } from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { AnswerFormMutation } from '../../__generated__/AnswerFormMutation.graphql';
import { failureOf, useFailureToast } from '../../components/forms/FormDialog';
import { useNotify } from '../../components/forms/toast';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, alignItems: 'stretch' },
  submit: { alignSelf: 'flex-start' },
});

const mutation = graphql`
  mutation AnswerFormMutation($id: ID!, $answer: String!) {
    answerQuestion(id: $id, answer: $answer) {
      __typename
      ... on MutationAnswerQuestionSuccess {
        data {
          id
          ...QuestionDetails_question
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const MAX_ANSWER = 5000;

/** The answer box of the person asked: sent once; the asker is notified and sees it on the row. */
export function AnswerForm({ questionId, askedBy, onAnswered }: { questionId: string; askedBy: string; onAnswered: () => void }) {
  const styles = useStyles();
  const notify = useNotify();
  const fail = useFailureToast('Answer Not Sent', 'Failed to send the answer. Please try again.');
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [commit, sending] = useMutation<AnswerFormMutation>(mutation);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!answer.trim()) {
      setError('An answer is required');
      return;
    }
    commit({
      variables: { id: questionId, answer: answer.trim() },
      onCompleted: ({ answerQuestion: result }) => {
        if (result.__typename === 'MutationAnswerQuestionSuccess') {
          notify({ title: 'Answer Sent', description: `${askedBy} has been told your answer.`, intent: 'success' });
          onAnswered();
          return;
        }
        const { message } = failureOf(result);
        setError(message);
        fail(message);
      },
      onError: () => fail(),
    });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      <Field label="Your answer" required validationState={error ? 'error' : 'none'} validationMessage={error}>
        <Textarea
          value={answer}
          onChange={(_, d) => {
            setAnswer(d.value);
            setError(undefined);
          }}
          rows={4}
          resize="vertical"
          maxLength={MAX_ANSWER}
        />
      </Field>
      <Button className={styles.submit} appearance="primary" type="submit" disabled={sending} icon={sending ? <Spinner size="tiny" /> : undefined}>
        {sending ? 'Sending...' : 'Send Answer'}
      </Button>
    </form>
  );
}
