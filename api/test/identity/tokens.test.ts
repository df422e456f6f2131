// API tokens with rules, over real HTTP and graphql-ws: who may create them,
// expiry and name rules, scopes, listing, revocation (effective at once),
// expiry, deactivated owners, and revocation on a password change.
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../src/db/client.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { freshDatabase } from '../helpers/db.js';
import { ADMIN_EMAIL, Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
});
afterAll(async () => {
  await server?.close();
});

const VIEWER = `query TokensTestViewerQuery { viewer { id email } }`;

function bearerClient(token: string): Client {
  const c = new Client(server.url);
  c.bearer = token;
  return c;
}

async function createToken(c: Client, body: Record<string, unknown> = {}) {
  return c.post('/api/tokens', { name: 'tool', ...body });
}

async function setUsersMayCreate(value: boolean) {
  const r = await admin.put('/api/tokens/settings', { usersMayCreateTokens: value });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ usersMayCreateTokens: value });
}

/** A graphql-ws client that presents a token in connectionParams (no cookie); `closed` resolves with the socket's close code. */
function wsWithToken(token: string) {
  let onClosed: (code: number) => void = () => {};
  const closed = new Promise<number>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: server.url.replace('http', 'ws') + '/graphql',
    lazy: false,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
    webSocketImpl: WebSocket,
    onNonLazyError: () => {},
    on: { closed: (e) => onClosed((e as { code: number }).code) },
  });
  return Object.assign(client, { closed });
}

/** Resolves with the close code, or 'open' if the socket is still open after `ms`. */
const closeCodeWithin = (ws: { closed: Promise<number> }, ms: number) => Promise.race([ws.closed, new Promise<'open'>((r) => setTimeout(() => r('open'), ms))]);

function runOverWs(client: ReturnType<typeof wsWithToken>, query: string): Promise<{ result?: any; error?: any }> {
  return new Promise((resolve) => {
    let result: any;
    client.subscribe(
      { query },
      {
        next: (v) => (result = v),
        error: (error) => resolve({ error }),
        complete: () => resolve({ result }),
      },
    );
  });
}

describe('who may create tokens', () => {
  it('refuses a reviewer while users may not, allows them once an administrator switches it on, and only for themselves', async () => {
    const { client: reviewer, user } = await userClient(server, admin, 'reviewer');
    // Default: off.
    expect((await admin.get('/api/tokens/settings')).body).toEqual({ usersMayCreateTokens: false });
    const refused = await createToken(reviewer);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/administrator/i);
    const gqlRefused = await reviewer.gql(`mutation { createApiToken(name: "x") { __typename ... on Error { message } } }`);
    expect(gqlRefused.body.data.createApiToken.__typename).toBe('BaseError');
    expect((await reviewer.get('/api/tokens')).body.canCreate).toBe(false);
    // A reviewer cannot switch it on.
    expect((await reviewer.put('/api/tokens/settings', { usersMayCreateTokens: true })).status).toBe(403);
    expect((await reviewer.get('/api/tokens/settings')).status).toBe(403);
    expect((await reviewer.gql(`{ apiTokenSettings { usersMayCreateTokens } }`)).body.errors[0].extensions.code).toBe('FORBIDDEN');

    await setUsersMayCreate(true);
    try {
      expect((await reviewer.get('/api/tokens')).body.canCreate).toBe(true);
      const ok = await createToken(reviewer, { name: 'reviewer tool' });
      expect(ok.status).toBe(201);
      expect(ok.body.apiToken.owner.id).toBe(user.id);
      expect((await bearerClient(ok.body.token).gql(VIEWER)).body.data.viewer.email).toBe(user.email);
      // Only for themselves.
      const adminId = (await admin.get('/api/users')).body.find((u: any) => u.email === ADMIN_EMAIL).id;
      const forOther = await createToken(reviewer, { userId: adminId });
      expect(forOther.status).toBe(403);
      expect(await server.app.deps.prisma.apiToken.count({ where: { userId: adminId, name: 'tool' } })).toBe(0);
    } finally {
      await setUsersMayCreate(false);
    }
    expect((await createToken(reviewer)).status).toBe(403);
  });

  it('changing the switch is audited, and refused with a non-boolean', async () => {
    expect((await admin.put('/api/tokens/settings', { usersMayCreateTokens: 'yes' })).status).toBe(400);
    await setUsersMayCreate(true);
    await setUsersMayCreate(false);
    const events = await server.app.deps.prisma.auditEvent.findMany({ where: { action: 'api_token.settings_changed' } });
    expect(events.some((e) => (e.after as any)?.usersMayCreateTokens === true)).toBe(true);
    const gql = await admin.gql(
      `mutation { setApiTokenSettings(usersMayCreateTokens: false) { __typename ... on MutationSetApiTokenSettingsSuccess { data { usersMayCreateTokens } } } }`,
    );
    expect(gql.body.data.setApiTokenSettings.data.usersMayCreateTokens).toBe(false);
  });

  it('a token cannot create or revoke tokens, nor change the switch, even a full one of an administrator', async () => {
    const created = await createToken(admin, { scope: 'full' });
    expect(created.status).toBe(201);
    const tool = bearerClient(created.body.token);
    const before = await server.app.deps.prisma.apiToken.count();
    const r = await createToken(tool);
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/not with an API token/);
    const g = await tool.gql(`mutation { createApiToken(name: "y") { __typename ... on Error { message } } }`);
    expect(g.body.data.createApiToken.__typename).toBe('BaseError');
    expect(await server.app.deps.prisma.apiToken.count()).toBe(before);

    const other = await createToken(admin, { name: 'other' });
    expect((await tool.request('DELETE', `/api/tokens/${other.body.apiToken.id}`)).status).toBe(403);
    expect((await tool.request('DELETE', `/api/tokens/${created.body.apiToken.id}`)).status).toBe(403);
    expect((await tool.put('/api/tokens/settings', { usersMayCreateTokens: true })).status).toBe(403);
    expect((await admin.get('/api/tokens/settings')).body.usersMayCreateTokens).toBe(false);
    expect((await bearerClient(other.body.token).get('/api/risks')).status).toBe(200);
  });
});

