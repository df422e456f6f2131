// Single sign-on (OpenID Connect) against a real provider running in-process
// (helpers/standins/idp.ts), over real HTTP, following every redirect by hand with a
// cookie jar: the code flow with PKCE, state and nonce; matching by verified
// e-mail; refusals; the reviewer group; RP-initiated logout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SESSION_COOKIE } from '../../src/auth/sessions.js';
import { Browser, formAction, hiddenInputs, startIdp, type TestIdp } from '../helpers/standins/idp.js';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';

let idp: TestIdp;
/** Single sign-on without the reviewer group. */
let server: TestServer;
/** Single sign-on with OIDC_REVIEWER_GROUP=grc-reviewers. */
let grouped: TestServer;
let admin: Client;

const REVIEWER_GROUP = 'grc-reviewers';

beforeAll(async () => {
  idp = await startIdp();
  const env = idp.env({ OIDC_SCOPES: 'openid email profile groups' });
  [server, grouped] = await Promise.all([startServer(env), startServer({ ...env, OIDC_REVIEWER_GROUP: REVIEWER_GROUP })]);
  idp.attach([server.url, grouped.url]);
  admin = await adminClient(server);
  // Two servers on fresh databases: more than the default hook time on a busy machine.
}, 180_000);
afterAll(async () => {
  await Promise.all([server?.close(), grouped?.close()]);
  await idp?.close();
});

let n = 0;
function unique(prefix: string) {
  return `${prefix}-${++n}-${Date.now().toString(36)}@example.com`;
}

/** An account at the provider; returns its login name. */
function idpAccount(claims: Parameters<TestIdp['accounts']['set']>[1]): string {
  const login = `login-${++n}`;
  idp.accounts.set(login, claims);
  return login;
}

/** Creates an internal account through the API (as an administrator does). */
async function createUser(email: string, role: 'admin' | 'reviewer' = 'reviewer', password = 'Start#123') {
  const r = await admin.post('/api/users', { email, firstName: 'Sso', lastName: 'User', role, password });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.user as { id: string; email: string };
}

/** /api/login → provider login page → submit the login → follow back to the app. */
async function signIn(browser: Browser, appUrl: string, login: string) {
  const page = await browser.navigate(`${appUrl}/api/login`);
  expect(page.status).toBe(200);
  expect(page.url.startsWith(idp.issuer)).toBe(true);
  return browser.navigate(formAction(page), { method: 'POST', form: { login } });
}

/** What the API says about this browser's session. */
function apiClient(browser: Browser, appUrl: string): Client {
  const c = new Client(appUrl);
  for (const [k, v] of browser.cookies) if (v.path === '/') c.cookies.set(k, v.value);
  return c;
}

