import { Badge, Button, Caption1, Card, CardHeader, Field, Input, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Checkmark20Regular, Eye20Regular, EyeOff20Regular, Key24Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { OpenAiKeyCardSaveMutation } from '../../__generated__/OpenAiKeyCardSaveMutation.graphql';
import type { OpenAiKeyCardValidateMutation } from '../../__generated__/OpenAiKeyCardValidateMutation.graphql';
import { errorMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { formatDateTime } from '../../components/format/dates';

/** SPEC §5, §9: every OpenAI API key starts with this. */
export const OPENAI_KEY_PREFIX = 'sk-';

const saveMutation = graphql`
  mutation OpenAiKeyCardSaveMutation($apiKey: String!) {
    saveOpenAiKey(apiKey: $apiKey) {
      __typename
      ... on MutationSaveOpenAiKeySuccess {
        data {
          hasValue
          updatedAt
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const validateMutation = graphql`
  mutation OpenAiKeyCardValidateMutation {
    validateOpenAiKey {
      isValid
      error
    }
  }
`;

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  status: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalS, rowGap: tokens.spacingVerticalS },
});

/** SPEC §2: the AI key card (badge, last update, masked input with show/hide, Update, Validate Key). */
export function OpenAiKeyCard({ configured, updatedAt, onChanged }: { configured: boolean; updatedAt: string | null; onChanged: () => void }) {
  const styles = useStyles();
  const notify = useNotify();
  const [value, setValue] = useState('');
  const [visible, setVisible] = useState(false);
  const [save, saving] = useMutation<OpenAiKeyCardSaveMutation>(saveMutation);
  const [validate, validating] = useMutation<OpenAiKeyCardValidateMutation>(validateMutation);

  const update = () => {
    const key = value.trim();
    if (!key) return notify({ title: 'Error', description: 'Please enter an API key', intent: 'error' });
    if (!key.startsWith(OPENAI_KEY_PREFIX)) return notify({ title: 'Invalid Format', description: "OpenAI API keys should start with 'sk-'", intent: 'error' });
    const fail = (message?: string) => notify({ title: 'Error', description: message || 'Failed to update API key', intent: 'error' });
    save({
      variables: { apiKey: key },
      onCompleted: ({ saveOpenAiKey: r }) => {
        if (r.__typename !== 'MutationSaveOpenAiKeySuccess') return fail(errorMessage(r));
        setValue('');
        setVisible(false);
        notify({ title: 'OpenAI API key updated successfully', intent: 'success' });
        onChanged();
      },
      onError: () => fail(),
    });
  };

  const check = () =>
    validate({
      variables: {},
      onCompleted: ({ validateOpenAiKey: r }) => {
        if (r.isValid) notify({ title: 'OpenAI API key is valid and working', intent: 'success' });
        else notify({ title: 'Invalid API Key', description: r.error || 'The API key is not valid', intent: 'error' });
        onChanged();
      },
      onError: () => notify({ title: 'Error', description: 'Failed to validate API key', intent: 'error' }),
    });

  return (
    <Card className={styles.card}>
      <CardHeader
        image={<Key24Regular />}
        header={<Text weight="semibold">OpenAI API Key</Text>}
        description={<Caption1 className={styles.muted}>Used for AI risk categorization and risk profiles</Caption1>}
      />
      <div className={styles.status}>
        {configured ? (
          <Badge color="success" appearance="tint" icon={<Checkmark20Regular />}>
            Configured
          </Badge>
        ) : (
          <Badge color="warning" appearance="tint">
            Not Configured
          </Badge>
        )}
        {configured && updatedAt ? <Caption1 className={styles.muted}>Last updated: {formatDateTime(updatedAt)}</Caption1> : null}
      </div>
      <Field label={configured ? 'New API key' : 'API key'} hint="The key is stored encrypted and never shown again.">
        <Input
          type={visible ? 'text' : 'password'}
          value={value}
          autoComplete="off"
          spellCheck={false}
          placeholder="sk-..."
          onChange={(_, d) => setValue(d.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') update();
          }}
          contentAfter={
            <Button
              appearance="transparent"
              size="small"
              icon={visible ? <EyeOff20Regular /> : <Eye20Regular />}
              aria-label={visible ? 'Hide API key' : 'Show API key'}
              onClick={() => setVisible((v) => !v)}
            />
          }
        />
      </Field>
      <div className={styles.actions}>
        <Button appearance="primary" disabled={saving} onClick={update}>
          {saving ? 'Updating...' : 'Update'}
        </Button>
        {configured ? (
          <Button disabled={validating} onClick={check}>
            {validating ? 'Validating...' : 'Validate Key'}
          </Button>
        ) : null}
      </div>
    </Card>
  );
}