describe('token rules', () => {
  it('expiresInDays is a whole number from 1 to 365 (default 90); anything else is a 400 naming it', async () => {
    for (const bad of [-3, 0, 366, 1e12, 'x', 1.5, true]) {
      const r = await createToken(admin, { expiresInDays: bad });
      expect(r.status, String(bad)).toBe(400);
      expect(r.body.message, String(bad)).toMatch(/expiresInDays/);
    }
    const day = 86_400_000;
    for (const [days, expected] of [
      [1, 1],
      [365, 365],
      [undefined, 90],
      [null, 90],
    ] as const) {
      const t0 = Date.now();
      const r = await createToken(admin, days === undefined ? {} : { expiresInDays: days });
      expect(r.status).toBe(201);
      const exp = new Date(r.body.apiToken.expiresAt).getTime();
      expect(exp).toBeGreaterThanOrEqual(t0 + expected * day - 1000);
      expect(exp).toBeLessThanOrEqual(Date.now() + expected * day + 1000);
    }
    const g = await admin.gql(`mutation { createApiToken(name: "g", expiresInDays: -3) { __typename ... on ValidationError { field message } } }`);
    expect(g.body.data.createApiToken).toMatchObject({ __typename: 'ValidationError', field: 'expiresInDays' });
  });

  it('a name is required, trimmed, at most 100 characters and without NUL; scope is read or full', async () => {
    for (const name of ['', '   ', undefined, 5, 'a'.repeat(101), 'bad\u0000name']) {
      const r = await admin.post('/api/tokens', name === undefined ? {} : { name });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.body.message).toMatch(/name/i);
    }
    expect((await createToken(admin, { scope: 'admin' })).status).toBe(400);
    const ok = await admin.post('/api/tokens', { name: `  ${'n'.repeat(100)}  ` });
    expect(ok.status).toBe(201);
    expect(ok.body.apiToken.name).toBe('n'.repeat(100));
    expect(ok.body.apiToken.scope).toBe('read');
    expect(ok.body.token).toMatch(/^grc_/);
    expect(ok.body.apiToken.tokenHash).toBeUndefined();
  });

  it('a read token runs queries and GETs only: a mutation and a REST POST are refused with 403', async () => {
    const read = bearerClient((await createToken(admin, { name: 'reader' })).body.token);
    expect((await read.get('/api/risks')).status).toBe(200);
    expect((await read.gql(VIEWER)).body.data.viewer.email).toBe(ADMIN_EMAIL);
    const m = await read.gql(`mutation { markAllNotificationsRead }`);
    expect(m.status).toBe(403);
    expect(m.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(m.body.data ?? null).toBeNull();
    const before = await server.app.deps.prisma.reviewPeriod.count();
    const p = await read.post('/api/review-periods', { name: 'by read token', startDate: new Date().toISOString() });
    expect(p.status).toBe(403);
    expect(p.body.message).toMatch(/read-only/);
    expect(await server.app.deps.prisma.reviewPeriod.count()).toBe(before);

    const full = bearerClient((await createToken(admin, { name: 'writer', scope: 'full' })).body.token);
    const n = await full.post('/api/notifications', { title: 'from a full token', message: 'hi', type: 'info', targetType: 'all' });
    expect(n.status).toBe(201);
  });
});

