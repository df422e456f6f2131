import { Caption1, Combobox, Field, makeStyles, Option, Textarea, tokens, useId } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { graphql, useMutation, useRelayEnvironment } from 'react-relay';
import { fetchQuery } from 'relay-runtime';
import type { AskQuestionDialogMutation } from '../../__generated__/AskQuestionDialogMutation.graphql';
import type { AskQuestionDialogPeopleQuery, AskQuestionDialogPeopleQuery$data } from '../../__generated__/AskQuestionDialogPeopleQuery.graphql';
import { failureOf, FormDialog, useFailureToast, useFieldErrors, useFormStyles } from '../../components/forms/FormDialog';
import { useNotify } from '../../components/forms/toast';

const useStyles = makeStyles({
  option: { display: 'flex', flexDirection: 'column' },
  email: { color: tokens.colorNeutralForeground3 },
});

// Whom one may ask: a lookup by name or e-mail as the reviewer types.
const peopleQuery = graphql`
  query AskQuestionDialogPeopleQuery($search: String) {
    askableUsers(search: $search) {
      id
      name
      email
    }
  }
`;

const mutation = graphql`
  mutation AskQuestionDialogMutation($row: ID!, $user: ID!, $question: String!) {
    askQuestion(riskRowId: $row, askedUserId: $user, question: $question) {
      __typename
      ... on MutationAskQuestionSuccess {
        data {
          id
          askedOf {
            name
          }
          riskRow {
            id
            ...RowQuestions_row
          }
        }
      }
      ... on ValidationError {
        field
      }
      ... on Error {
        message
      }
    }
  }
`;

type Person = AskQuestionDialogPeopleQuery$data['askableUsers'][number];
const FIELDS = ['askedUserId', 'question'] as const;
const MAX_QUESTION = 2000;

/**
 * People matching what was typed, looked up a moment after the typing stops,
 * with the text they answer: only an answer to the text now in the box is
 * offered (an earlier lookup's people, e.g. the first 20 of everyone, would
 * not be the ones typed for), so `current` is false while the lookup runs.
 */
function useAskablePeople(search: string): { people: Person[]; current: boolean } {
  const environment = useRelayEnvironment();
  const wanted = search.trim();
  const [found, setFound] = useState<{ for: string; people: Person[] } | null>(null);
  useEffect(() => {
    let sub: { unsubscribe: () => void } | undefined;
    const timer = window.setTimeout(() => {
      sub = fetchQuery<AskQuestionDialogPeopleQuery>(environment, peopleQuery, { search: wanted || null }, { fetchPolicy: 'network-only' }).subscribe({
        next: (d) => setFound({ for: wanted, people: [...d.askableUsers] }),
        error: (e: unknown) => {
          console.error('Failed to look people up', e);
          setFound({ for: wanted, people: [] });
        },
      });
    }, 250);
    return () => {
      window.clearTimeout(timer);
      sub?.unsubscribe();
    };
  }, [environment, wanted]);
  const current = found?.for === wanted;
  return { people: current ? found.people : [], current };
}

export type AskQuestionDialogProps = {
  /** The row's global id. */
  rowId: string;
  /** The row as people read it (user · risk · role). */
  label: string;
  onClose: () => void;
};

/**
 * 'Not sure': the reviewer asks another person about one row. Not a decision: the row stays
 * pending; the person asked is notified with a link to the row and answers there.
 */
export function AskQuestionDialog({ rowId, label, onClose }: AskQuestionDialogProps) {
  const styles = useStyles();
  const formStyles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Question Not Sent', 'Failed to send the question. Please try again.');
  const introId = useId('ask-intro');
  const [search, setSearch] = useState('');
  const [person, setPerson] = useState<Person | null>(null);
  const [question, setQuestion] = useState('');
  const { setErrors, clearError, validation } = useFieldErrors<(typeof FIELDS)[number]>();
  const { people, current } = useAskablePeople(person && search === person.name ? '' : search);
  // Typing or pasting opens the options (the list follows the text, not only keystrokes).
  const [open, setOpen] = useState(false);
  const [commit, sending] = useMutation<AskQuestionDialogMutation>(mutation);

  const onSubmit = () => {
    const found: Partial<Record<(typeof FIELDS)[number], string>> = {};
    if (!person) found.askedUserId = 'Choose the person to ask';
    if (!question.trim()) found.question = 'A question is required: say what you are unsure of';
    setErrors(found);
    if (!person || !question.trim()) return;
    commit({
      variables: { row: rowId, user: person.id, question: question.trim() },
      onCompleted: ({ askQuestion: result }) => {
        if (result.__typename === 'MutationAskQuestionSuccess') {
          notify({
            title: 'Question Sent',
            description: `Your question about ${label} was sent to ${result.data?.askedOf.name ?? 'them'}.`,
            intent: 'success',
          });
          onClose();
          return;
        }
        const { message, field } = failureOf(result, FIELDS);
        if (field) setErrors((e) => ({ ...e, [field]: message }));
        fail(message);
      },
      onError: () => fail(),
    });
  };

  return (
    <FormDialog
      title="Not Sure? Ask Someone"
      submitLabel="Send Question"
      busyLabel="Sending..."
      busy={sending}
      onSubmit={onSubmit}
      onClose={onClose}
      describedBy={introId}
    >
      <Caption1 id={introId} className={formStyles.intro}>
        {label}: the row stays pending and the decision stays yours. The person you ask is notified and can read this row to answer.
      </Caption1>
      <Field label="Ask" required {...validation('askedUserId')}>
        <Combobox
          placeholder="Search by name or email"
          value={search}
          selectedOptions={person ? [person.id] : []}
          open={open}
          onOpenChange={(_, d) => setOpen(d.open)}
          onChange={(event) => {
            setSearch(event.target.value);
            setPerson(null);
            setOpen(true);
          }}
          onOptionSelect={(_, d) => {
            const chosen = people.find((p) => p.id === d.optionValue) ?? null;
            setPerson(chosen);
            setSearch(chosen?.name ?? '');
            clearError('askedUserId');
          }}
        >
          {people.length === 0 ? (
            <Option value="" text="" disabled>
              {current ? 'No users found' : 'Searching...'}
            </Option>
          ) : (
            people.map((p) => (
              <Option key={p.id} value={p.id} text={p.name}>
                <span className={styles.option}>
                  <span>{p.name}</span>
                  <Caption1 className={styles.email}>{p.email}</Caption1>
                </span>
              </Option>
            ))
          )}
        </Combobox>
      </Field>
      <Field label="Question" required {...validation('question')}>
        <Textarea
          value={question}
          onChange={(_, d) => {
            setQuestion(d.value);
            clearError('question');
          }}
          rows={4}
          resize="vertical"
          maxLength={MAX_QUESTION}
          placeholder="What are you unsure of?"
        />
      </Field>
    </FormDialog>
  );
}
