// Starts the real server on a random port against a fresh database, and
// gives HTTP clients that keep their own cookies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { loadConfig, type Config } from '../../src/config.js';
import { createApp, type App } from '../../src/app.js';
import { migratedCopy } from './db.js';
import { createDatabase } from '../../src/db/client.js';
import { JOBS } from '../../src/db/queue.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_INITIAL_PASSWORD = 'Initial#Pass1';
export const ADMIN_PASSWORD = 'Admin#Pass2';

export interface TestServer {
  url: string;
  app: App;
  config: Config;
  dataDir: string;
  /** Registers a GraphQL document as a persisted operation and returns its id. */
  persist(document: string): string;
  close(): Promise<void>;
}

export async function startServer(
  env: Record<string, string> = {},
  opts: {
    sameDatabaseAs?: TestServer;
    /**
     * A second instance on the first one's database, on either database: PostgreSQL by its URL; the
     * embedded one (one process holds it) by sharing its client, which only the first one closes.
     */
    shareDatabaseOf?: TestServer;
    onQuery?: (sql: string) => void;
  } = {},
): Promise<TestServer> {
  const from = opts.sameDatabaseAs ?? opts.shareDatabaseOf;
  const db: { url?: string; drop(): Promise<void>; loadDataDir?: Blob } = from ? { url: from.config.DATABASE_URL, drop: async () => {} } : await migratedCopy();
  const embeddedOf = opts.shareDatabaseOf && !db.url ? opts.shareDatabaseOf.app.deps.db : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-test-'));
  const persistedFile = path.join(dataDir, 'persisted.json');
  fs.writeFileSync(persistedFile, '{}');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    JOB_POLL_SECONDS: '0.5',
    ADMIN_EMAIL,
    ADMIN_PASSWORD: ADMIN_INITIAL_PASSWORD,
    PERSISTED_QUERIES: persistedFile,
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Tests export often; rate-limits.test.ts sets its own limit.
    EXPORT_RATE_PER_MINUTE: '1000',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...env,
  });
  const app = await createApp(config, {
    inMemory: !db.url,
    // Counting queries: the same database, with the Prisma client reporting each statement.
    db: embeddedOf
      ? { ...embeddedOf, close: async () => {} }
      : opts.onQuery || db.loadDataDir
        ? await createDatabase({ databaseUrl: db.url, dataDir, inMemory: !db.url, onQuery: opts.onQuery, loadDataDir: db.loadDataDir })
        : undefined,
  });
  await app.server.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  let lastPersistMtime = 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    config,
    dataDir,
    persist(document: string) {
      const id = crypto.createHash('sha256').update(document).digest('hex');
      const map = JSON.parse(fs.readFileSync(persistedFile, 'utf8'));
      map[id] = document;
      fs.writeFileSync(persistedFile, JSON.stringify(map));
      // The store notices changes by mtime; make sure it moves, and never back to a value it had
      // (a random step once gave two writes the same mtime: the second operation was not found).
      lastPersistMtime = Math.max(Date.now(), lastPersistMtime) + 1000;
      const t = new Date(lastPersistMtime);
      fs.utimesSync(persistedFile, t, t);
      return id;
    },
    async close() {
      await app.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Response<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** An HTTP client with its own cookie jar (one browser, or one tool). */
export class Client {
  cookies = new Map<string, string>();
  bearer?: string;
  constructor(readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response<T>> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined) h['content-type'] = 'application/json';
    if (this.cookies.size) h.cookie = this.cookieHeader;
    if (this.bearer) h.authorization = `Bearer ${this.bearer}`;
    const send = () => fetch(this.baseUrl + url, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
    // A kept-alive connection the server closed as it was reused (idle past
    // its keep-alive timeout on a loaded machine) is reset: as browsers do, an
    // idempotent request is sent once more on a new connection.
    const res = await send().catch((err: unknown) => {
      const reset = (err as { cause?: { code?: string } }).cause?.code === 'ECONNRESET';
      if (reset && (method === 'GET' || method === 'HEAD')) return send();
      throw err;
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a) || /max-age=0/i.test(a.trim()));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get = <T = any>(url: string) => this.request<T>('GET', url);
  post = <T = any>(url: string, body?: unknown) => this.request<T>('POST', url, body ?? {});
  put = <T = any>(url: string, body?: unknown) => this.request<T>('PUT', url, body ?? {});

  /** A GraphQL operation sent as a document (signed-in callers and tokens only). */
  gql(query: string, variables?: Record<string, unknown>) {
    return this.request<any>('POST', '/graphql', {
      query,
      variables,
    });
  }

  /** A GraphQL operation sent by persisted id, as the web client does. */
  gqlPersisted(documentId: string, variables?: Record<string, unknown>) {
    return this.request<any>('POST', '/graphql', {
      documentId,
      variables,
    });
  }

  async login(email: string, password: string) {
    return this.post('/api/internal-login', { email, password });
  }
}

/** Signs in as the first administrator, changing the initial password if this server still has it. */
export async function adminClient(server: TestServer): Promise<Client> {
  const c = new Client(server.url);
  let r = await c.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  if (r.status !== 200) {
    r = await c.login(ADMIN_EMAIL, ADMIN_INITIAL_PASSWORD);
    if (r.status !== 200) throw new Error(`admin login failed: ${JSON.stringify(r.body)}`);
    const ch = await c.put('/api/internal/change-password', { currentPassword: ADMIN_INITIAL_PASSWORD, newPassword: ADMIN_PASSWORD });
    if (ch.status !== 200) throw new Error(`admin password change failed: ${JSON.stringify(ch.body)}`);
  }
  return c;
}

let counter = 0;
/** Creates a user through the REST API and returns a signed-in client for them (password already changed). */
export async function userClient(
  server: TestServer,
  admin: Client,
  role: 'admin' | 'reviewer' = 'reviewer',
  opts: { changePassword?: boolean } = {},
): Promise<{ client: Client; user: any; email: string; password: string }> {
  const email = `${role}${++counter}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const initial = 'Start#123';
  const created = await admin.post('/api/users', { email, firstName: 'Test', lastName: `${role} ${counter}`, role, password: initial });
  if (created.status !== 201) throw new Error(`create user failed: ${JSON.stringify(created.body)}`);
  const client = new Client(server.url);
  const r = await client.login(email, initial);
  if (r.status !== 200) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
  let password = initial;
  if (opts.changePassword !== false) {
    password = 'Changed#456';
    const ch = await client.put('/api/internal/change-password', { currentPassword: initial, newPassword: password });
    if (ch.status !== 200) throw new Error(`change failed: ${JSON.stringify(ch.body)}`);
  }
  return { client, user: created.body.user, email, password };
}

/** A user signed in through `userClient`. */
export type UserClient = Awaited<ReturnType<typeof userClient>>;

/** `count` reviewers, each created and signed in by `userClient`, one after the other. */
export async function userClients(server: TestServer, admin: Client, count: number): Promise<UserClient[]> {
  const users: UserClient[] = [];
  for (let i = 0; i < count; i++) users.push(await userClient(server, admin));
  return users;
}

/**
 * Waits until no dashboard figures' job waits or runs (a change of what
 * reviewers see sends one: jobs/dashboard-figures.ts), for tests that count
 * the statements of a request and must not count the job's.
 */
export async function dashboardJobsDone(server: TestServer): Promise<void> {
  for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const [r] = await server.app.deps.prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND state < 'completed'`,
      JOBS.dashboardFigures,
    );
    if (!r!.n) return;
    if (Date.now() > deadline) throw new Error('the dashboard figures job did not finish');
  }
}
