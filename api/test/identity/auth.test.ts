// Sign-in, the forced password change, sessions across REST and GraphQL,
// throttling and permissions, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_INITIAL_PASSWORD, ADMIN_PASSWORD, Client, startServer, userClient, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: Client;

const LOGIN = `mutation AuthTestLoginMutation($input: LoginInput!) {
  login(input: $input) {
    __typename
    ... on MutationLoginSuccess { data { id email role passwordResetRequired } }
    ... on Error { message }
  }
}`;
const VIEWER = `query AuthTestViewerQuery { viewer { id email role passwordResetRequired } }`;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('first start', () => {
  it('creates the administrator from ADMIN_EMAIL/ADMIN_PASSWORD, who must change the password before anything else', async () => {
    const c = new Client(server.url);
    const r = await c.login(ADMIN_EMAIL, ADMIN_INITIAL_PASSWORD);
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ email: ADMIN_EMAIL, role: 'admin', passwordResetRequired: true });
    expect(r.body.user.passwordHash).toBeUndefined();
    // Signed in, but nothing else is allowed until the password is changed.
    const users = await c.get('/api/users');
    expect(users.status).toBe(403);
    expect(users.body.message).toBe('You must change your password first');

    const ch = await c.put('/api/internal/change-password', {
      userId: r.body.user.id,
      currentPassword: ADMIN_INITIAL_PASSWORD,
      newPassword: ADMIN_PASSWORD,
    });
    expect(ch.status).toBe(200);
    expect(ch.body.user.passwordResetRequired).toBe(false);
    expect((await c.get('/api/users')).status).toBe(200);
    admin = c;
  });

  it('does not create a second administrator on the next start', async () => {
    const count = await server.app.deps.prisma.user.count({ where: { role: 'admin' } });
    expect(count).toBe(1);
  });
});

