// Counts over millions of risk rows take seconds in PostgreSQL (an exact
// count(*) over a broad filter: 1.3 s on 1M rows), and the risk queue shows a
// total on every page. Counts are therefore kept per data version: triggers
// bump risk_data_version whenever the visible rows change (rows inserted
// without an upload, live rows deleted, an upload going live or out; not the
// batches of an upload still loading, nor the purge of a dead one's rows), so
// a cached count is reused exactly as long as the rows it counted are the same
// (on every instance: the version lives in the database). Counts that depend
// on decisions are not cached.
import { createHash } from 'node:crypto';
import type { DbClient } from '../../core/types.js';
import type { KeptAggregate } from './aggregate.js';

const MAX_ENTRIES = 2000;
type Cache = Map<string, { version: bigint; value: Promise<unknown> }>;

// One cache per database client: the data version counts changes of one
// database, so two databases (two apps in one process: tests, benchmarks) may
// stand at the same version with different rows. Kept on the client under a
// symbol, which Prisma's transaction and extended clients read through to the
// client they wrap, so a transaction shares its client's cache.
const CACHE = Symbol('kept counts per data version');
type WithCache = { [CACHE]?: Cache };
const everyCache = new Set<WeakRef<Cache>>();
function cacheOf(db: DbClient): Cache {
  const holder = db as unknown as WithCache;
  let cache = holder[CACHE];
  if (!cache) {
    cache = holder[CACHE] = new Map();
    everyCache.add(new WeakRef(cache));
  }
  return cache;
}

export async function dataVersion(db: DbClient): Promise<bigint> {
  const r = await db.$queryRaw<{ version: bigint }[]>`SELECT version FROM risk_data_version WHERE id = 1`;
  return r[0]?.version ?? 0n;
}

/** The value cached for `key` at `version` (now the most recently used), if any. */
function lookup(cache: Cache, key: string, version: bigint): Promise<unknown> | undefined {
  const hit = cache.get(key);
  if (!hit || hit.version !== version) return undefined;
  cache.delete(key); // least recently used goes first
  cache.set(key, hit);
  return hit.value;
}

function store(cache: Cache, key: string, version: bigint, value: Promise<unknown>): void {
  cache.set(key, { version, value });
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
}

/** `compute()`'s value for `key` at the current data version, computed once per version. */
export async function cached<T>(db: DbClient, key: string, compute: () => Promise<T>): Promise<T> {
  return remember(cacheOf(db), key, await dataVersion(db), compute);
}

/** The value cached for `key` at `version`, else `compute()`'s, cached (a failure is not). */
function remember<T>(cache: Cache, key: string, version: bigint, compute: () => Promise<T>): Promise<T> {
  const hit = lookup(cache, key, version);
  if (hit) return hit as Promise<T>;
  // Stored under the version read before computing: if the data changes
  // meanwhile, the next request sees a newer version and counts again.
  const value = compute();
  store(cache, key, version, value);
  value.catch(() => cache.get(key)?.value === value && cache.delete(key));
  return value;
}

/**
 * Like `cached`, and kept in the database too (kept_figures, per data version
 * and key): a value this process has not worked out at the current version is
 * read from there before it is computed, and written there once computed, so
 * a restarted process or another instance reads it at once. For the figures
 * counted over every live row a scope sees (the dashboard's). Bigints and
 * dates come back as they went in.
 */
export async function kept<T>(db: DbClient, key: string, compute: () => Promise<T>): Promise<T> {
  const version = await dataVersion(db);
  return remember(cacheOf(db), key, version, async () => {
    const found = await keptFigure<T>(db, version, key);
    if (found !== undefined) return found;
    const computed = await compute();
    await keepFigures(db, version, new Map([[key, computed]]));
    return computed;
  });
}

