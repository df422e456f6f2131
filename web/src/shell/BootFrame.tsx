import { useMemo } from 'react';
import { bootFrameHtml, NONCE_PLACEHOLDER } from '../boot/bootFrame';

// Whether the server painted the frame into #root (a request with a session cookie), read
// before React's first render replaces it, and the sidebar state it was painted with.
const painted = typeof document === 'undefined' ? null : document.querySelector('#root > .bf');
const paintedCollapsed = painted?.querySelector('.bf-collapsed') != null;

/** True when the page arrived with the signed-in frame (App.tsx's Layout keeps it while the session loads). */
export const bootFramePainted = painted != null;

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
 * shell's code arrives (issue 15, 'Fast first load'): the very markup the server painted
 * before the entry ran (boot/bootFrame.ts), so React's first render replaces it with
 * itself: nothing flashes or moves.
 */
export function BootFrame() {
  const html = useMemo(
    () => bootFrameHtml(window.location.pathname, nonce(), painted ? paintedCollapsed : storedCollapsed()),
    [],
  );
  return <div dangerouslySetInnerHTML={{ __html: html }} />;
}
