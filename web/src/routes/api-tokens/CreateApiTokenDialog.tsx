import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Select,
  tokens,
} from '@fluentui/react-components';
import { Copy20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { CreateApiTokenDialogMutation, ApiTokenScope } from '../../__generated__/CreateApiTokenDialogMutation.graphql';
import { failureOf, FormDialog, SelectOptions, useFailureToast, useFieldErrors, useFormStyles } from '../../components/forms/FormDialog';
import { useNotify } from '../../components/forms/toast';

const mutation = graphql`
  mutation CreateApiTokenDialogMutation($name: String!, $expiresInDays: Int!, $scope: ApiTokenScope!, $connections: [ID!]!) {
    createApiToken(name: $name, expiresInDays: $expiresInDays, scope: $scope) {
      __typename
      ... on MutationCreateApiTokenSuccess {
        data {
          token
          apiToken @prependNode(connections: $connections, edgeTypeName: "QueryApiTokensConnectionEdge") {
            id
            name
            ...ApiTokenRow_token
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

/** The server's rules: a name of at most 100 characters; 1 to 365 days (default 90). */
export const MAX_NAME_LENGTH = 100;
const EXPIRY_OPTIONS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '180', label: '180 days' },
  { value: '365', label: '365 days' },
] as const;
const SCOPE_OPTIONS = [
  { value: 'READ', label: 'Read only (queries and GET requests)' },
  { value: 'FULL', label: 'Full access (everything you may do)' },
] as const;

type Form = { name: string; expiresInDays: string; scope: ApiTokenScope };
const EMPTY: Form = { name: '', expiresInDays: '90', scope: 'READ' };
const FIELDS = ['name', 'expiresInDays', 'scope'] as const;

const useStyles = makeStyles({
  secretRow: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
  },
  secret: {
    flexGrow: 1,
    minWidth: 0,
    fontFamily: tokens.fontFamilyMonospace,
  },
  surface: {
    maxWidth: '560px',
  },
  content: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
});

/** Creates a token; then shows its secret once, with a copy button. */
export function CreateApiTokenDialog({ connectionId, onClose }: { connectionId: string; onClose: () => void }) {
  const styles = useStyles();
  const formStyles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Creation Failed', 'Failed to create the token');
  const [form, setForm] = useState<Form>(EMPTY);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const { setErrors, clearError, validation } = useFieldErrors<keyof Form>();
  const [commit, inFlight] = useMutation<CreateApiTokenDialogMutation>(mutation);

  const set = <K extends keyof Form>(field: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [field]: value }));
    clearError(field);
  };

  const onSubmit = () => {
    const name = form.name.trim();
    if (!name) return setErrors({ name: 'Token name is required' });
    if (name.length > MAX_NAME_LENGTH) return setErrors({ name: `Token name must be at most ${MAX_NAME_LENGTH} characters` });
    commit({
      variables: { name, expiresInDays: Number(form.expiresInDays), scope: form.scope, connections: [connectionId] },
      onCompleted: ({ createApiToken: result }) => {
        if (result.__typename === 'MutationCreateApiTokenSuccess' && result.data) {
          setCreated({ name: result.data.apiToken.name, token: result.data.token });
          notify({ title: 'Token Created', description: `'${result.data.apiToken.name}' has been created.`, intent: 'success' });
          return;
        }
        const { message, field } = failureOf(result, FIELDS);
        if (field) setErrors((e) => ({ ...e, [field]: message }));
        fail(message);
      },
      onError: () => fail(),
    });
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.token);
      notify({ title: 'Copied', description: 'The token is on your clipboard.', intent: 'success' });
    } catch {
      notify({ title: 'Copy Failed', description: 'Select the token and copy it yourself.', intent: 'error' });
    }
  };

  if (created) {
    return (
      <Dialog open modalType="alert" onOpenChange={(_, d) => !d.open && onClose()}>
        <DialogSurface className={styles.surface} aria-describedby="api-token-secret-note">
          <DialogBody>
            <DialogTitle>Token Created</DialogTitle>
            <DialogContent className={styles.content}>
              <MessageBar intent="warning" id="api-token-secret-note">
                <MessageBarBody>
                  <MessageBarTitle>Copy this token now.</MessageBarTitle>
                  You will not see it again: only a fingerprint of it is stored.
                </MessageBarBody>
              </MessageBar>
              <Field label={`Token '${created.name}'`}>
                <div className={styles.secretRow}>
                  <Input className={styles.secret} readOnly value={created.token} onFocus={(e) => e.currentTarget.select()} aria-label="API token" />
                  <Button icon={<Copy20Regular />} onClick={copy}>
                    Copy
                  </Button>
                </div>
              </Field>
              <Body1 className={formStyles.intro}>Send it as the header: Authorization: Bearer &lt;token&gt;</Body1>
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={onClose}>
                Done
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    );
  }

  return (
    <FormDialog
      title="Create API Token"
      submitLabel="Create Token"
      busyLabel="Creating..."
      busy={inFlight}
      onSubmit={onSubmit}
      onClose={onClose}
      size="medium"
      describedBy="create-api-token-intro"
    >
      <Body1 id="create-api-token-intro" className={formStyles.intro}>
        A token acts as you. Give it a name you will recognise, the shortest expiry that works and the least scope it needs.
      </Body1>
      <Field label="Name" required {...validation('name')}>
        <Input value={form.name} maxLength={MAX_NAME_LENGTH} onChange={(_, d) => set('name', d.value)} autoComplete="off" autoFocus />
      </Field>
      <div className={formStyles.rowNarrow}>
        <Field label="Expires in" required {...validation('expiresInDays')}>
          <Select value={form.expiresInDays} onChange={(_, d) => set('expiresInDays', d.value)}>
            <SelectOptions options={EXPIRY_OPTIONS} />
          </Select>
        </Field>
        <Field label="Scope" required {...validation('scope')}>
          <Select value={form.scope} onChange={(_, d) => set('scope', d.value as ApiTokenScope)}>
            <SelectOptions options={SCOPE_OPTIONS} />
          </Select>
        </Field>
      </div>
    </FormDialog>
  );
}
