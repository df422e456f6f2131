import { useMemo, type ReactNode } from 'react';
import { bootFrameContentHtml, bootFrameHtml, NONCE_PLACEHOLDER, VIEWER_VARIANTS, type BootVariant } from '../boot/bootFrame';

// Whether the server painted the frame into #root (a request with a session cookie), read
// before React's first render replaces it, the sidebar state it was painted with, and the
// viewer's variant the server chose (Risk Review: role and period, boot/bootFrame.ts).
const painted = typeof document === 'undefined' ? null : document.querySelector('#root > .bf');
const paintedCollapsed = painted?.querySelector('.bf-collapsed') != null;
const paintedPath = typeof window === 'undefined' ? '' : window.location.pathname;
const paintedVariant: BootVariant = ((v) => ((VIEWER_VARIANTS as readonly string[]).includes(v) ? (v as BootVariant) : ''))(
  painted?.getAttribute('data-variant') ?? '',
);
/** Until the first screen has shown itself (bootScreenShown), the painted frame's content stands in for it. */
let firstScreenPending = painted != null;

/** True when the page arrived with the signed-in frame (App.tsx's Layout keeps it while the session loads). */
export const bootFramePainted = painted != null;

/** The viewer variant the painted frame shows, while the first screen of this load has not yet shown itself. */
export function bootVariant(): BootVariant | null {
  return firstScreenPending && window.location.pathname === paintedPath ? paintedVariant : null;
}

/** Called by a screen the frame stood in for, once it shows its own content: the frame's picture is no longer wanted. */
export function bootScreenShown(): void {
  firstScreenPending = false;
}

function nonce(): string {
  const value = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? '';
  return value === NONCE_PLACEHOLDER ? '' : value;
}

function storedCollapsed(): boolean {
  try {
    return window.localStorage.getItem('sidebar_collapsed') === 'true';
  } catch {
    return false;
  }
}

/**
 * The signed-in page's frame (top bar, the page's heading) while the session loads or the
 * shell's code arrives: the very markup the server painted
 * before the entry ran (boot/bootFrame.ts), so React's first render replaces it with
 * itself: nothing flashes or moves.
 */
export function BootFrame() {
  const html = useMemo(() => bootFrameHtml(window.location.pathname, nonce(), painted ? paintedCollapsed : storedCollapsed(), bootVariant() ?? ''), []);
  return <div dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * Inside the real shell, while a screen the server framed for the viewer (Risk Review) loads its
 * code: the frame's content (heading, tabs, the queue's card and notice), where the screen will
 * draw the same; `fallback` when this load was not painted with such a frame.
 */
export function BootFrameContent({ fallback }: { fallback: ReactNode }) {
  const variant = bootVariant();
  const html = useMemo(() => (variant ? bootFrameContentHtml(window.location.pathname, nonce(), variant) : ''), [variant]);
  return variant ? <div dangerouslySetInnerHTML={{ __html: html }} /> : <>{fallback}</>;
}
