import { Field, Input, Select } from '@fluentui/react-components';
import { useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { EditUserDialog_user$key } from '../../__generated__/EditUserDialog_user.graphql';
import type { EditUserDialogMutation } from '../../__generated__/EditUserDialogMutation.graphql';
import { failureOf, FormDialog, SelectOptions, useFailureToast, useFieldErrors, useFormStyles } from '../../components/forms/FormDialog';
import { shownName } from '../../domain/users/userNames';
import { useNotify } from '../../components/forms/toast';
import { ROLE_OPTIONS, type RoleValue } from './userFormat';

const mutation = graphql`
  mutation EditUserDialogMutation($id: ID!, $input: UpdateUserInput!) {
    updateUser(id: $id, input: $input) {
      __typename
      ... on MutationUpdateUserSuccess {
        data {
          id
          firstName
          lastName
          displayName
          role
          accessUserIds
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

/** The access user ids as typed: separated by commas, spaces or new lines. */
function parseAccessUserIds(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

/**
 * 'Edit' (SPEC §2 User Management, built for real): first name, last name,
 * role, and the user's ids in the source systems (access user ids: rows of
 * these users are never theirs to review).
 */
export function EditUserDialog({ user, isSelf, onClose }: EditUserDialogProps) {
  const u = useFragment(
    graphql`
      fragment EditUserDialog_user on User {
        id
        firstName
        lastName
        email
        role
        accessUserIds
      }
    `,
    user,
  );
  const styles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Update Failed', 'Failed to update user');
  const [firstName, setFirstName] = useState(u.firstName);
  const [lastName, setLastName] = useState(u.lastName);
  const [role, setRole] = useState<RoleValue>(u.role === 'ADMIN' ? 'ADMIN' : 'REVIEWER');
  const [accessIds, setAccessIds] = useState(u.accessUserIds.join(', '));
  const { setErrors, clearError, validation } = useFieldErrors<'firstName'>();
  const [commit, inFlight] = useMutation<EditUserDialogMutation>(mutation);

  const onSubmit = () => {
    if (!firstName.trim()) {
      setErrors({ firstName: 'First name is required' });
      return;
    }
    commit({
      variables: {
        id: u.id,
        input: { firstName: firstName.trim(), lastName: lastName.trim(), accessUserIds: parseAccessUserIds(accessIds), ...(isSelf ? {} : { role }) },
      },
      onCompleted: ({ updateUser: result }) => {
        if (result.__typename === 'MutationUpdateUserSuccess') {
          notify({
            title: 'User Updated',
            description: `${shownName(result.data?.displayName)} has been updated.`,
            intent: 'success',
          });
          onClose();
          return;
        }
        fail(failureOf(result).message);
      },
      onError: () => fail(),
    });
  };

  return (
    <FormDialog title="Edit User" submitLabel="Save Changes" busyLabel="Saving..." busy={inFlight} onSubmit={onSubmit} onClose={onClose} size="medium">
      <Field label="Email" hint="The e-mail address is the sign-in name and cannot be changed.">
        <Input value={u.email} readOnly />
      </Field>
      <div className={styles.rowNarrow}>
        <Field label="First Name" required {...validation('firstName')}>
          <Input
            value={firstName}
            onChange={(_, d) => {
              setFirstName(d.value);
              clearError('firstName');
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
          <SelectOptions options={ROLE_OPTIONS} />
        </Select>
      </Field>
      <Field
        label="Access User IDs"
        hint="This person's user ids in the source systems, separated by commas. They never review rows of these users (self-review)."
      >
        <Input value={accessIds} onChange={(_, d) => setAccessIds(d.value)} />
      </Field>
    </FormDialog>
  );
}
