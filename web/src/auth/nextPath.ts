// Where sign-in returns to: a signed-out deep link goes to
// /internal-login?next=<the link>, and back to it after signing in. Only a
// path of this app is followed, never another site (no open redirect).

export const SIGN_IN_PATH = '/internal-login';

/** Pages the server serves itself (GraphiQL), not routes of the web app: returning to one loads it. */
export function isServerPage(path: string): boolean {
  const pathname = path.split(/[?#]/)[0];
  return pathname === '/graphql';
}

/** The sign-in address that returns to `path` (the path, search and hash of the link opened). */
export function signInPathFor(path: string): string {
  return `${SIGN_IN_PATH}?next=${encodeURIComponent(path)}`;
}

/**
 * The same-origin path `next` names, or '/' when it names none, another
 * origin ('//evil.example', 'https://evil.example', '/\\evil.example',
 * 'javascript:...'), or the sign-in page itself.
 */
export function safeNextPath(next: string | null | undefined, origin: string = window.location.origin): string {
  if (!next || next.length > 2048 || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  // Control characters and backslashes are read as slashes by some browsers.
  // eslint-disable-next-line no-control-regex -- a control character in the path is refused
  if (/[\u0000-\u001f\\]/.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return '/';
  }
  if (url.origin !== origin || url.pathname === SIGN_IN_PATH) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
