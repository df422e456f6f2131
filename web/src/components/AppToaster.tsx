// The Toaster and the toast's look: a chunk of its own, loaded once the page is
// up (issue 15 'Fast first load': the first screen does not wait for it).
import { Button, Toast, ToastBody, Toaster, ToastTitle, ToastTrigger } from '@fluentui/react-components';
import { Dismiss16Regular } from '@fluentui/react-icons';
import { MotionBehaviourProvider } from '@fluentui/react-motion';
import { useEffect } from 'react';
import { TOAST_TIMEOUT_MS } from './toast';

/** The application's single Toaster; `onReady` once it listens for toasts. */
export function AppToaster({ toasterId, onReady }: { toasterId: string; onReady: () => void }) {
  // The Toaster (a child) subscribes in its own effects, which run before this one.
  useEffect(onReady, [onReady]);
  return (
    // One at a time, at once: Fluent keeps a dismissed toast on screen while it
    // collapses, and the next one waits behind it (up to 2 s, overlapping). Without
    // the motions the replaced toast leaves and the new one shows in the same frame.
    <MotionBehaviourProvider value="skip">
      <Toaster toasterId={toasterId} position="bottom-end" limit={1} timeout={TOAST_TIMEOUT_MS} pauseOnHover />
    </MotionBehaviourProvider>
  );
}

/** A toast's content: its title with the dismiss button, and the description. */
export function AppToast({ title, description }: { title: string; description?: string }) {
  return (
    <Toast>
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
    </Toast>
  );
}
