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
  type ToastStatus,
} from '@fluentui/react-components';
import { Dismiss16Regular } from '@fluentui/react-icons';
import { MotionBehaviourProvider } from '@fluentui/react-motion';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';

/** SPEC §9: one toast at a time, shown for 5000 ms. */
export const TOAST_TIMEOUT_MS = 5000;

export type NotifyOptions = {
  title: string;
  description?: string;
  /** 'error' is the SPEC's destructive toast. */
  intent?: ToastIntent;
  /**
   * Keeps this toast from being replaced for so many milliseconds: toasts asked
   * for meanwhile are dropped (SPEC §8's 'Unauthorized' stays while the page
   * leaves, instead of the failure of the request that found the session gone).
   */
  holdMs?: number;
};

type Notify = (options: NotifyOptions) => void;

/**
 * A toast that does not hold the keyboard. Fluent makes each toast's
 * container a Tab stop and a focus group that traps Tab ('limited-trap-focus'), inside the
 * toaster's own trapping focus group: Tab on the container jumps inside, Shift+Tab on it jumps
 * to its last control, and inside Tab goes round the toast. Here the container is neither: Tab reaches the Dismiss button like any control
 * of the page and goes on past it. Announcing, timing and one-at-a-time stay Fluent's.
 */
function UntrappedToast({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = ref.current?.closest<HTMLElement>('.fui-ToastContainer');
    if (!container) return;
    container.tabIndex = -1;
    // The toast's and the toaster's focus groups: an empty set of tabster behaviours instead
    // (tabster watches the attribute and drops the group).
    for (let el: HTMLElement | null = container; el && el !== document.body; el = el.parentElement) {
      if (el.getAttribute('data-tabster')?.includes('groupper')) el.setAttribute('data-tabster', '{}');
    }
  });
  // Dismissed from the keyboard, the toast gives focus back to where it came from, not to <body>.
  useEffect(() => {
    const container = ref.current?.closest<HTMLElement>('.fui-ToastContainer');
    if (!container) return;
    let from: HTMLElement | null = null;
    const onFocusIn = (e: FocusEvent) => {
      if (e.relatedTarget instanceof HTMLElement && !container.contains(e.relatedTarget)) from = e.relatedTarget;
    };
    container.addEventListener('focusin', onFocusIn);
    return () => {
      container.removeEventListener('focusin', onFocusIn);
      if (from?.isConnected && (document.activeElement == null || document.activeElement === document.body)) from.focus();
    };
  }, []);
  return <Toast ref={ref}>{children}</Toast>;
}

const NotifyContext = createContext<Notify | null>(null);

/** Mounts the application's single Toaster and provides `useNotify()`. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const toasterId = useId('app-toaster');
  const { dispatchToast, updateToast } = useToastController(toasterId);
  // The toast on screen (SPEC §9: one at a time) and what became of it.
  const current = useRef<{ id: string; status: ToastStatus } | null>(null);
  const heldUntil = useRef(0);
  const serial = useRef(0);

  const notify = useCallback<Notify>(
    ({ title, description, intent = 'info', holdMs }) => {
      const now = Date.now();
      if (now < heldUntil.current) return;
      if (holdMs) heldUntil.current = now + holdMs;
      const content = (
        <UntrappedToast>
          <ToastTitle
            action={
              <ToastTrigger>
                <Button appearance="transparent" size="small" icon={<Dismiss16Regular />} aria-label="Dismiss notification" />
              </ToastTrigger>
            }
          >
            {title}
          </ToastTitle>
          {description ? <ToastBody>{description}</ToastBody> : null}
        </UntrappedToast>
      );
      const options = { intent, timeout: TOAST_TIMEOUT_MS, politeness: intent === 'error' ? 'assertive' : 'polite' } as const;
      // A new toast replaces the one showing, in place and at once (its timer starts again):
      // dismissing it and dispatching another queued the new one behind the old one's exit.
      const shown = current.current;
      if (shown && (shown.status === 'queued' || shown.status === 'visible')) {
        updateToast({ toastId: shown.id, content, ...options });
        return;
      }
      const id = `app-toast-${++serial.current}`;
      const entry = { id, status: 'queued' as ToastStatus };
      current.current = entry;
      dispatchToast(content, {
        ...options,
        toastId: id,
        onStatusChange: (_e, data) => {
          entry.status = data.status;
        },
      });
    },
    [dispatchToast, updateToast],
  );

  const value = useMemo(() => notify, [notify]);

  return (
    <NotifyContext.Provider value={value}>
      {children}
      {/*
        One at a time, at once: Fluent keeps a dismissed toast on screen while it
        collapses, and the next one waits behind it (up to 2 s, overlapping). Without
        the motions the replaced toast leaves and the new one shows in the same frame.
      */}
      <MotionBehaviourProvider value="skip">
        <Toaster toasterId={toasterId} position="bottom-end" limit={1} timeout={TOAST_TIMEOUT_MS} pauseOnHover />
      </MotionBehaviourProvider>
    </NotifyContext.Provider>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (notify == null) throw new Error('useNotify must be used inside <ToastProvider>');
  return notify;
}
