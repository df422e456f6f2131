import { Body1, Caption1, Checkbox, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { CheckmarkCircle16Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { ChangePasswordDialogChangePasswordMutation } from '../__generated__/ChangePasswordDialogChangePasswordMutation.graphql';
import type { ChangePasswordDialog_viewer$key } from '../__generated__/ChangePasswordDialog_viewer.graphql';
import { failureOf, FormDialog, useFailureToast, useFieldErrors, useFormStyles, type FieldErrors } from '../components/forms/FormDialog';
import { useNotify } from '../components/forms/toast';

/** SPEC §9: minimum password length. */
export const MIN_PASSWORD_LENGTH = 6;

export type PasswordForm = {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
};

export type PasswordErrors = FieldErrors<keyof PasswordForm>;

/** SPEC §5, password change. */
export function validatePasswordForm(form: PasswordForm): PasswordErrors {
  const errors: PasswordErrors = {};
  if (!form.currentPassword) errors.currentPassword = 'Current password is required';
  if (!form.newPassword) {
    errors.newPassword = 'New password is required';
  } else if (form.newPassword.length < MIN_PASSWORD_LENGTH) {
    errors.newPassword = 'Password must be at least 6 characters long';
  } else if (form.currentPassword && form.newPassword === form.currentPassword) {
    errors.newPassword = 'New password must be different from current password';
  }
  if (!form.confirmPassword) {
    errors.confirmPassword = 'Please confirm your new password';
  } else if (form.confirmPassword !== form.newPassword) {
    errors.confirmPassword = 'Passwords do not match';
  }
  return errors;
}

const useStyles = makeStyles({
  hints: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
    paddingTop: tokens.spacingVerticalS,
    paddingBottom: tokens.spacingVerticalS,
    paddingLeft: tokens.spacingHorizontalM,
    paddingRight: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    listStyleType: 'none',
  },
  hint: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    color: tokens.colorNeutralForeground2,
  },
  hintIcon: {
    color: tokens.colorBrandForeground1,
    flexShrink: 0,
  },
});

const mutation = graphql`
  mutation ChangePasswordDialogChangePasswordMutation($input: ChangePasswordInput!) {
    changePassword(input: $input) {
      __typename
      ... on MutationChangePasswordSuccess {
        data {
          id
          firstName
          lastName
          email
          role
          isActive
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

const EMPTY: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };
const PASSWORD_FIELDS = [
  { field: 'currentPassword', label: 'Current Password', autoComplete: 'current-password' },
  { field: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
  { field: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password' },
] as const;
const FIELDS = PASSWORD_FIELDS.map((f) => f.field);

export type ChangePasswordDialogProps = {
  open: boolean;
  /**
   * The forced change after an initial or reset password: the dialog cannot be
   * dismissed (not even by Escape); only 'Cancel and Sign Out' ends the flow
   * through `onCancel` (sign-out).
   */
  required?: boolean;
  onCancel: () => void;
  onChanged?: () => void;
  /** The user changing the password: when they have API tokens, the dialog offers to revoke them. */
  viewer?: ChangePasswordDialog_viewer$key | null;
};

export function ChangePasswordDialog({ open, required = false, onCancel, onChanged, viewer = null }: ChangePasswordDialogProps) {
  const tokenOwner = useFragment(
    graphql`
      fragment ChangePasswordDialog_viewer on User {
        activeApiTokenCount
      }
    `,
    viewer,
  );
  const hasApiTokens = (tokenOwner?.activeApiTokenCount ?? 0) > 0;
  const [revokeApiTokens, setRevokeApiTokens] = useState(false);
  const styles = useStyles();
  const formStyles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Password Change Failed', 'Failed to change password');
  const [form, setForm] = useState<PasswordForm>(EMPTY);
  const { setErrors, clearError, validation } = useFieldErrors<keyof PasswordForm>();
  const [commit, inFlight] = useMutation<ChangePasswordDialogChangePasswordMutation>(mutation);

  const update = (field: keyof PasswordForm) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    // An error clears when its field is edited.
    clearError(field);
  };

  const onSubmit = () => {
    const found = validatePasswordForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    commit({
      variables: {
        input: {
          currentPassword: form.currentPassword,
          newPassword: form.newPassword,
          ...(hasApiTokens && revokeApiTokens ? { revokeApiTokens: true } : {}),
        },
      },
      onCompleted: ({ changePassword: result }) => {
        if (result.__typename === 'MutationChangePasswordSuccess') {
          setForm(EMPTY);
          notify({
            title: 'Password Updated',
            description: 'Your password has been changed successfully. Welcome!',
            intent: 'success',
          });
          onChanged?.();
          return;
        }
        const { message, field } = failureOf(result, FIELDS);
        if (field) setErrors((e) => ({ ...e, [field]: message }));
        fail(message);
      },
      onError: (error) => fail(error.message),
    });
  };

  const cancel = () => {
    setForm(EMPTY);
    setErrors({});
    setRevokeApiTokens(false);
    onCancel();
  };

  // Required (SPEC §2): an alert dialog that neither Escape nor an outside click closes; the only
  // way out is the explicit, labelled 'Cancel and Sign Out'.
  return (
    <FormDialog
      open={open}
      modalType={required ? 'alert' : 'modal'}
      dismissible={!required}
      cancelLabel={required ? 'Cancel and Sign Out' : 'Cancel'}
      describedBy="change-password-intro"
      title="Change Password"
      submitLabel="Change Password"
      busyLabel="Changing Password..."
      busy={inFlight}
      onSubmit={onSubmit}
      onClose={cancel}
      size="small"
    >
      <Body1 id="change-password-intro" className={formStyles.intro}>
        {required ? 'You must change your password before you can continue. Cancelling signs you out.' : 'Enter your current password and choose a new one.'}
      </Body1>
      {PASSWORD_FIELDS.map(({ field, label, autoComplete }, i) => (
        <Field key={field} label={label} required {...validation(field)}>
          <Input type="password" autoComplete={autoComplete} value={form[field]} onChange={(_, d) => update(field)(d.value)} autoFocus={i === 0} />
        </Field>
      ))}
      {hasApiTokens ? (
        <Checkbox label="Also revoke my API tokens" checked={revokeApiTokens} onChange={(_, d) => setRevokeApiTokens(d.checked === true)} />
      ) : null}
      <ul className={styles.hints} aria-label="Password requirements">
        {['At least 6 characters long', 'Different from your current password', 'Choose something secure that you have not used before'].map((hint) => (
          <li key={hint} className={styles.hint}>
            <CheckmarkCircle16Regular className={styles.hintIcon} aria-hidden />
            <Caption1>{hint}</Caption1>
          </li>
        ))}
      </ul>
    </FormDialog>
  );
}
