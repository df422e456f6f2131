import {
  Button,
  Toast,
  ToastBody,
  Toaster,
  ToastTitle,
  ToastTrigger,
  useId,
  useToastController,
  type ToastIntent,
} from '@fluentui/react-components';
import { Dismiss16Regular } from '@fluentui/react-icons';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';

/** SPEC §9: one toast at a time, shown for 5000 ms. */
export const TOAST_TIMEOUT_MS = 5000;

export type NotifyOptions = {
  title: string;
  description?: string;
  /** 'error' is the SPEC's destructive toast. */
  intent?: ToastIntent;
};

type Notify = (options: NotifyOptions) => void;

const NotifyContext = createContext<Notify | null>(null);

/** Mounts the application's single Toaster and provides `useNotify()`. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const toasterId = useId('app-toaster');
  const { dispatchToast, dismissAllToasts } = useToastController(toasterId);

  const notify = useCallback<Notify>(
    ({ title, description, intent = 'info' }) => {
      // One at a time: a new toast replaces the one on screen.
      dismissAllToasts();
      dispatchToast(
        <Toast>
          <ToastTitle
            action={
              <ToastTrigger>
                <Button
                  appearance="transparent"
                  size="small"
                  icon={<Dismiss16Regular />}
                  aria-label="Dismiss notification"
                />
              </ToastTrigger>
            }
          >
            {title}
          </ToastTitle>
          {description ? <ToastBody>{description}</ToastBody> : null}
        </Toast>,
        { intent, timeout: TOAST_TIMEOUT_MS, politeness: intent === 'error' ? 'assertive' : 'polite' },
      );
    },
    [dispatchToast, dismissAllToasts],
  );

  const value = useMemo(() => notify, [notify]);

  return (
    <NotifyContext.Provider value={value}>
      {children}
      <Toaster toasterId={toasterId} position="bottom-end" limit={1} timeout={TOAST_TIMEOUT_MS} pauseOnHover />
    </NotifyContext.Provider>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (notify == null) throw new Error('useNotify must be used inside <ToastProvider>');
  return notify;
}
