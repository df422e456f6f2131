import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircle16Regular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { ChangePasswordDialogChangePasswordMutation } from '../__generated__/ChangePasswordDialogChangePasswordMutation.graphql';
import { useNotify } from './toast';

/** SPEC §9: minimum password length. */
export const MIN_PASSWORD_LENGTH = 6;

export type PasswordForm = {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
};

export type PasswordErrors = Partial<Record<keyof PasswordForm, string>>;

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
  surface: {
    maxWidth: '480px',
  },
  form: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
  intro: {
    color: tokens.colorNeutralForeground2,
  },
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
  action: {
    whiteSpace: 'nowrap',
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

export type ChangePasswordDialogProps = {
  open: boolean;
  /**
   * The forced change after an initial or reset password: the dialog cannot be
   * dismissed; Cancel or Escape ends the flow through `onCancel` (sign-out).
   */
  required?: boolean;
  onCancel: () => void;
  onChanged?: () => void;
};

export function ChangePasswordDialog({ open, required = false, onCancel, onChanged }: ChangePasswordDialogProps) {
  const styles = useStyles();
  const notify = useNotify();
  const [form, setForm] = useState<PasswordForm>(EMPTY);
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [commit, inFlight] = useMutation<ChangePasswordDialogChangePasswordMutation>(mutation);

  const update = (field: keyof PasswordForm) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    // An error clears when its field is edited.
    setErrors((e) => {
      if (!e[field]) return e;
      const next = { ...e };
      delete next[field];
      return next;
    });
  };

  const fail = (message?: string | null) =>
    notify({ title: 'Password Change Failed', description: message || 'Failed to change password', intent: 'error' });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (inFlight) return;
    const found = validatePasswordForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    commit({
      variables: { input: { currentPassword: form.currentPassword, newPassword: form.newPassword } },
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
        const message = 'message' in result ? result.message : undefined;
        const field = 'field' in result ? result.field : undefined;
        if (message && (field === 'currentPassword' || field === 'newPassword' || field === 'confirmPassword')) {
          setErrors((e) => ({ ...e, [field]: message }));
        }
        fail(message);
      },
      onError: (error) => fail(error.message),
    });
  };

  const cancel = () => {
    if (inFlight) return;
    setForm(EMPTY);
    setErrors({});
    onCancel();
  };

  return (
    <Dialog
      open={open}
      modalType={required ? 'alert' : 'modal'}
      onOpenChange={(_, data) => {
        // Outside clicks never close an alert dialog; Escape ends the flow like Cancel.
        if (!data.open) cancel();
      }}
    >
      <DialogSurface className={styles.surface} aria-describedby="change-password-intro">
        <form onSubmit={onSubmit} noValidate>
          <DialogBody>
            <DialogTitle>Change Password</DialogTitle>
            <DialogContent className={styles.form}>
              <Body1 id="change-password-intro" className={styles.intro}>
                {required
                  ? 'You must change your password before you can continue. Cancelling signs you out.'
                  : 'Enter your current password and choose a new one.'}
              </Body1>
              <Field
                label="Current Password"
                required
                validationState={errors.currentPassword ? 'error' : 'none'}
                validationMessage={errors.currentPassword}
              >
                <Input
                  type="password"
                  autoComplete="current-password"
                  value={form.currentPassword}
                  onChange={(_, d) => update('currentPassword')(d.value)}
                  autoFocus
                />
              </Field>
              <Field
                label="New Password"
                required
                validationState={errors.newPassword ? 'error' : 'none'}
                validationMessage={errors.newPassword}
              >
                <Input
                  type="password"
                  autoComplete="new-password"
                  value={form.newPassword}
                  onChange={(_, d) => update('newPassword')(d.value)}
                />
              </Field>
              <Field
                label="Confirm New Password"
                required
                validationState={errors.confirmPassword ? 'error' : 'none'}
                validationMessage={errors.confirmPassword}
              >
                <Input
                  type="password"
                  autoComplete="new-password"
                  value={form.confirmPassword}
                  onChange={(_, d) => update('confirmPassword')(d.value)}
                />
              </Field>
              <ul className={styles.hints} aria-label="Password requirements">
                {[
                  'At least 6 characters long',
                  'Different from your current password',
                  'Choose something secure that you have not used before',
                ].map((hint) => (
                  <li key={hint} className={styles.hint}>
                    <CheckmarkCircle16Regular className={styles.hintIcon} aria-hidden />
                    <Caption1>{hint}</Caption1>
                  </li>
                ))}
              </ul>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={cancel} disabled={inFlight}>
                Cancel
              </Button>
              <Button
                appearance="primary"
                type="submit"
                className={styles.action}
                disabled={inFlight}
                icon={inFlight ? <Spinner size="tiny" /> : undefined}
              >
                {inFlight ? 'Changing Password...' : 'Change Password'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
