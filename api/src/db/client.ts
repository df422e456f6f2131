// Database factory: PGlite under DATA_DIR when DATABASE_URL is unset, PostgreSQL
// otherwise. Both give the same three things: a Prisma client (through a driver
// adapter, no native engine), a small raw-SQL interface for the paths that
// bypass Prisma (migrations, locks, COPY), and close().
import path from 'node:path';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import { isDiskFull } from '../core/errors.js';
import type { Warn } from '../core/types.js';

type PrismaClientOptions = Prisma.PrismaClientOptions;

export type DbKind = 'pglite' | 'postgres';

/** One connection's worth of raw SQL. */
export interface SqlConn {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Several statements, no parameters (migrations). */
  exec(text: string): Promise<void>;
}

export interface Sql extends SqlConn {
  kind: DbKind;
  /** Several statements, no parameters; the rows of the last one. */
  execResults<T = Record<string, unknown>>(text: string): Promise<T[]>;
  /**
   * Bulk-loads CSV (FORMAT csv) into a table's columns: one COPY statement
   * that chunks are written into as they are ready, committed by end(). On
   * PostgreSQL the statement stays open across writes (fewer, larger
   * statements load faster: per-statement work such as triggers is paid once);
   * PGlite has no streaming COPY, so there each chunk is its own statement.
   */
  openCopy(table: string, columns: string[]): Promise<CopyWriter>;
  /**
   * Runs fn on one dedicated connection (advisory locks, manual transactions). `lost` aborts
   * when that connection breaks while held (the server ended it): what it guarded is gone.
   */
  session<T>(fn: (conn: SqlConn, lost: AbortSignal) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only (PGlite cannot stream it): the output of `COPY (query)
   * TO STDOUT WITH (FORMAT csv)`, as it comes. COPY takes no bind
   * parameters, so `params` are written into the statement as escaped
   * literals (pg's own escaping). Stopping early ends the COPY.
   */
  copyOut?(query: string, params: unknown[]): AsyncIterable<Buffer>;
}

export interface CopyWriter {
  /** Resolves when the chunk is handed to the database (backpressure). */
  write(chunk: Buffer): Promise<void>;
  /** Ends the COPY; resolves once the database has committed it. */
  end(): Promise<void>;
  /** Abandons the COPY (its rows are not written). */
  abort(): void;
}

export interface Database {
  kind: DbKind;
  prisma: PrismaClient;
  sql: Sql;
  /** PostgreSQL: the pool's connections (for metrics); PGlite has one, in process. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** PGlite on disk: the disk of the data folder filled up under the database (see onSpaceBack). */
  dataFolderFull?(): boolean;
  /** PGlite: its data folder as an uncompressed tar, for `loadDataDir`. */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PGlite only: keep the database in memory (tests). */
  inMemory?: boolean;
  /**
   * PGlite in memory only: start from this dump of a data folder (`dumpDataDir`) instead of an
   * empty cluster, so that tests start each database from one migrated copy.
   */
  loadDataDir?: Blob;
  /** Called with the SQL of every statement the Prisma client runs (tests that count queries); off by default. */
  onQuery?: (sql: string) => void;
  /**
   * PGlite on disk: called once, when space has come back after the disk of the data folder
   * filled up under the database. The embedded database does not take writes again in the
   * same process (its files stay as they were at the failed write), so the process must be
   * restarted: a fresh start replays its log and carries on.
   */
  onSpaceBack?: () => void;
  /** Problems ridden out (an idle connection lost), for the app's log. */
  warn?: Warn;
}

/** The Prisma client over a driver adapter, reporting each statement to onQuery when asked to. */
function prismaClient(adapter: NonNullable<PrismaClientOptions['adapter']>, onQuery?: (sql: string) => void): PrismaClient {
  // Prisma's defaults (2 s to get a connection for a transaction, 5 s to run it) fail a request
  // with a 500 whenever hundreds of reviewers share the pool at once (bench:load): a busy
  // moment waits instead, and a call that needs longer says so itself.
  const transactionOptions = { maxWait: 20_000, timeout: 30_000 };
  if (!onQuery) return new PrismaClient({ adapter, transactionOptions });
  const client = new PrismaClient({ adapter, transactionOptions, log: [{ emit: 'event', level: 'query' }] } as PrismaClientOptions);
  (client as unknown as { $on(event: 'query', cb: (e: { query: string }) => void): void }).$on('query', (e) => onQuery(e.query));
  return client;
}

function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}

export async function createDatabase(opts: DbOptions): Promise<Database> {
  return opts.databaseUrl ? createPostgres(opts.databaseUrl, opts.onQuery, opts.warn) : createPglite(opts);
}

/** The free space, in bytes, on the disk holding `dir`. */
async function freeBytes(dir: string): Promise<number> {
  const s = await fs.promises.statfs(dir);
  return s.bavail * s.bsize;
}

/**
 * Space needed to take writes again after the disk filled up; a COPY chunk also needs this much
 * beside it: two of the database's 16 MB log segments, so that a load never leaves the log
 * without room for its next segment.
 */
const SPACE_MARGIN_BYTES = 32 * 1024 * 1024;

/** A disk-full error made here, before the write, the same as the system's. */
function noSpaceError(): Error {
  return Object.assign(new Error('No space left on device: the data folder is full'), { code: 'ENOSPC' });
}

async function createPostgres(url: string, onQuery?: (sql: string) => void, warn: Warn = (m) => console.error(m)): Promise<Database> {
  const pg = (await import('pg')).default;
  const { PrismaPg } = await import('@prisma/adapter-pg');
  // int8 (bigint ids, counts) as strings would surprise callers of the raw
  // interface; keep pg's default (string) and convert where needed.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', (err) => warn(`PostgreSQL pool: ${err.message}`));
  // A connection the server ends while it is checked out (a failover, a pooler reset, an idle
  // session killed, pg_terminate_backend) emits 'error' with no listener of the pool's: without
  // this one, Node would end the process. The work on it fails with its next statement.
  pool.on('connect', (client) => client.on('error', () => {}));
  const adapter = new PrismaPg(pool);
  const prisma = prismaClient(adapter, onQuery);
  const conn = (c: { query: (t: string, p?: unknown[]) => Promise<{ rows: unknown[] }> }): SqlConn => ({
    async query<T>(text: string, params?: unknown[]) {
      return (await c.query(text, params)).rows as T[];
    },
    async exec(text: string) {
      await c.query(text);
    },
  });
  const sql: Sql = {
    kind: 'postgres',
    ...conn(pool),
    async openCopy(table, columns) {
      const { from } = await import('pg-copy-streams');
      const { once } = (await import('node:events')).default;
      const { finished } = await import('node:stream/promises');
      const client = await pool.connect();
      const stream = client.query(from(`COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) FROM STDIN WITH (FORMAT csv)`));
      let failure: Error | undefined;
      let released = false;
      const release = (broken: boolean) => {
        if (released) return;
        released = true;
        client.release(broken || undefined);
      };
      stream.on('error', (e: Error) => {
        failure ??= e;
        release(true);
      });
      return {
        async write(chunk) {
          if (failure) throw failure;
          if (!stream.write(chunk)) {
            // Whichever of drain or close comes first; the other's listeners are removed (not left to pile up per chunk).
            const settled = new AbortController();
            await Promise.race([once(stream, 'drain', { signal: settled.signal }), once(stream, 'close', { signal: settled.signal })]).finally(() =>
              settled.abort(),
            );
          }
          if (failure) throw failure;
        },
        async end() {
          if (failure) throw failure;
          stream.end();
          try {
            await finished(stream);
          } finally {
            release(Boolean(failure));
          }
          if (failure) throw failure;
        },
        abort() {
          failure ??= new Error('COPY abandoned');
          stream.destroy(failure);
          release(true);
        },
      };
    },
    async *copyOut(query, params) {
      const { to } = await import('pg-copy-streams');
      // pg's conversion of a parameter to its text form (arrays as array literals), untyped in @types/pg.
      const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (v: unknown) => unknown };
      const literal = (v: unknown) => {
        const p = prepareValue(v);
        return p === null || p === undefined ? 'NULL' : pg.escapeLiteral(String(p));
      };
      const text = query.replace(/\$(\d+)/g, (_m, n: string) => {
        if (Number(n) < 1 || Number(n) > params.length) throw new Error(`copyOut: no value for $${n}`);
        return literal(params[Number(n) - 1]);
      });
      // NULL written as \N: the query gives no NULLs, so an empty string is written as nothing, not "".
      const client = await pool.connect();
      const stream = client.query(to(`COPY (${text}) TO STDOUT WITH (FORMAT csv, NULL '\\N')`));
      let done = false;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
        done = true;
      } finally {
        if (!done) stream.destroy();
        client.release(!done || undefined);
      }
    },
    async execResults<T>(text: string) {
      const r = (await pool.query(text)) as unknown as { rows: T[] } | { rows: T[] }[];
      return Array.isArray(r) ? (r.at(-1)?.rows ?? []) : r.rows;
    },
    async session(fn) {
      const client = await pool.connect();
      const lost = new AbortController();
      const onError = (err: Error) => lost.abort(err);
      client.on('error', onError);
      try {
        return await fn(conn(client), lost.signal);
      } finally {
        client.off('error', onError);
        // A broken connection is closed, not handed to the next caller.
        client.release(lost.signal.aborted || undefined);
      }
    },
  };
  return {
    kind: 'postgres',
    prisma,
    sql,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

async function createPglite(opts: DbOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  let dir: string | undefined;
  if (!opts.inMemory) {
    dir = path.join(opts.dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true });
  }
  const db = await PGlite.create(dir, { extensions: { pg_trgm }, ...(opts.inMemory && opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  const disk = dir ? watchDiskFull(db, dir, opts.onSpaceBack) : null;
  const adapter = new PrismaPGlite(db);
  const prisma = prismaClient(adapter, opts.onQuery);
  const conn: SqlConn = {
    async query<T>(text: string, params?: unknown[]) {
      return (await db.query(text, params)).rows as T[];
    },
    async exec(text: string) {
      await db.exec(text);
    },
  };
  const sql: Sql = {
    kind: 'pglite',
    ...conn,
    async openCopy(table, columns) {
      const statement = `COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) FROM '/dev/blob' WITH (FORMAT csv)`;
      return {
        async write(chunk) {
          // The bulk of a load is refused before the disk fills up under the database.
          if (dir && (await freeBytes(dir)) < chunk.length * 3 + SPACE_MARGIN_BYTES) throw noSpaceError();
          await db.query(statement, [], { blob: new Blob([new Uint8Array(chunk)]) });
        },
        async end() {},
        abort() {},
      };
    },
    async execResults<T>(text: string) {
      const results = await db.exec(text);
      return (results.at(-1)?.rows ?? []) as T[];
    },
    // PGlite is a single connection, in this process: a session is that connection, never lost.
    session: (fn) => fn(conn, new AbortController().signal),
  };
  return {
    kind: 'pglite',
    prisma,
    sql,
    dataFolderFull: () => disk?.full() ?? false,
    dumpDataDir: () => db.dumpDataDir('none'),
    async close() {
      disk?.stop();
      await prisma.$disconnect();
      await db.close();
    },
  };
}

type PGliteDb = InstanceType<(typeof import('@electric-sql/pglite'))['PGlite']>;

/**
 * Notes the first disk-full error of the embedded database (every statement passes through
 * query, exec or a transaction's query and exec), then checks the free space every 2 s and
 * calls onSpaceBack once there is room again.
 */
function watchDiskFull(db: PGliteDb, dir: string, onSpaceBack?: () => void) {
  let full = false;
  let timer: NodeJS.Timeout | undefined;
  const note = (err: unknown) => {
    if (full || !isDiskFull(err)) return;
    full = true;
    timer = setInterval(() => {
      freeBytes(dir)
        .then((free) => {
          if (free < SPACE_MARGIN_BYTES || !timer) return;
          clearInterval(timer);
          timer = undefined;
          onSpaceBack?.();
        })
        .catch(() => {});
    }, 2000);
    timer.unref();
  };
  const guard = <F extends (...args: never[]) => Promise<unknown>>(f: F): F =>
    (async (...args: Parameters<F>) => {
      try {
        return await f(...args);
      } catch (err) {
        note(err);
        throw err;
      }
    }) as F;
  db.query = guard(db.query.bind(db));
  db.exec = guard(db.exec.bind(db));
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: Parameters<typeof transaction>[0]) =>
    guard(transaction)((tx) =>
      fn(
        new Proxy(tx, {
          get(t, key) {
            const v = Reflect.get(t, key) as unknown;
            return (key === 'query' || key === 'exec') && typeof v === 'function' ? guard((v as (...a: never[]) => Promise<unknown>).bind(t)) : v;
          },
        }),
      ),
    )) as typeof db.transaction;
  return {
    full: () => full,
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
