import { useId, useToastController, type ToastIntent, type ToastStatus } from '@fluentui/react-components';
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

// The Toaster and the toast's components are a chunk of their own, loaded once the page is up
// (issue 15 'Fast first load': the first screen does not wait for them).
const toasterCode = () => import('./AppToaster');
const AppToaster = lazy(() => toasterCode().then((m) => ({ default: m.AppToaster })));
const AppToast = lazy(() => toasterCode().then((m) => ({ default: m.AppToast })));

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

const NotifyContext = createContext<Notify | null>(null);

/** Mounts the application's single Toaster and provides `useNotify()`. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const toasterId = useId('app-toaster');
  const { dispatchToast, updateToast } = useToastController(toasterId);
  // The toast on screen (SPEC §9: one at a time) and what became of it.
  const current = useRef<{ id: string; status: ToastStatus } | null>(null);
  const heldUntil = useRef(0);
  const serial = useRef(0);

  // Until the Toaster's code is in and it listens, the latest toast waits here (one at a time anyway).
  const [toasterWanted, setToasterWanted] = useState(false);
  const toasterReady = useRef(false);
  const waiting = useRef<NotifyOptions | null>(null);

  const show = useCallback(
    ({ title, description, intent = 'info' }: NotifyOptions) => {
      const content = (
        <Suspense fallback={null}>
          <AppToast title={title} description={description} />
        </Suspense>
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

  const notify = useCallback<Notify>(
    (options) => {
      const now = Date.now();
      if (now < heldUntil.current) return;
      if (options.holdMs) heldUntil.current = now + options.holdMs;
      if (toasterReady.current) return show(options);
      waiting.current = options;
      setToasterWanted(true);
    },
    [show],
  );

  // Mounted once the page is up (its code is not needed for the first screen), or with the
  // first toast if that comes sooner: not while a modal dialog is open, since Fluent's modal
  // hides (aria-hidden) whatever is added beside it and a Toaster mounted then stays hidden.
  useEffect(() => {
    let idle = 0;
    const mount = () => {
      idle = typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(() => setToasterWanted(true), { timeout: 3000 }) : window.setTimeout(() => setToasterWanted(true), 1000);
    };
    if (document.readyState === 'complete') mount();
    else window.addEventListener('load', mount, { once: true });
    return () => {
      window.removeEventListener('load', mount);
      if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idle);
      window.clearTimeout(idle);
    };
  }, []);

  const onToasterReady = useCallback(() => {
    toasterReady.current = true;
    const next = waiting.current;
    waiting.current = null;
    if (next) show(next);
  }, [show]);

  const value = useMemo(() => notify, [notify]);

  return (
    <NotifyContext.Provider value={value}>
      {children}
      {toasterWanted ? (
        <Suspense fallback={null}>
          <AppToaster toasterId={toasterId} onReady={onToasterReady} />
        </Suspense>
      ) : null}
    </NotifyContext.Provider>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (notify == null) throw new Error('useNotify must be used inside <ToastProvider>');
  return notify;
}
