import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { useNotify } from './toast';

const useStyles = makeStyles({
  small: { maxWidth: '480px' },
  medium: { maxWidth: '520px' },
  large: { maxWidth: '560px' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
  // Fluent puts the buttons in the last two of the dialog's three columns (half its width):
  // 'Cancel and Sign Out' beside 'Change Password' did not fit, and the button, no narrower
  // than its minimum but narrower than its label, cut the label off. The buttons take the
  // whole row here and wrap to a second line before any label is cut (on a phone Fluent
  // stacks them).
  actions: { gridColumnStart: 1, flexWrap: 'wrap', justifyContent: 'flex-end', rowGap: tokens.spacingVerticalS },
  button: { flexShrink: 0, whiteSpace: 'nowrap' },
});

/** Layout classes for the fields of a form dialog. */
export const useFormStyles = makeStyles({
  /** Fields side by side, wrapping to one column when narrow. */
  row: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  /** `row` for the narrower dialogs: columns down to 180 px. */
  rowNarrow: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  /** The explanatory text above the fields. */
  intro: { color: tokens.colorNeutralForeground2 },
});

export type FormDialogProps = {
  /** Defaults to true, for dialogs that are mounted only while open. */
  open?: boolean;
  title: string;
  /** The primary button's text. */
  submitLabel: string;
  /** The primary button's text while `busy`; the submit label when not given. */
  busyLabel?: string;
  /** A submission is in flight: both buttons are disabled and the dialog cannot be closed. */
  busy: boolean;
  /** The primary button is disabled (as while `busy`), for instance until a required field is filled. */
  submitDisabled?: boolean;
  /** The form was submitted (Enter or the primary button); not called while busy. */
  onSubmit: () => void;
  /** Cancel, Escape or a click outside (not with `modalType` 'alert'); not called while busy. */
  onClose: () => void;
  /** The cancel button's text ('Cancel' unless given). */
  cancelLabel?: string;
  /** False: only the cancel button closes the dialog, never Escape or a click outside. */
  dismissible?: boolean;
  /** 'alert': a dialog that a click outside does not dismiss (Cancel and Escape still call `onClose`). */
  modalType?: 'modal' | 'alert';
  /** The id of the element that describes the dialog (its intro), for assistive technology. */
  describedBy?: string;
  /** The surface's maximum width: 480, 520 or 560 px. */
  size?: 'small' | 'medium' | 'large';
  /** The fields, laid out in a column. */
  children: ReactNode;
};

/**
 * The dialog around a form: title, the fields, Cancel and a primary submit
 * button that shows a spinner (and `busyLabel`) while the submission is in flight.
 */
export function FormDialog({
  open = true,
  title,
  submitLabel,
  busyLabel,
  busy,
  submitDisabled = false,
  onSubmit,
  onClose,
  cancelLabel = 'Cancel',
  dismissible = true,
  modalType = 'modal',
  describedBy,
  size = 'large',
  children,
}: FormDialogProps) {
  const styles = useStyles();
  const close = () => {
    if (!busy) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <Dialog open={open} modalType={modalType} onOpenChange={(_, d) => !d.open && dismissible && close()}>
      <DialogSurface className={styles[size]} aria-describedby={describedBy}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={styles.content}>{children}</DialogContent>
            <DialogActions className={styles.actions}>
              <Button appearance="secondary" className={styles.button} onClick={close} disabled={busy}>
                {cancelLabel}
              </Button>
              <Button
                appearance="primary"
                type="submit"
                className={styles.button}
                disabled={busy || submitDisabled}
                icon={busy ? <Spinner size="tiny" /> : undefined}
              >
                {busy ? (busyLabel ?? submitLabel) : submitLabel}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/** A native `Select`'s options, after an optional disabled placeholder (the empty value). */
export function SelectOptions({ options, placeholder }: { options: ReadonlyArray<{ readonly value: string; readonly label: string }>; placeholder?: string }) {
  return (
    <>
      {placeholder != null ? (
        <option value="" disabled>
          {placeholder}
        </option>
      ) : null}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
  );
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/**
 * A form's validation messages by field: `validation(field)` gives a Field's
 * `validationState` and `validationMessage`; `clearError(field)` drops one as
 * the user edits it.
 */
export function useFieldErrors<K extends string>() {
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const clearError = useCallback((field: K) => {
    setErrors((e) => {
      if (!e[field]) return e;
      const next = { ...e };
      delete next[field];
      return next;
    });
  }, []);
  const validation = (field: K) => ({ validationState: errors[field] ? 'error' : 'none', validationMessage: errors[field] }) as const;
  return { errors, setErrors, clearError, validation };
}

/**
 * A failed mutation result's message and, when it is a ValidationError naming
 * one of `fields`, that field.
 */
export function failureOf<K extends string>(result: object, fields: readonly K[] = []): { message?: string; field?: K } {
  const message = 'message' in result && typeof result.message === 'string' ? result.message : undefined;
  const named = 'field' in result && typeof result.field === 'string' ? result.field : undefined;
  const field = message && named && (fields as readonly string[]).includes(named) ? (named as K) : undefined;
  return { message, field };
}

/** The error toast of a failed submission: the server's message, or `fallback`. */
export function useFailureToast(title: string, fallback: string): (message?: string) => void {
  const notify = useNotify();
  return (message?: string) => notify({ title, description: message || fallback, intent: 'error' });
}
