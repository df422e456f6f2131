import { Body1, Field, Input, Select } from '@fluentui/react-components';
import { useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import { ConnectionHandler, ROOT_ID } from 'relay-runtime';
import type { CreateUserDialogMutation } from '../../__generated__/CreateUserDialogMutation.graphql';
import { failureOf, FormDialog, SelectOptions, useFailureToast, useFieldErrors, useFormStyles, type FieldErrors } from '../../components/forms/FormDialog';
import { shownName } from '../../domain/users/userNames';
import { useNotify } from '../../components/forms/toast';
import { EMAIL_PATTERN, ROLE_OPTIONS, type RoleValue } from './userFormat';

const mutation = graphql`
  mutation CreateUserDialogMutation($input: CreateUserInput!, $connections: [ID!]!) {
    createUser(input: $input) {
      __typename
      ... on MutationCreateUserSuccess {
        data @prependNode(connections: $connections, edgeTypeName: "QueryUsersConnectionEdge") {
          id
          firstName
          lastName
          displayName
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
type Errors = FieldErrors<keyof Form>;
const EMPTY: Form = { firstName: '', lastName: '', email: '', role: '' };
const FIELDS = ['firstName', 'lastName', 'email', 'role'] as const;

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
  const styles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Creation Failed', 'Failed to create user');
  const [form, setForm] = useState<Form>(EMPTY);
  const { setErrors, clearError, validation } = useFieldErrors<keyof Form>();
  const [commit, inFlight] = useMutation<CreateUserDialogMutation>(mutation);

  const set = (field: keyof Form) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    clearError(field);
  };

  const close = () => {
    setForm(EMPTY);
    setErrors({});
    onOpenChange(false);
  };

  const onSubmit = () => {
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
              ? `${shownName(u.displayName)} has been added. A temporary password has been e-mailed to ${u.email}.`
              : 'A temporary password has been e-mailed to the new user.',
            intent: 'success',
          });
          close();
          return;
        }
        const { message, field } = failureOf(result, FIELDS);
        if (field) {
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
    <FormDialog
      open={open}
      title="Add New User"
      submitLabel="Create User"
      busyLabel="Creating..."
      busy={inFlight}
      onSubmit={onSubmit}
      onClose={close}
      size="medium"
    >
      <Body1 className={styles.intro}>A temporary password is generated and e-mailed to the user, who must change it at first sign-in.</Body1>
      <div className={styles.rowNarrow}>
        <Field label="First Name" required {...validation('firstName')}>
          <Input value={form.firstName} onChange={(_, d) => set('firstName')(d.value)} autoComplete="off" autoFocus />
        </Field>
        <Field label="Last Name">
          <Input value={form.lastName} onChange={(_, d) => set('lastName')(d.value)} autoComplete="off" />
        </Field>
      </div>
      <Field label="Email" required {...validation('email')}>
        <Input type="email" value={form.email} onChange={(_, d) => set('email')(d.value)} autoComplete="off" />
      </Field>
      <Field label="Role" required {...validation('role')}>
        <Select value={form.role} onChange={(_, d) => set('role')(d.value)}>
          <SelectOptions options={ROLE_OPTIONS} placeholder="Select a role" />
        </Select>
      </Field>
    </FormDialog>
  );
}
