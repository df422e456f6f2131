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
  Select,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { graphql, useMutation } from 'react-relay';
import { ConnectionHandler, ROOT_ID } from 'relay-runtime';
import type { CreateUserDialogMutation } from '../../__generated__/CreateUserDialogMutation.graphql';
import { fullName } from '../../components/Sidebar';
import { useNotify } from '../../components/toast';
import { EMAIL_PATTERN, ROLE_OPTIONS, type RoleValue } from './userFormat';

const useStyles = makeStyles({
  surface: { maxWidth: '520px' },
  form: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
  row: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  intro: { color: tokens.colorNeutralForeground2 },
});

const mutation = graphql`
  mutation CreateUserDialogMutation($input: CreateUserInput!, $connections: [ID!]!) {
    createUser(input: $input) {
      __typename
      ... on MutationCreateUserSuccess {
        data @prependNode(connections: $connections, edgeTypeName: "QueryUsersConnectionEdge") {
          id
          firstName
          lastName
          email
          role
          isActive
          ...UserRow_user
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

/** The connection the Users table lists (UsersTable's @connection key). */
export const USERS_CONNECTION_ID = ConnectionHandler.getConnectionID(ROOT_ID, 'UsersTable_users');

type Form = { firstName: string; lastName: string; email: string; role: RoleValue | '' };
type Errors = Partial<Record<keyof Form, string>>;
const EMPTY: Form = { firstName: '', lastName: '', email: '', role: '' };

/** SPEC §5, 'Create user'. */
export function validateCreateUser(form: Form): Errors {
  const errors: Errors = {};
  if (!form.firstName.trim()) errors.firstName = 'First name is required';
  if (!form.email.trim()) errors.email = 'Email is required';
  else if (!EMAIL_PATTERN.test(form.email.trim())) errors.email = 'Please enter a valid email address';
  if (!form.role) errors.role = 'Role is required';
  return errors;
}

export function CreateUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const styles = useStyles();
  const notify = useNotify();
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [commit, inFlight] = useMutation<CreateUserDialogMutation>(mutation);

  const set = (field: keyof Form) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => {
      if (!e[field]) return e;
      const next = { ...e };
      delete next[field];
      return next;
    });
  };

  const close = () => {
    if (inFlight) return;
    setForm(EMPTY);
    setErrors({});
    onOpenChange(false);
  };

  const fail = (message?: string) => notify({ title: 'Creation Failed', description: message || 'Failed to create user', intent: 'error' });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (inFlight) return;
    const found = validateCreateUser(form);
    setErrors(found);
    if (Object.keys(found).length > 0 || !form.role) return;
    commit({
      variables: {
        input: {
          firstName: form.firstName.trim(),
          lastName: form.lastName.trim() || null,
          email: form.email.trim(),
          role: form.role,
        },
        connections: [USERS_CONNECTION_ID],
      },
      onCompleted: ({ createUser: result }) => {
        if (result.__typename === 'MutationCreateUserSuccess') {
          const u = result.data;
          notify({
            title: 'User Created',
            description: u
              ? `${fullName(u.firstName, u.lastName)} has been added. A temporary password has been e-mailed to ${u.email}.`
              : 'A temporary password has been e-mailed to the new user.',
            intent: 'success',
          });
          setForm(EMPTY);
          setErrors({});
          onOpenChange(false);
          return;
        }
        const message = 'message' in result ? result.message : undefined;
        const field = 'field' in result ? result.field : undefined;
        if (message && (field === 'firstName' || field === 'lastName' || field === 'email' || field === 'role')) {
          setErrors((e) => ({ ...e, [field]: message }));
        } else if (message && /already exists/i.test(message)) {
          setErrors((e) => ({ ...e, email: message }));
        }
        fail(message);
      },
      onError: () => fail(),
    });
  };

  return (
    <Dialog open={open} onOpenChange={(_, d) => (d.open ? onOpenChange(true) : close())}>
      <DialogSurface className={styles.surface}>
        <form onSubmit={onSubmit} noValidate>
          <DialogBody>
            <DialogTitle>Add New User</DialogTitle>
            <DialogContent className={styles.form}>
              <Body1 className={styles.intro}>
                A temporary password is generated and e-mailed to the user, who must change it at first sign-in.
              </Body1>
              <div className={styles.row}>
                <Field label="First Name" required validationState={errors.firstName ? 'error' : 'none'} validationMessage={errors.firstName}>
                  <Input value={form.firstName} onChange={(_, d) => set('firstName')(d.value)} autoComplete="off" autoFocus />
                </Field>
                <Field label="Last Name">
                  <Input value={form.lastName} onChange={(_, d) => set('lastName')(d.value)} autoComplete="off" />
                </Field>
              </div>
              <Field label="Email" required validationState={errors.email ? 'error' : 'none'} validationMessage={errors.email}>
                <Input type="email" value={form.email} onChange={(_, d) => set('email')(d.value)} autoComplete="off" />
              </Field>
              <Field label="Role" required validationState={errors.role ? 'error' : 'none'} validationMessage={errors.role}>
                <Select value={form.role} onChange={(_, d) => set('role')(d.value)}>
                  <option value="" disabled>
                    Select a role
                  </option>
                  {ROLE_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </Select>
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={inFlight}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={inFlight} icon={inFlight ? <Spinner size="tiny" /> : undefined}>
                {inFlight ? 'Creating...' : 'Create User'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
