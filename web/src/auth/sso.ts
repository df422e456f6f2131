/**
 * Single sign-on (OpenID Connect) from the client's side: whether the server
 * has it configured, where sign-in starts, and sign-out that follows the
 * server's answer (an SSO session ends at the identity provider, then at
 * /internal-login, SPEC §4).
 */
import { useEffect, useState } from 'react';
import { api, restUrl } from '../rest/client';

/** Starts the provider's sign-in (the server redirects to the provider). */
export const SSO_LOGIN_URL = restUrl('/api/login');

let ssoEnabled: Promise<boolean> | null = null;

/** GET /api/auth/sso, asked once per page load; false when the server cannot say. */
export function fetchSsoEnabled(): Promise<boolean> {
  ssoEnabled ??= api
    .GET('/api/auth/sso')
    .then(({ data }) => data?.enabled === true)
    .catch(() => false);
  return ssoEnabled;
}

/** Whether single sign-on is configured (false while asking). */
export function useSsoEnabled(): boolean {
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    let live = true;
    void fetchSsoEnabled().then((v) => {
      if (live) setEnabled(v);
    });
    return () => {
      live = false;
    };
  }, []);
  return enabled;
}

/**
 * POST /api/logout: ends the server session. Answers where the browser must
 * go next for a single sign-on session (the provider's end-session URL, or
 * /internal-login), null for an internal session.
 */
export async function endServerSession(): Promise<string | null> {
  const { data, response } = await api.POST('/api/logout');
  if (!data) throw new Error(`Sign-out answered ${response.status}`);
  return data.redirectTo ?? null;
}