describe('single sign-on: the code flow', () => {
  it('signs an existing user in (e-mail matched case-insensitively) with a session like internal sign-in, and /api/auth/user returns them', async () => {
    const email = unique('sso.reviewer');
    const user = await createUser(email);
    // The forced change of the temporary password does not stop a sign-on (checked below).
    const login = idpAccount({ email: email.toUpperCase(), email_verified: true, given_name: 'Ignored' });
    const browser = new Browser();

    const start = await browser.request('GET', `${server.url}/api/login`);
    expect(start.status).toBe(302);
    const auth = new URL(start.location!);
    expect(auth.origin).toBe(idp.issuer);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toBeTruthy();
    expect(auth.searchParams.get('state')).toBeTruthy();
    expect(auth.searchParams.get('nonce')).toBeTruthy();
    expect(auth.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/callback`);
    // The flow's secrets stay in an HttpOnly cookie scoped to the callback, not in the URL.
    const flow = browser.cookies.get('grc_oidc');
    expect(flow?.path).toBe('/api/auth');
    expect(flow?.value).not.toContain(auth.searchParams.get('state')!);

    const done = await signIn(browser, server.url, login);
    expect(done.url).toBe(`${server.url}/`);
    expect(done.hops.some((h) => h.startsWith(`${server.url}/api/auth/callback?`))).toBe(true);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(browser.cookies.has('grc_oidc')).toBe(false);

    const c = apiClient(browser, server.url);
    const me = await c.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email, role: 'reviewer', isActive: true, authMethod: 'oidc', passwordResetRequired: false });
    expect(me.body.passwordHash).toBeUndefined();
    expect(me.body.lastLoginAt).toBeTruthy();
    // The session is a full one: GraphQL and role-gated REST routes work.
    const viewer = await c.gql('query { viewer { email role } }');
    expect(viewer.body.data.viewer).toEqual({ email, role: 'REVIEWER' });
    expect((await c.get('/api/assigned-risks')).status).toBe(200);

    const prisma = server.app.deps.prisma;
    const sessions = await prisma.session.findMany({ where: { userId: user.id } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.authMethod).toBe('oidc');
    expect(sessions[0]!.idToken).toMatch(/^ey/);
    const logins = await prisma.auditEvent.findMany({ where: { entityId: user.id, action: 'user.login' } });
    expect(logins.map((e) => e.after)).toEqual([{ method: 'oidc' }]);
  });

  it('discards a temporary password waiting for its forced change, so it cannot be used to sign in internally', async () => {
    const email = unique('sso.forced');
    const user = await createUser(email, 'reviewer', 'Temp#12345');
    const browser = new Browser();
    const done = await signIn(browser, server.url, idpAccount({ email, email_verified: true }));
    expect(done.url).toBe(`${server.url}/`);
    const me = await apiClient(browser, server.url).get('/api/auth/user');
    expect(me.body.passwordResetRequired).toBe(false);

    const internal = await new Client(server.url).login(email, 'Temp#12345');
    expect(internal.status).toBe(401);
    const events = await server.app.deps.prisma.auditEvent.findMany({
      where: { entityId: user.id, action: 'user.temporary_password_discarded' },
    });
    expect(events).toHaveLength(1);
  });

  it('answers 401 on /api/auth/user for an internal session and for nobody', async () => {
    expect((await admin.get('/api/auth/user')).status).toBe(401);
    expect((await new Client(server.url).get('/api/auth/user')).status).toBe(401);
  });

  it('tells the client that single sign-on is on', async () => {
    const r = await new Client(server.url).get('/api/auth/sso');
    expect(r.body).toEqual({ enabled: true, loginUrl: '/api/login' });
  });

  it('refuses a callback whose state is not the one this browser started with', async () => {
    const email = unique('sso.state');
    await createUser(email);
    const login = idpAccount({ email, email_verified: true });
    const browser = new Browser();
    const page = await browser.navigate(`${server.url}/api/login`);
    const back = await browser.navigate(formAction(page), {
      method: 'POST',
      form: { login },
      stopBefore: (u) => u.pathname === '/api/auth/callback',
    });
    expect(back.stopped).toBe(true);
    const forged = new URL(back.url);
    forged.searchParams.set('state', 'forged-state');
    const r = await browser.request('GET', forged.href);
    expect(r.status).toBe(302);
    expect(r.location).toBe(`${server.url}/sign-in-refused?reason=failed`);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    // The flow is single-use: the genuine callback afterwards is refused too.
    const again = await browser.request('GET', back.url);
    expect(again.location).toBe(`${server.url}/sign-in-refused?reason=failed`);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('refuses a callback finished in another browser (no flow cookie)', async () => {
    const email = unique('sso.other');
    await createUser(email);
    const browser = new Browser();
    const page = await browser.navigate(`${server.url}/api/login`);
    const back = await browser.navigate(formAction(page), {
      method: 'POST',
      form: { login: idpAccount({ email, email_verified: true }) },
      stopBefore: (u) => u.pathname === '/api/auth/callback',
    });
    const attacker = new Browser();
    const r = await attacker.request('GET', back.url);
    expect(r.location).toBe(`${server.url}/sign-in-refused?reason=failed`);
    expect(attacker.cookies.has(SESSION_COOKIE)).toBe(false);
  });
});

describe('single sign-on: the provider says no, or cannot be reached', () => {
  it('an error answered by the provider (the person cancelled) is a refused sign-in', async () => {
    const browser = new Browser();
    const start = await browser.request('GET', `${server.url}/api/login`);
    const state = new URL(start.location!).searchParams.get('state')!;
    const cb = new URL(`${server.url}/api/auth/callback`);
    cb.search = new URLSearchParams({ error: 'access_denied', state, iss: idp.issuer }).toString();
    const r = await browser.request('GET', cb.href);
    expect(r.location).toBe(`${server.url}/sign-in-refused?reason=failed`);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('a provider that cannot be reached sends /api/login to the refusal page, not a 500', async () => {
    const dead = await startServer({ OIDC_ISSUER_URL: 'http://127.0.0.1:9/', OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y' });
    try {
      const r = await new Browser().request('GET', `${dead.url}/api/login`);
      expect(r.status).toBe(302);
      expect(r.location).toBe(`${dead.url}/sign-in-refused?reason=unavailable`);
    } finally {
      await dead.close();
    }
  }, 120_000);
});

describe('single sign-on: refusals create nothing but an audit event', () => {
  async function refused(appUrl: string, claims: Parameters<TestIdp['accounts']['set']>[1], reason: string) {
    const prisma = (appUrl === server.url ? server : grouped).app.deps.prisma;
    const usersBefore = await prisma.user.count();
    const sessionsBefore = await prisma.session.count();
    const lastEvent = (await prisma.auditEvent.aggregate({ _max: { id: true } }))._max.id ?? 0n;
    const browser = new Browser();
    const done = await signIn(browser, appUrl, idpAccount(claims));
    expect(done.url).toBe(`${appUrl}/sign-in-refused?reason=${reason}`);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    if (appUrl === server.url) {
      expect(await prisma.user.count()).toBe(usersBefore);
      expect(await prisma.session.count()).toBe(sessionsBefore);
    }
    // The refusal is in the audit trail: why, and the provider's e-mail when it sent one.
    const events = await prisma.auditEvent.findMany({ where: { id: { gt: lastEvent } } });
    expect(events.map((e) => e.action)).toEqual(['auth.sso_refused']);
    expect(events[0]!.after).toMatchObject({ reason, method: 'oidc', ...(typeof claims.email === 'string' ? { email: claims.email } : {}) });
    expect(events[0]!.actorLabel).toBe(typeof claims.email === 'string' ? `single sign-on attempt <${claims.email}>` : 'single sign-on attempt');
    return browser;
  }

  it('an unknown e-mail', async () => {
    const email = unique('sso.unknown');
    await refused(server.url, { email, email_verified: true }, 'unknown');
    expect(await server.app.deps.prisma.user.findUnique({ where: { email } })).toBeNull();
  });

  it('an e-mail the provider does not vouch for, even of an existing account', async () => {
    const email = unique('sso.unverified');
    await createUser(email);
    await refused(server.url, { email, email_verified: false }, 'unverified');
    await refused(server.url, { email }, 'unverified');
    await refused(server.url, { email_verified: true }, 'unverified');
  });

  it('a deactivated account', async () => {
    const email = unique('sso.deactivated');
    const user = await createUser(email);
    expect((await admin.put(`/api/users/${user.id}/deactivate`)).status).toBe(200);
    await refused(server.url, { email, email_verified: true }, 'deactivated');
  });

  it('a member of the reviewer group while OIDC_REVIEWER_GROUP is not set', async () => {
    const email = unique('sso.group-off');
    await refused(server.url, { email, email_verified: true, groups: [REVIEWER_GROUP] }, 'unknown');
    expect(await server.app.deps.prisma.user.findUnique({ where: { email } })).toBeNull();
  });
});

describe('single sign-on: OIDC_REVIEWER_GROUP', () => {
  it('creates an unknown member of the group as a reviewer (audited), and signs them in', async () => {
    const email = unique('sso.group-on');
    const browser = new Browser();
    const done = await signIn(
      browser,
      grouped.url,
      idpAccount({ email, email_verified: true, given_name: 'Grace', family_name: 'Hopper', groups: ['staff', REVIEWER_GROUP] }),
    );
    expect(done.url).toBe(`${grouped.url}/`);
    const me = await apiClient(browser, grouped.url).get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, role: 'reviewer', firstName: 'Grace', lastName: 'Hopper', authMethod: 'oidc' });

    const prisma = grouped.app.deps.prisma;
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    expect(user.passwordHash).toBeNull();
    const created = await prisma.auditEvent.findMany({ where: { entityId: user.id, action: 'user.created' } });
    expect(created).toHaveLength(1);
    expect(created[0]!.after).toMatchObject({ email, role: 'reviewer', source: 'single sign-on', group: REVIEWER_GROUP });
  });

  it('still refuses unknown users outside the group, and unverified members', async () => {
    const prisma = grouped.app.deps.prisma;
    const before = await prisma.user.count();
    const outside = await signIn(new Browser(), grouped.url, idpAccount({ email: unique('sso.outside'), email_verified: true, groups: ['staff'] }));
    expect(outside.url).toBe(`${grouped.url}/sign-in-refused?reason=unknown`);
    const unverified = await signIn(new Browser(), grouped.url, idpAccount({ email: unique('sso.member'), email_verified: false, groups: [REVIEWER_GROUP] }));
    expect(unverified.url).toBe(`${grouped.url}/sign-in-refused?reason=unverified`);
    expect(await prisma.user.count()).toBe(before);
  });
});

describe('single sign-on: sign-out', () => {
  it("ends the session, then goes through the provider's end-session endpoint back to /internal-login", async () => {
    const email = unique('sso.logout');
    await createUser(email);
    const browser = new Browser();
    await signIn(browser, server.url, idpAccount({ email, email_verified: true }));
    const c = apiClient(browser, server.url);
    const idToken = (await server.app.deps.prisma.session.findFirstOrThrow({ where: { user: { email } } })).idToken;

    const out = await c.post('/api/logout');
    expect(out.status).toBe(200);
    expect(out.body.success).toBe(true);
    const end = new URL(out.body.redirectTo);
    expect(end.origin).toBe(idp.issuer);
    expect(end.searchParams.get('id_token_hint')).toBe(idToken);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/internal-login`);
    expect((await c.get('/api/auth/user')).status).toBe(401);
    expect(await server.app.deps.prisma.session.count({ where: { user: { email } } })).toBe(0);

    // At the provider: its confirmation page, then back to the app's internal login.
    const confirm = await browser.navigate(end.href);
    expect(confirm.status).toBe(200);
    const back = await browser.navigate(formAction(confirm), { method: 'POST', form: { ...hiddenInputs(confirm), logout: 'yes' } });
    expect(back.url).toBe(`${server.url}/internal-login`);
  });

  it('an internal session signs out with no redirect', async () => {
    const { client } = await userClient(server, admin);
    const out = await client.post('/api/logout');
    expect(out.body).toEqual({ success: true });
    expect((await client.gql('query { viewer { id } }')).status).not.toBe(200);
  });
});