describe('listing and revoking', () => {
  it('lists the fields, the owner, last use and its address (written at most once a minute)', async () => {
    const { client: reviewer, user } = await userClient(server, admin, 'reviewer');
    await setUsersMayCreate(true);
    const mine = await createToken(reviewer, { name: 'listed', expiresInDays: 30, scope: 'full' });
    await setUsersMayCreate(false);
    const tool = bearerClient(mine.body.token);
    expect((await tool.get('/api/notifications')).status).toBe(200);
    const first = await server.app.deps.prisma.apiToken.findUniqueOrThrow({ where: { id: mine.body.apiToken.id } });
    expect(first.lastUsedAt).not.toBeNull();
    expect(first.lastUsedIp).toMatch(/127\.0\.0\.1/);
    expect((await tool.gql(VIEWER)).status).toBe(200);
    const second = await server.app.deps.prisma.apiToken.findUniqueOrThrow({ where: { id: mine.body.apiToken.id } });
    expect(second.lastUsedAt!.getTime()).toBe(first.lastUsedAt!.getTime());

    const list = await reviewer.get('/api/tokens');
    expect(list.status).toBe(200);
    expect(list.body.tokens).toHaveLength(1);
    expect(list.body.tokens[0]).toMatchObject({
      id: mine.body.apiToken.id,
      name: 'listed',
      prefix: mine.body.token.slice(0, 10),
      scope: 'full',
      lastUsedIp: first.lastUsedIp,
      revokedAt: null,
      active: true,
      owner: { id: user.id },
    });
    for (const f of ['createdAt', 'lastUsedAt', 'expiresAt']) expect(list.body.tokens[0][f]).toBeTruthy();
    expect(JSON.stringify(list.body)).not.toContain(mine.body.token);
    // A reviewer may not list everyone's; an administrator may.
    expect((await reviewer.get('/api/tokens?all=true')).status).toBe(403);
    const all = await admin.get('/api/tokens?all=true');
    expect(all.body.tokens.some((t: any) => t.id === mine.body.apiToken.id && t.owner.id === user.id)).toBe(true);
    expect((await admin.get('/api/tokens')).body.tokens.some((t: any) => t.id === mine.body.apiToken.id)).toBe(false);

    const gql = await admin.gql(
      `{ apiTokens(all: true, first: 100) { edges { node { id name prefix scope createdAt lastUsedAt lastUsedIp expiresAt revokedAt active owner { email } } } } }`,
    );
    const node = gql.body.data.apiTokens.edges.map((e: any) => e.node).find((n: any) => n.name === 'listed');
    expect(node).toMatchObject({ scope: 'FULL', active: true, owner: { email: list.body.tokens[0].owner.email } });
    const own = await reviewer.gql(`{ apiTokens(first: 10) { edges { node { name } } } viewer { canCreateApiTokens activeApiTokenCount } }`);
    expect(own.body.data.apiTokens.edges.map((e: any) => e.node.name)).toEqual(['listed']);
    expect(own.body.data.viewer).toEqual({ canCreateApiTokens: false, activeApiTokenCount: 1 });
    expect((await reviewer.gql(`{ apiTokens(all: true, first: 10) { edges { node { name } } } }`)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('a revoked token is refused on the very next request; an id the caller may not see is 404; revocation is audited', async () => {
    const created = await createToken(admin, { name: 'to revoke' });
    const tool = bearerClient(created.body.token);
    expect((await tool.get('/api/risks')).status).toBe(200);
    const { client: reviewer } = await userClient(server, admin, 'reviewer');
    expect((await reviewer.request('DELETE', `/api/tokens/${created.body.apiToken.id}`)).status).toBe(404);
    expect((await reviewer.request('DELETE', '/api/tokens/not-a-uuid')).status).toBe(404);
    expect((await tool.get('/api/risks')).status).toBe(200);

    const r = await admin.request('DELETE', `/api/tokens/${created.body.apiToken.id}`);
    expect(r.status).toBe(200);
    expect(r.body.apiToken.revokedAt).toBeTruthy();
    expect(r.body.apiToken.active).toBe(false);
    expect((await tool.get('/api/risks')).status).toBe(401);
    const g = await tool.gql(VIEWER);
    expect(g.status).toBe(401);
    expect(g.body.data?.viewer ?? null).toBeNull();
    expect(g.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const audit = await server.app.deps.prisma.auditEvent.findMany({ where: { entityId: created.body.apiToken.id } });
    expect(audit.map((e) => e.action).sort()).toEqual(['api_token.created', 'api_token.revoked']);
  });

  it("an administrator revokes another user's token over GraphQL", async () => {
    const { client: reviewer } = await userClient(server, admin, 'reviewer');
    await setUsersMayCreate(true);
    const created = await createToken(reviewer, { name: 'rev gql' });
    await setUsersMayCreate(false);
    const list = await admin.gql(`{ apiTokens(all: true, first: 200) { edges { node { id name } } } }`);
    const id = list.body.data.apiTokens.edges.find((e: any) => e.node.name === 'rev gql').node.id;
    const r = await admin.gql(
      `mutation($id: ID!) { revokeApiToken(id: $id) { __typename ... on MutationRevokeApiTokenSuccess { data { active revokedAt } } } }`,
      { id },
    );
    expect(r.body.data.revokeApiToken.data.active).toBe(false);
    expect((await bearerClient(created.body.token).get('/api/risks')).status).toBe(401);
    // The owner still sees it, revoked.
    expect((await reviewer.get('/api/tokens')).body.tokens[0].revokedAt).toBeTruthy();
  });

  it('an expired token and a deactivated owner’s token are refused with 401', async () => {
    const created = await createToken(admin, { name: 'expiring', expiresInDays: 1 });
    const tool = bearerClient(created.body.token);
    expect((await tool.get('/api/risks')).status).toBe(200);
    await server.app.deps.prisma.apiToken.update({ where: { id: created.body.apiToken.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await tool.get('/api/risks')).status).toBe(401);

    const other = await userClient(server, admin, 'admin');
    const own = await createToken(other.client, { name: 'owner goes' });
    const ownTool = bearerClient(own.body.token);
    expect((await ownTool.get('/api/risks')).status).toBe(200);
    expect((await admin.put(`/api/users/${other.user.id}/deactivate`)).status).toBe(200);
    expect((await ownTool.get('/api/risks')).status).toBe(401);
  });
});

describe('graphql-ws', () => {
  it('authenticates with a token in connectionParams, and refuses the connection of a revoked token', async () => {
    const created = await createToken(admin, { name: 'socket' });
    const ws = wsWithToken(created.body.token);
    try {
      const { result, error } = await runOverWs(ws, VIEWER);
      expect(error).toBeUndefined();
      expect(result.data.viewer.email).toBe(ADMIN_EMAIL);
      // A read token cannot run a mutation over the socket either.
      const m = await runOverWs(ws, `mutation { markAllNotificationsRead }`);
      expect(m.error?.[0]?.extensions?.code ?? m.result?.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      // Revoked while the socket is open: the socket is closed at once with 4403 (Forbidden), while
      // another token of the same user keeps its connection.
      const other = await createToken(admin, { name: 'socket kept' });
      const kept = wsWithToken(other.body.token);
      try {
        expect((await runOverWs(kept, VIEWER)).result.data.viewer.email).toBe(ADMIN_EMAIL);
        expect((await admin.request('DELETE', `/api/tokens/${created.body.apiToken.id}`)).status).toBe(200);
        expect(await closeCodeWithin(ws, 5000)).toBe(4403);
        expect(await closeCodeWithin(kept, 300)).toBe('open');
        expect((await runOverWs(kept, VIEWER)).result.data.viewer.email).toBe(ADMIN_EMAIL);
      } finally {
        await kept.dispose();
      }
    } finally {
      await ws.dispose();
    }
    const again = wsWithToken(created.body.token);
    try {
      const { error } = await runOverWs(again, VIEWER);
      expect(error?.code).toBe(4403);
    } finally {
      await again.dispose();
    }
  });
});

describe('graphql-ws, open connections', () => {
  it('closes a token holder’s open socket when the owner is deactivated or revokes their tokens with a password change', async () => {
    const owner = await userClient(server, admin, 'admin');
    const token = await createToken(owner.client, { name: 'socket of a leaver' });
    const ws = wsWithToken(token.body.token);
    try {
      expect((await runOverWs(ws, VIEWER)).result.data.viewer.email).toBe(owner.user.email);
      expect((await admin.put(`/api/users/${owner.user.id}/deactivate`)).status).toBe(200);
      expect(await closeCodeWithin(ws, 5000)).toBe(4403);
    } finally {
      await ws.dispose();
    }

    const changer = await userClient(server, admin, 'admin');
    const theirs = await createToken(changer.client, { name: 'socket of a password change' });
    const open = wsWithToken(theirs.body.token);
    try {
      expect((await runOverWs(open, VIEWER)).result.data.viewer.email).toBe(changer.user.email);
      // A password change that keeps the tokens keeps the socket too.
      let r = await changer.client.put('/api/internal/change-password', { currentPassword: changer.password, newPassword: 'Second#789' });
      expect(r.status).toBe(200);
      expect(await closeCodeWithin(open, 500)).toBe('open');
      r = await changer.client.put('/api/internal/change-password', { currentPassword: 'Second#789', newPassword: 'Third#789', revokeApiTokens: true });
      expect(r.status).toBe(200);
      expect(await closeCodeWithin(open, 5000)).toBe(4403);
    } finally {
      await open.dispose();
    }
  });
});

describe('password change', () => {
  it('revokes the user’s tokens when asked (REST and GraphQL), and keeps them otherwise', async () => {
    const u = await userClient(server, admin, 'admin');
    const keep = await createToken(u.client, { name: 'kept' });
    let r = await u.client.put('/api/internal/change-password', { currentPassword: u.password, newPassword: 'Second#789' });
    expect(r.status).toBe(200);
    expect((await bearerClient(keep.body.token).get('/api/risks')).status).toBe(200);

    const another = await createToken(u.client, { name: 'second' });
    r = await u.client.put('/api/internal/change-password', { currentPassword: 'Second#789', newPassword: 'Third#789', revokeApiTokens: true });
    expect(r.status).toBe(200);
    expect((await bearerClient(keep.body.token).get('/api/risks')).status).toBe(401);
    expect((await bearerClient(another.body.token).get('/api/risks')).status).toBe(401);
    const audit = await server.app.deps.prisma.auditEvent.findMany({ where: { action: 'api_token.revoked', entityId: another.body.apiToken.id } });
    expect((audit[0]!.after as any).reason).toBe('password_changed');

    const third = await createToken(u.client, { name: 'third' });
    const g = await u.client.gql(
      `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { __typename ... on MutationChangePasswordSuccess { data { id } } } }`,
      { input: { currentPassword: 'Third#789', newPassword: 'Fourth#789', revokeApiTokens: true } },
    );
    expect(g.body.data?.changePassword.__typename, JSON.stringify(g.body)).toBe('MutationChangePasswordSuccess');
    expect((await bearerClient(third.body.token).get('/api/risks')).status).toBe(401);
  });
});

describe('openapi', () => {
  it('documents the token calls', async () => {
    const doc = (await new Client(server.url).get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/tokens'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/api/tokens/settings'])).toEqual(expect.arrayContaining(['get', 'put']));
    expect(Object.keys(doc.paths['/api/tokens/{id}'])).toEqual(['delete']);
  });
});

describe('migration 20261123120000_api_token_rules', () => {
  it('gives tokens without an expiry one (created + 90 days) and keeps their full rights', async () => {
    const test = await freshDatabase();
    const db = await createDatabase({ databaseUrl: test.url, dataDir: '/nonexistent', inMemory: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-mig-tokens-'));
    try {
      for (const f of readMigrations().filter((m) => m.name < '20261123120000_api_token_rules')) {
        fs.mkdirSync(path.join(dir, f.name));
        fs.writeFileSync(path.join(dir, f.name, 'migration.sql'), f.sql);
      }
      await migrate(db.sql, { migrations: dir, functions: null });
      const [u] = await db.sql.query<{ id: string }>(
        `INSERT INTO users (email, first_name, last_name, role, password_hash) VALUES ('old@example.com', 'Old', '', 'admin', 'x') RETURNING id`,
      );
      await db.sql.query(
        `INSERT INTO api_tokens (user_id, name, token_hash, prefix, created_at) VALUES ($1, 'legacy', 'h1', 'grc_abcdef', '2026-01-01T00:00:00Z')`,
        [u!.id],
      );
      await db.sql.query(
        `INSERT INTO api_tokens (user_id, name, token_hash, prefix, created_at, expires_at) VALUES ($1, 'dated', 'h2', 'grc_ghijkl', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')`,
        [u!.id],
      );
      await migrate(db.sql);
      const rows = await db.sql.query<{ name: string; expires_at: Date; scope: string; last_used_ip: string | null }>(
        `SELECT name, expires_at, scope::text AS scope, last_used_ip FROM api_tokens ORDER BY name`,
      );
      expect(rows.map((r) => [r.name, new Date(r.expires_at).toISOString(), r.scope, r.last_used_ip])).toEqual([
        ['dated', '2026-02-01T00:00:00.000Z', 'full', null],
        ['legacy', '2026-04-01T00:00:00.000Z', 'full', null],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await db.close();
      await test.drop();
    }
  });
});
