import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders its children (a dialog whose code is a lazy chunk, kept off the
 * first load) from the first time `open` is true on, so a page loads the
 * dialog's code only when it is first opened; nothing shows while it loads.
 * Once mounted it stays, so the dialog closes with its own motion.
 */
export function OnDemand({ open, children }: { open: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