/** The figure kept under `key` at `version` in kept_figures, if any. */
export async function keptFigure<T>(db: DbClient, version: bigint, key: string): Promise<T | undefined> {
  const [row] = await db.$queryRaw<{ value: string }[]>`SELECT value FROM kept_figures WHERE data_version = ${version} AND key_hash = ${keyHash(key)}`;
  return row ? (JSON.parse(row.value, revive) as T) : undefined;
}

/** The column a kept figure's key is stored under (its sha256: a reviewer's key names their criteria). */
const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * Writes figures worked out at `version` into kept_figures, each under its key
 * as `kept` reads it (an existing row is left: it holds the same figure), and
 * deletes the rows of older versions. For `kept` itself, and for figures
 * worked out for many scopes at once (scope-figures.ts).
 */
export async function keepFigures(db: DbClient, version: bigint, figures: Map<string, unknown>): Promise<void> {
  if (figures.size) {
    const keys = [...figures.keys()];
    const hashes = keys.map(keyHash);
    const values = keys.map((k) => JSON.stringify(figures.get(k), tag));
    await db.$executeRaw`INSERT INTO kept_figures (data_version, key_hash, value)
      SELECT ${version}::bigint, x.h, x.v FROM unnest(${hashes}::text[], ${values}::text[]) AS x(h, v)
      ON CONFLICT (data_version, key_hash) DO NOTHING`;
  }
  await db.$executeRaw`DELETE FROM kept_figures WHERE data_version < ${version}`;
}

/** Of these keys, those with no figure kept at `version`. */
export async function figuresNotKept(db: DbClient, version: bigint, keys: string[]): Promise<Set<string>> {
  const hashes = keys.map(keyHash);
  const rows = await db.$queryRaw<
    { h: string }[]
  >`SELECT key_hash AS h FROM kept_figures WHERE data_version = ${version} AND key_hash = ANY(${hashes}::text[])`;
  const there = new Set(rows.map((r) => r.h));
  return new Set(keys.filter((_k, i) => !there.has(hashes[i]!)));
}

// JSON of a kept figure: bigints and dates tagged, so they come back as bigints and dates.
function tag(this: Record<string, unknown>, k: string, v: unknown): unknown {
  const raw = this[k];
  if (typeof raw === 'bigint') return { $bigint: raw.toString() };
  if (raw instanceof Date) return { $date: raw.toISOString() };
  return v;
}
function revive(_k: string, v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (typeof o.$bigint === 'string') return BigInt(o.$bigint);
    if (typeof o.$date === 'string') return new Date(o.$date);
  }
  return v;
}

/** Forgets every value cached in this process (as a restart would). */
export function forgetCachedFigures(): void {
  for (const ref of everyCache) {
    const cache = ref.deref();
    if (cache) cache.clear();
    else everyCache.delete(ref);
  }
}

/**
 * Like `cached` for many keys at once: the values cached at the current data
 * version are reused, and the missing ones are computed together by
 * `computeMissing` (one query for all of them, say) and cached one by one.
 */
export async function cachedMany<T>(db: DbClient, keys: string[], computeMissing: (missing: string[]) => Promise<Map<string, T>>): Promise<Map<string, T>> {
  const version = await dataVersion(db);
  const cache = cacheOf(db);
  const out = new Map<string, T>();
  const missing: string[] = [];
  for (const key of new Set(keys)) {
    const hit = lookup(cache, key, version);
    if (hit) out.set(key, (await hit) as T);
    else missing.push(key);
  }
  if (missing.length) {
    const computed = await computeMissing(missing);
    for (const key of missing) {
      const value = computed.get(key);
      if (value === undefined) continue;
      out.set(key, value);
      store(cache, key, version, Promise.resolve(value));
    }
  }
  return out;
}

export const RISK_COUNTS = {
  name: 'risk counts',
  tables: ['kept_figures'],
  freshWhen: "cached (in the process, and in kept_figures for kept()) at risk_data_version's version under its key",
  refresh: null,
  countLive: cached,
} as const satisfies KeptAggregate;