describe('single sign-on: configuration', () => {
  const base = { DATA_DIR: '/tmp/x' };
  it('needs the issuer, client id and client secret together', () => {
    expect(() => loadConfig({ ...base, OIDC_ISSUER_URL: 'https://idp.example.com' })).toThrow(/OIDC_CLIENT_SECRET/);
    expect(loadConfig({ ...base }).oidcEnabled).toBe(false);
    expect(loadConfig({ ...base, OIDC_ISSUER_URL: 'https://idp.example.com', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' }).oidcEnabled).toBe(true);
  });
  it('checks OIDC_REDIRECT_URL and OIDC_SCOPES', () => {
    const on = { ...base, OIDC_ISSUER_URL: 'https://idp.example.com', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' };
    expect(() => loadConfig({ ...on, OIDC_REDIRECT_URL: 'https://grc.example.com/callback' })).toThrow(/OIDC_REDIRECT_URL/);
    expect(loadConfig({ ...on, OIDC_REDIRECT_URL: 'https://grc.example.com/api/auth/callback' }).OIDC_REDIRECT_URL).toBe(
      'https://grc.example.com/api/auth/callback',
    );
    expect(() => loadConfig({ ...on, OIDC_SCOPES: 'email profile' })).toThrow(/OIDC_SCOPES/);
  });
});
