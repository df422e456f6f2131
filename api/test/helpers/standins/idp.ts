// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- oidc-provider ships no types; this file declares them
/// <reference path="./oidc-provider.d.ts" />
// A real OpenID provider, in-process (oidc-provider), for the single sign-on
// tests: one confidential client, PKCE required, a minimal login page (one
// field: the account's login name) that grants the requested scopes at once,
// accounts whose claims a test sets, and RP-initiated logout. Used by the API
// tests (api/test/identity/oidc.test.ts) and the browser test (web/e2e/sso.spec.ts).
//
// The issuer URL is known as soon as the provider listens; the client is
// registered with `attach` once the app servers (whose URLs are the redirect
// targets) are running, because they need the issuer URL to start.
import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Provider } from 'oidc-provider';

export interface IdpAccount {
  email?: string;
  email_verified?: boolean | string;
  given_name?: string;
  family_name?: string;
  name?: string;
  groups?: string[];
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Login name → claims; what the login page accepts. */
  accounts: Map<string, IdpAccount>;
  /** Registers the client for these app origins (callback and post-logout URLs); call once. */
  attach(appOrigins: string[]): void;
  /** The app environment for single sign-on against this provider. */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

const html = (body: string) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Test identity provider</title></head><body>${body}</body></html>`;

function loginPage(uid: string, error?: string): string {
  return html(`<h1>Test identity provider</h1>
    ${error ? `<p role="alert">${error}</p>` : ''}
    <form method="post" action="/interaction/${uid}/login">
      <label>Account <input name="login" autocomplete="off" autofocus></label>
      <button type="submit">Sign in</button>
    </form>`);
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startIdp(opts: { host?: string; port?: number } = {}): Promise<TestIdp> {
  const host = opts.host ?? '127.0.0.1';
  const accounts = new Map<string, IdpAccount>();
  const clientId = 'grc-app';
  const clientSecret = crypto.randomBytes(24).toString('base64url');
  let provider: Provider | null = null;
  let handler: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | null = null;

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse, p: Provider) {
    const details = await p.interactionDetails(req, res);
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method === 'GET') return send(200, loginPage(details.uid));
    const login = (await readForm(req)).get('login')?.trim() ?? '';
    if (!accounts.has(login)) return send(400, loginPage(details.uid, `No account '${login}' at this provider.`));
    // Consent is implied: grant the scopes the client asked for.
    const grant = new p.Grant({ accountId: login, clientId: details.params.client_id! });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    const grantId = await grant.save();
    await p.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  const server = http.createServer((req, res) => {
    if (!provider || !handler) {
      res.writeHead(503).end('provider not attached');
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res, provider).catch((err: Error) => {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`interaction failed: ${err.message}`);
      });
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    attach(appOrigins) {
      const jwk = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: appOrigins.map((o) => `${o}/api/auth/callback`),
            post_logout_redirect_uris: appOrigins.map((o) => `${o}/internal-login`),
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        jwks: { keys: [{ ...jwk, kid: 'test-key', use: 'sig', alg: 'RS256' }] },
        cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
        scopes: ['openid', 'email', 'profile', 'groups'],
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['name', 'given_name', 'family_name'],
          groups: ['groups'],
        },
        async findAccount(_ctx: unknown, sub: string) {
          const account = accounts.get(sub);
          if (!account) return undefined;
          return { accountId: sub, claims: async () => ({ sub, ...account }) };
        },
        pkce: { required: () => true },
        ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
        interactions: { url: (_ctx: unknown, i: { uid: string }) => `/interaction/${i.uid}` },
        features: {
          devInteractions: { enabled: false },
          rpInitiatedLogout: {
            enabled: true,
            async logoutSource(ctx: { body: string }, form: string) {
              ctx.body = html(`<h1>Sign out of the test identity provider?</h1>${form}
                <button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`);
            },
          },
        },
        async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
          ctx.type = 'html';
          ctx.body = html(`<h1>Provider error</h1><pre>${JSON.stringify(out)}</pre>`);
        },
      });
      handler = provider.callback();
    },
    env(extra = {}) {
      return { OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, ...extra };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A browser stand-in for the API tests: a cookie jar (name, path; ports
 * ignored, as browsers do) and redirects followed one by one.
 */
export class Browser {
  cookies = new Map<string, { value: string; path: string }>();

  private cookieHeader(url: URL): string {
    return [...this.cookies]
      .filter(([, c]) => url.pathname.startsWith(c.path))
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
  }

  async request(method: string, url: string, form?: Record<string, string>) {
    const u = new URL(url);
    const headers: Record<string, string> = {};
    const cookie = this.cookieHeader(u);
    if (cookie) headers.cookie = cookie;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(u, { method, headers, body: form ? new URLSearchParams(form).toString() : undefined, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      const path =
        attrs
          .map((a) => a.trim())
          .find((a) => /^path=/i.test(a))
          ?.slice(5) || '/';
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a) || /max-age=0/i.test(a.trim()));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
    const location = res.headers.get('location');
    return { status: res.status, url: u.href, location: location ? new URL(location, u).href : null, text: await res.text() };
  }

  /**
   * Requests `url` and follows redirects (GET) until a page answers, or until
   * `stopBefore` says the next URL is not to be requested (then `url` is it).
   */
  async navigate(url: string, opts: { method?: string; form?: Record<string, string>; stopBefore?: (next: URL) => boolean } = {}) {
    const hops: string[] = [];
    let r = await this.request(opts.method ?? 'GET', url, opts.form);
    while (r.status >= 300 && r.status < 400 && r.location) {
      hops.push(r.location);
      if (hops.length > 15) throw new Error(`too many redirects: ${hops.join(' -> ')}`);
      if (opts.stopBefore?.(new URL(r.location))) return { ...r, url: r.location, stopped: true, hops };
      r = await this.request('GET', r.location);
    }
    return { ...r, stopped: false, hops };
  }
}

/** The action of the first form on a page, absolute. */
export function formAction(page: { url: string; text: string }): string {
  const m = /<form[^>]*action="([^"]+)"/.exec(page.text);
  if (!m) throw new Error(`no form on ${page.url}: ${page.text.slice(0, 300)}`);
  return new URL(m[1]!.replace(/&amp;/g, '&'), page.url).href;
}

/** The hidden inputs of the first form on a page. */
export function hiddenInputs(page: { text: string }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of page.text.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}
