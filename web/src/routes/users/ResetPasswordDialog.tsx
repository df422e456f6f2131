import { Body1, Button, Field, Input, makeStyles, tokens, Tooltip } from '@fluentui/react-components';
import { ArrowClockwise16Regular, Eye20Regular, EyeOff20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { ResetPasswordDialog_user$key } from '../../__generated__/ResetPasswordDialog_user.graphql';
import type { ResetPasswordDialogMutation } from '../../__generated__/ResetPasswordDialogMutation.graphql';
import { MIN_PASSWORD_LENGTH } from '../../auth/ChangePasswordDialog';
import { failureOf, FormDialog, useFailureToast, useFieldErrors, useFormStyles, type FieldErrors } from '../../components/forms/FormDialog';
import { shownName } from '../../domain/users/userNames';
import { useNotify } from '../../components/forms/toast';
import { generatePassword } from './userFormat';

const useStyles = makeStyles({
  passwordRow: {
    display: 'flex',
    alignItems: 'flex-start',
    columnGap: tokens.spacingHorizontalS,
  },
  grow: { flexGrow: 1, minWidth: 0 },
  generate: {
    marginTop: '26px',
    flexShrink: 0,
  },
  mono: {
    fontFamily: tokens.fontFamilyMonospace,
  },
});

const mutation = graphql`
  mutation ResetPasswordDialogMutation($id: ID!, $newPassword: String!) {
    resetUserPassword(id: $id, newPassword: $newPassword) {
      __typename
      ... on MutationResetUserPasswordSuccess {
        data {
          id
          passwordResetRequired
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

type Errors = FieldErrors<'newPassword' | 'confirmPassword'>;

/** SPEC §5, 'Reset password'. */
export function validateReset(newPassword: string, confirmPassword: string): Errors {
  const errors: Errors = {};
  if (!newPassword) errors.newPassword = 'New password is required';
  else if (newPassword.length < MIN_PASSWORD_LENGTH) errors.newPassword = 'Password must be at least 6 characters long';
  if (!confirmPassword) errors.confirmPassword = 'Please confirm the new password';
  else if (confirmPassword !== newPassword) errors.confirmPassword = 'Passwords do not match';
  return errors;
}

export function ResetPasswordDialog({ user, onClose }: { user: ResetPasswordDialog_user$key; onClose: () => void }) {
  const u = useFragment(
    graphql`
      fragment ResetPasswordDialog_user on User {
        id
        firstName
        lastName
        displayName
        email
      }
    `,
    user,
  );
  const styles = useStyles();
  const formStyles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Reset Failed', 'Failed to reset password');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [visible, setVisible] = useState(false);
  const { setErrors, clearError, validation } = useFieldErrors<keyof Errors>();
  const [commit, inFlight] = useMutation<ResetPasswordDialogMutation>(mutation);
  const name = shownName(u.displayName);

  const onGenerate = () => {
    const password = generatePassword();
    setNewPassword(password);
    setConfirmPassword(password);
    setVisible(true);
    setErrors({});
  };

  const onSubmit = () => {
    const found = validateReset(newPassword, confirmPassword);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    commit({
      variables: { id: u.id, newPassword },
      onCompleted: ({ resetUserPassword: result }) => {
        if (result.__typename === 'MutationResetUserPasswordSuccess') {
          notify({
            title: 'Password Reset',
            description: `The new password has been e-mailed to ${u.email}. ${name} must change it at next sign-in.`,
            intent: 'success',
          });
          onClose();
          return;
        }
        const { message, field } = failureOf(result, ['newPassword'] as const);
        if (field) setErrors({ [field]: message });
        fail(message);
      },
      onError: () => fail(),
    });
  };

  const visibility = (
    <Tooltip content={visible ? 'Hide password' : 'Show password'} relationship="label">
      <Button appearance="transparent" size="small" icon={visible ? <EyeOff20Regular /> : <Eye20Regular />} onClick={() => setVisible((v) => !v)} />
    </Tooltip>
  );

  return (
    <FormDialog title="Reset Password" submitLabel="Reset Password" busyLabel="Resetting..." busy={inFlight} onSubmit={onSubmit} onClose={onClose} size="small">
      <Body1 className={formStyles.intro}>
        Set a new password for {name} ({u.email}). It is e-mailed to them, and they must change it when they next sign in.
      </Body1>
      <div className={styles.passwordRow}>
        <Field className={styles.grow} label="New Password" required hint="At least 6 characters" {...validation('newPassword')}>
          <Input
            className={styles.mono}
            type={visible ? 'text' : 'password'}
            autoComplete="new-password"
            value={newPassword}
            contentAfter={visibility}
            onChange={(_, d) => {
              setNewPassword(d.value);
              clearError('newPassword');
            }}
            autoFocus
          />
        </Field>
        <Button className={styles.generate} icon={<ArrowClockwise16Regular />} onClick={onGenerate}>
          Generate
        </Button>
      </div>
      <Field label="Confirm Password" required {...validation('confirmPassword')}>
        <Input
          className={styles.mono}
          type={visible ? 'text' : 'password'}
          autoComplete="new-password"
          value={confirmPassword}
          onChange={(_, d) => {
            setConfirmPassword(d.value);
            clearError('confirmPassword');
          }}
        />
      </Field>
    </FormDialog>
  );
}