describe('login errors (SPEC §8)', () => {
  it("answers 'Invalid credentials' for a wrong password and for an unknown e-mail alike", async () => {
    const c = new Client(server.url);
    const wrong = await c.login(ADMIN_EMAIL, 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid credentials', code: 'UNAUTHENTICATED' });
    const unknown = await c.login('nobody@example.com', 'whatever1');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'Invalid credentials', code: 'UNAUTHENTICATED' });
    expect(c.cookies.size).toBe(0);
  });

  it('requires both e-mail and password', async () => {
    const r = await new Client(server.url).post('/api/internal-login', { email: ADMIN_EMAIL });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Please enter both email and password');
  });

  it("answers 'Account is deactivated' for a deactivated user with the right password, and ends their sessions", async () => {
    const { client, user, email, password } = await userClient(server, admin);
    expect((await client.gql(VIEWER)).body.data.viewer.email).toBe(email);
    const d = await admin.put(`/api/users/${user.id}/deactivate`);
    expect(d.status).toBe(200);
    expect(d.body.user.isActive).toBe(false);
    // The open session is gone at once.
    const after = await client.gql(VIEWER);
    expect(after.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    expect((await client.get('/api/users')).status).toBe(401);
    const r = await new Client(server.url).login(email, password);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ message: 'Account is deactivated', code: 'FORBIDDEN' });
    // A wrong password still says only 'Invalid credentials'.
    expect((await new Client(server.url).login(email, 'wrong-pass')).body.message).toBe('Invalid credentials');
  });

  it('refuses deactivating oneself', async () => {
    const me = (await admin.get('/api/users')).body.find((u: any) => u.email === ADMIN_EMAIL);
    const r = await admin.put(`/api/users/${me.id}/deactivate`);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('You cannot deactivate your own account');
  });

  it('throttles repeated failed logins for an address, even with the right password afterwards', async () => {
    const { email, password } = await userClient(server, admin);
    const c = new Client(server.url);
    for (let i = 0; i < 5; i++) expect((await c.login(email, `wrong-${i}`)).status).toBe(401);
    const locked = await c.login(email, password);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('change password rules (SPEC §5), enforced on the server', () => {
  it('reports each broken rule with the SPEC message, over REST and GraphQL', async () => {
    const { client, password } = await userClient(server, admin, 'reviewer', { changePassword: false });
    const cases: [Record<string, string>, string][] = [
      [{ currentPassword: '', newPassword: 'abcdef' }, 'Current password is required'],
      [{ currentPassword: password, newPassword: '' }, 'New password is required'],
      [{ currentPassword: password, newPassword: 'abc' }, 'Password must be at least 6 characters long'],
      [{ currentPassword: password, newPassword: password }, 'New password must be different from current password'],
      [{ currentPassword: 'not-it-1', newPassword: 'Another#1' }, 'Current password is incorrect'],
    ];
    for (const [body, message] of cases) {
      const r = await client.put('/api/internal/change-password', body);
      expect(r.status, message).toBe(400);
      expect(r.body.message).toBe(message);
      const g = await client.gql(
        `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { __typename ... on ValidationError { message field } } }`,
        { input: body },
      );
      expect(g.body.data.changePassword).toMatchObject({ __typename: 'ValidationError', message });
    }
    // Still required after all those failures.
    expect((await client.gql(VIEWER)).body.data.viewer.passwordResetRequired).toBe(true);
  });

  it("refuses changing another user's password", async () => {
    const a = await userClient(server, admin);
    const b = await userClient(server, admin);
    const r = await a.client.put('/api/internal/change-password', {
      userId: b.user.id,
      currentPassword: a.password,
      newPassword: 'Whatever#9',
    });
    expect(r.status).toBe(403);
  });

  it('signs out the other sessions of the user when the password changes', async () => {
    const { email, password, client } = await userClient(server, admin);
    const other = new Client(server.url);
    expect((await other.login(email, password)).status).toBe(200);
    expect((await client.put('/api/internal/change-password', { currentPassword: password, newPassword: 'Fresh#Pass7' })).status).toBe(200);
    expect((await other.get('/api/users')).status).toBe(401);
    expect((await client.gql(VIEWER)).body.data.viewer.email).toBe(email);
  });
});

describe('sessions across REST and GraphQL', () => {
  it('a REST sign-in works for GraphQL', async () => {
    const c = new Client(server.url);
    await c.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const cookie = [...c.cookies.keys()];
    expect(cookie).toEqual(['grc_session']);
    const r = await c.gql(VIEWER);
    expect(r.body.data.viewer).toMatchObject({ email: ADMIN_EMAIL, role: 'ADMIN', passwordResetRequired: false });
  });

  it('a GraphQL sign-in (persisted operation, as the web client sends it) works for REST, and sign-out ends it', async () => {
    const id = server.persist(LOGIN);
    const c = new Client(server.url);
    const r = await c.gqlPersisted(id, { input: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(r.body.data.login).toMatchObject({ __typename: 'MutationLoginSuccess', data: { email: ADMIN_EMAIL } });
    expect(c.cookies.has('grc_session')).toBe(true);
    const raw = r.headers.getSetCookie()[0]!;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    expect((await c.get('/api/users')).status).toBe(200);

    const stolen = c.cookieHeader;
    expect((await c.gql('mutation { logout }')).body.data.logout).toBe(true);
    expect(c.cookies.has('grc_session')).toBe(false);
    // The session is ended on the server, not just forgotten by the browser.
    const replay = new Client(server.url);
    replay.cookies.set('grc_session', stolen.split('=')[1]!);
    expect((await replay.get('/api/users')).status).toBe(401);
  });

  it('GraphQL login errors come back as typed results with the SPEC messages', async () => {
    const id = server.persist(LOGIN);
    const r = await new Client(server.url).gqlPersisted(id, { input: { email: ADMIN_EMAIL, password: 'nope-nope' } });
    expect(r.body.data.login).toEqual({ __typename: 'BaseError', message: 'Invalid credentials' });
  });

  it('REST sign-out clears the cookie and ends the session', async () => {
    const c = new Client(server.url);
    await c.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const token = c.cookies.get('grc_session')!;
    const r = await c.post('/api/logout');
    expect(r.status).toBe(200);
    expect(c.cookies.has('grc_session')).toBe(false);
    const replay = new Client(server.url);
    replay.cookies.set('grc_session', token);
    expect((await replay.get('/api/users')).status).toBe(401);
  });
});

describe('permissions', () => {
  it('anonymous REST calls get 401 with a message; wrong role 403', async () => {
    const anon = await new Client(server.url).get('/api/users');
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: 'You are not signed in', code: 'UNAUTHENTICATED' });
    const { client } = await userClient(server, admin, 'reviewer');
    const r = await client.get('/api/users');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Only administrators can do this');
    expect((await client.post('/api/users', { email: 'x@example.com', firstName: 'X', role: 'admin' })).status).toBe(403);
  });

  it('GraphQL fields declare their scopes: anonymous UNAUTHENTICATED, wrong role FORBIDDEN', async () => {
    const id = server.persist('query AuthTestUsersQuery { users(first: 5) { edges { node { email } } } }');
    const anon = await new Client(server.url).gqlPersisted(id);
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const { client } = await userClient(server, admin, 'reviewer');
    const r = await client.gqlPersisted(id);
    expect(r.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const ok = await admin.gqlPersisted(id);
    expect(ok.body.data.users.edges.length).toBeGreaterThan(0);
  });

  it('a reviewer cannot read another user through node(id)', async () => {
    const a = await userClient(server, admin);
    const b = await userClient(server, admin);
    const bId = (await b.client.gql(VIEWER)).body.data.viewer.id;
    // Null with no error and no type, as for an id that names nobody.
    const r = await a.client.gql(`query($id: ID!) { node(id: $id) { __typename ... on User { email } } }`, { id: bId });
    expect(r.body).toEqual({ data: { node: null } });
    const typeOnly = await a.client.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }`, { ids: [bId] });
    expect(typeOnly.body).toEqual({ data: { nodes: [null] } });
  });

  it('anonymous callers may only run persisted operations and may not introspect', async () => {
    const arbitrary = await new Client(server.url).gql(VIEWER);
    expect(arbitrary.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
    const id = server.persist('query AuthTestIntrospectionQuery { __schema { queryType { name } } }');
    const anon = await new Client(server.url).gqlPersisted(id);
    expect(anon.body.data).toBeUndefined();
    expect(anon.body.errors[0].message).toMatch(/introspection/i);
    const signedIn = await admin.gqlPersisted(id);
    expect(signedIn.body.data.__schema.queryType.name).toBe('Query');
  });

  it('GraphiQL is served to signed-in users only', async () => {
    // Signed out, the page explains how to sign in and carries none of GraphiQL's code.
    const anon = await new Client(server.url).request('GET', '/graphql', undefined, { accept: 'text/html' });
    expect(anon.status).toBe(401);
    expect(String(anon.body)).not.toMatch(/<script/i);
    expect(String(anon.body)).toMatch(/href="\/internal-login\?next=%2Fgraphql"/);
    const r = await admin.request('GET', '/graphql', undefined, { accept: 'text/html' });
    expect(r.status).toBe(200);
    expect(String(r.body)).toMatch(/<script src="\/graphiql\/graphiql\.js">/);
  });

  it('API tokens authenticate downstream tools on REST and GraphQL; only a hash is stored', async () => {
    const created = await admin.gql(
      `mutation { createApiToken(name: "auditor export") { __typename ... on MutationCreateApiTokenSuccess { data { token name } } } }`,
    );
    const token = created.body.data.createApiToken.data.token as string;
    expect(token).toMatch(/^grc_/);
    const stored = await server.app.deps.prisma.apiToken.findFirstOrThrow({ where: { name: 'auditor export' } });
    expect(stored.tokenHash).not.toContain(token);
    const tool = new Client(server.url);
    tool.bearer = token;
    expect((await tool.get('/api/users')).status).toBe(200);
    expect((await tool.gql(VIEWER)).body.data.viewer.email).toBe(ADMIN_EMAIL);
    tool.bearer = token + 'x';
    expect((await tool.get('/api/users')).status).toBe(401);
  });

  it('refuses documents with more aliases than the limit', async () => {
    const ok = Array.from({ length: 5 }, (_, i) => `a${i}: viewer { id }`).join(' ');
    expect((await admin.gql(`{ ${ok} }`)).body.errors).toBeUndefined();
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: viewer { id }`).join(' ');
    const r = await admin.gql(`{ ${aliases} }`);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors?.[0]?.message).toMatch(/aliases/i);
  });
});

describe('audit trail', () => {
  it('records sign-ins, password changes and user changes with the actor', async () => {
    const events = await server.app.deps.prisma.auditEvent.findMany({ orderBy: { id: 'asc' } });
    const actions = new Set(events.map((e) => e.action));
    for (const a of ['user.created', 'user.login', 'user.password_changed', 'user.deactivated', 'user.logout']) {
      expect(actions, a).toContain(a);
    }
    const deactivation = events.find((e) => e.action === 'user.deactivated')!;
    expect(deactivation.actorLabel).toContain(ADMIN_EMAIL);
    expect(deactivation.before).toEqual({ isActive: true });
    expect(deactivation.after).toEqual({ isActive: false });
  });
});
