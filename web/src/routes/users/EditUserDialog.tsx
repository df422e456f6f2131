import {
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
import { graphql, useFragment, useMutation } from 'react-relay';
import type { EditUserDialog_user$key } from '../../__generated__/EditUserDialog_user.graphql';
import type { EditUserDialogMutation } from '../../__generated__/EditUserDialogMutation.graphql';
import { fullName } from '../../components/Sidebar';
import { useNotify } from '../../components/toast';
import { ROLE_OPTIONS, type RoleValue } from './userFormat';

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
});

const mutation = graphql`
  mutation EditUserDialogMutation($id: ID!, $input: UpdateUserInput!) {
    updateUser(id: $id, input: $input) {
      __typename
      ... on MutationUpdateUserSuccess {
        data {
          id
          firstName
          lastName
          role
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

export type EditUserDialogProps = {
  user: EditUserDialog_user$key;
  isSelf: boolean;
  onClose: () => void;
};

/** 'Edit' (SPEC §2 User Management, built for real): first name, last name and role. */
export function EditUserDialog({ user, isSelf, onClose }: EditUserDialogProps) {
  const u = useFragment(
    graphql`
      fragment EditUserDialog_user on User {
        id
        firstName
        lastName
        email
        role
      }
    `,
    user,
  );
  const styles = useStyles();
  const notify = useNotify();
  const [firstName, setFirstName] = useState(u.firstName);
  const [lastName, setLastName] = useState(u.lastName);
  const [role, setRole] = useState<RoleValue>(u.role === 'admin' ? 'admin' : 'reviewer');
  const [error, setError] = useState<string | undefined>();
  const [commit, inFlight] = useMutation<EditUserDialogMutation>(mutation);

  const fail = (message?: string) => notify({ title: 'Update Failed', description: message || 'Failed to update user', intent: 'error' });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (inFlight) return;
    if (!firstName.trim()) {
      setError('First name is required');
      return;
    }
    commit({
      variables: {
        id: u.id,
        input: { firstName: firstName.trim(), lastName: lastName.trim(), ...(isSelf ? {} : { role }) },
      },
      onCompleted: ({ updateUser: result }) => {
        if (result.__typename === 'MutationUpdateUserSuccess') {
          notify({
            title: 'User Updated',
            description: `${fullName(result.data?.firstName ?? firstName, result.data?.lastName ?? lastName)} has been updated.`,
            intent: 'success',
          });
          onClose();
          return;
        }
        fail('message' in result ? result.message : undefined);
      },
      onError: () => fail(),
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !inFlight && onClose()}>
      <DialogSurface className={styles.surface}>
        <form onSubmit={onSubmit} noValidate>
          <DialogBody>
            <DialogTitle>Edit User</DialogTitle>
            <DialogContent className={styles.form}>
              <Field label="Email" hint="The e-mail address is the sign-in name and cannot be changed.">
                <Input value={u.email} readOnly />
              </Field>
              <div className={styles.row}>
                <Field label="First Name" required validationState={error ? 'error' : 'none'} validationMessage={error}>
                  <Input
                    value={firstName}
                    onChange={(_, d) => {
                      setFirstName(d.value);
                      setError(undefined);
                    }}
                    autoFocus
                  />
                </Field>
                <Field label="Last Name">
                  <Input value={lastName} onChange={(_, d) => setLastName(d.value)} />
                </Field>
              </div>
              <Field label="Role" hint={isSelf ? 'You cannot change your own role' : undefined}>
                <Select value={role} onChange={(_, d) => setRole(d.value as RoleValue)} disabled={isSelf}>
                  {ROLE_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </Select>
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose} disabled={inFlight}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={inFlight} icon={inFlight ? <Spinner size="tiny" /> : undefined}>
                {inFlight ? 'Saving...' : 'Save Changes'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
