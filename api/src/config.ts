// Every environment variable the API reads, parsed and validated once.
import { z } from 'zod';
import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /**
   * Where stored uploads, access extracts and evidence bundles are kept: s3://bucket/prefix (an
   * S3-compatible store, with the usual AWS variables); unset: DATA_DIR.
   */
  STORAGE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^s3:\/\/[^/]+/, 'must be s3://bucket/prefix')
      .optional(),
  ),
  /** A store other than AWS S3 (MinIO, ...): its address; then path-style requests, checksums only where required. */
  AWS_ENDPOINT_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /** The region of the STORAGE_URL bucket; unset: us-east-1 (stores without regions, such as MinIO, accept it). */
  AWS_REGION: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The parts of a multipart upload to STORAGE_URL, in MiB (at least 5, the protocol's minimum); four are held in memory at a time. */
  STORAGE_PART_SIZE_MB: z.coerce.number().min(5).max(512).default(8),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.string().email().default('admin@example.com')),
  ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(6).optional()),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  SMTP_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('GRC Platform <no-reply@localhost>')),
  APP_SECRET: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
  OPENAI_BASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  OPENAI_MODEL: z.preprocess(emptyToUndefined, z.string().default('gpt-4o-mini')),
  /** AI assist: how long one request to the provider may take (each attempt), in seconds. */
  OPENAI_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(30),
  /** AI assist: retries of a rate-limited (429) or failed request, waiting as the provider's Retry-After says. */
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** AI assist: prices in US dollars per million tokens, JSON { "model": { "input": n, "output": n } }, merged over the defaults. */
  AI_PRICES: z.preprocess(emptyToUndefined, z.string().optional()),
  /** AI assist: at most this many of a user's rows of a risk go into a risk profile's prompt. */
  AI_PROFILE_MAX_ROWS: z.coerce.number().int().min(1).max(500).default(40),
  OIDC_ISSUER_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  OIDC_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  OIDC_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Where the built web app lives; served with SPA fallback when present. */
  WEB_DIST: z.string().default('web/dist'),
  /** Relay's persisted operations (written by relay-compiler). */
  PERSISTED_QUERIES: z.string().default('web/persisted-queries.json'),
  /** How often job workers look for work, in seconds (at least 0.5). */
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
  /** An upload whose worker sent no heartbeat for this long is failed as interrupted. */
  UPLOAD_STALE_SECONDS: z.coerce.number().min(1).default(60),
  /** On SIGTERM the process exits within this many seconds, whatever it is doing. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(10),
  /** On SIGTERM /readyz answers 503 this long before the listener closes, so a load balancer notices first. */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(600).default(2),
  /** /metrics (Prometheus) answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset (and no METRICS_PORT): /metrics is off. */
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16).max(512).optional()),
  /** Serves /metrics without a token on this separate port (keep it off the public network); the main port's /metrics then answers 404. */
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).optional()),
  /** At most this many uploads load at once across all instances (PostgreSQL); the others wait, queued. */
  INGEST_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Each user may start at most this many exports a minute (shared by all instances through the database). */
  EXPORT_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10000).default(10),
  /** Each user may ask the AI assist (categorise, risk profile) at most this many times a minute (all instances). */
  AI_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10000).default(20),
  /** Session lifetime in hours (sliding). */
  SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  /** Set to 'true' behind TLS so the session cookie is Secure. */
  COOKIE_SECURE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  /** OpenTelemetry: the OTLP/HTTP collector (e.g. http://otel-collector:4318) spans are sent to; unset: tracing is off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /** OpenTelemetry: the service name on every span. */
  OTEL_SERVICE_NAME: z.preprocess(emptyToUndefined, z.string().max(200).default('grc-platform')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Single sign-on: the callback's absolute URL as registered at the provider; unset: /api/auth/callback on the request's host. */
  OIDC_REDIRECT_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /** Single sign-on: the scopes asked for (space-separated). */
  OIDC_SCOPES: z.preprocess(emptyToUndefined, z.string().default('openid email profile')),
  /** Single sign-on: a provider group whose unknown members are created as reviewers; unset: nobody is created. */
  OIDC_REVIEWER_GROUP: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Single sign-on: the claim that lists the user's groups. */
  OIDC_GROUPS_CLAIM: z.preprocess(emptyToUndefined, z.string().default('groups')),
  /**
   * Whose X-Forwarded-For/-Host/-Proto are believed: unset or 'false' (nobody), 'true' (any
   * peer), a hop count (that many nearest hops), or proxies' addresses/CIDRs, comma-separated.
   */
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Other origins (scheme://host[:port]) whose pages may call the API with the user's cookies, comma-separated. */
  CORS_ORIGINS: z.preprocess(emptyToUndefined, z.string().optional()),
  /** An RFC 3161 timestamp authority (http(s) URL) that countersigns each evidence bundle's manifest; unset: bundles carry no timestamp. */
  EVIDENCE_TSA_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /** The address users open the app at (e-mails link to it); unset: http://localhost:<PORT>. */
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
});

export type RawConfig = z.infer<typeof schema>;

/** The repository root (the web build and persisted operations live under it). */
export const ROOT_DIR = path.resolve(import.meta.dirname, '..', '..');

export interface Config extends RawConfig {
  dataDir: string;
  webDist: string;
  persistedQueriesFile: string;
  isProduction: boolean;
  cookieSecure: boolean;
  oidcEnabled: boolean;
  /** TRUST_PROXY, parsed: false, true, a hop count or a list of addresses/CIDRs. */
  trustProxy: TrustProxySetting;
  /** CORS_ORIGINS, each normalised to its origin (scheme://host[:port]). */
  corsOrigins: string[];
  /** PUBLIC_URL without a trailing slash (http(s) only): where e-mailed links point. */
  publicUrl: string;
  /**
   * The origin (scheme://host[:port]) of PUBLIC_URL when it is set: then the only
   * origin of the app's own pages (web-security.ts); null when PUBLIC_URL is unset.
   */
  publicOrigin: string | null;
  /** AI_PRICES over the defaults: US dollars per million tokens, by model. */
  aiPrices: Record<string, AiPrice>;
}

export interface AiPrice {
  input: number;
  output: number;
}

/** US dollars per million tokens (input, output), as the provider lists them; AI_PRICES adds or overrides. */
export const DEFAULT_AI_PRICES: Record<string, AiPrice> = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
};

const priceTable = z.record(z.string().min(1), z.object({ input: z.number().min(0), output: z.number().min(0) }).strict());

function parseAiPrices(v: string | undefined): Record<string, AiPrice> {
  if (!v) return { ...DEFAULT_AI_PRICES };
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new Error('Invalid configuration: AI_PRICES is not JSON (expected { "model": { "input": 0.15, "output": 0.6 } })');
  }
  const r = priceTable.safeParse(parsed);
  if (!r.success) throw new Error('Invalid configuration: AI_PRICES must map model names to { "input": n, "output": n } (dollars per million tokens)');
  return { ...DEFAULT_AI_PRICES, ...r.data };
}

export type TrustProxySetting = boolean | number | string[];

function parseTrustProxy(v: string | undefined): TrustProxySetting {
  const s = v?.trim().toLowerCase();
  if (!s || s === 'false') return false;
  if (s === 'true') return true;
  if (/^\d+$/.test(s)) return Number(s);
  const list = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const item of list) {
    try {
      proxyAddr.compile(item);
    } catch {
      throw new Error(`Invalid configuration: TRUST_PROXY: '${item}' is not true, false, a hop count, an address or a CIDR`);
    }
  }
  return list;
}

function parsePublicUrl(v: string | undefined, port: number): string {
  if (!v) return `http://localhost:${port}`;
  const u = new URL(v);
  if (!['http:', 'https:'].includes(u.protocol) || u.search || u.hash || u.username || u.password) {
    throw new Error(`Invalid configuration: PUBLIC_URL: '${v}' is not an address like https://grc.example.com`);
  }
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}

function parseCorsOrigins(v: string | undefined): string[] {
  if (!v) return [];
  return v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((item) => {
      let u: URL | null = null;
      try {
        u = new URL(item);
      } catch {
        /* reported below */
      }
      if (!u || !['http:', 'https:'].includes(u.protocol) || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || u.username) {
        throw new Error(`Invalid configuration: CORS_ORIGINS: '${item}' is not an origin like https://app.example.com`);
      }
      return u.origin;
    });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const c = parsed.data;
  const oidcSet = [c.OIDC_ISSUER_URL, c.OIDC_CLIENT_ID, c.OIDC_CLIENT_SECRET].filter(Boolean).length;
  if (oidcSet !== 0 && oidcSet !== 3) {
    throw new Error('Invalid configuration: OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set together (single sign-on) or not at all');
  }
  if (c.OIDC_REDIRECT_URL && new URL(c.OIDC_REDIRECT_URL).pathname !== '/api/auth/callback') {
    throw new Error('Invalid configuration: OIDC_REDIRECT_URL must be the absolute URL of /api/auth/callback');
  }
  if (c.OIDC_SCOPES && !c.OIDC_SCOPES.split(/\s+/).includes('openid')) {
    throw new Error("Invalid configuration: OIDC_SCOPES must include 'openid'");
  }
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    webDist: path.resolve(ROOT_DIR, c.WEB_DIST),
    persistedQueriesFile: path.resolve(ROOT_DIR, c.PERSISTED_QUERIES),
    isProduction: c.NODE_ENV === 'production',
    cookieSecure: c.COOKIE_SECURE === 'true',
    oidcEnabled: oidcSet === 3,
    trustProxy: parseTrustProxy(c.TRUST_PROXY),
    corsOrigins: parseCorsOrigins(c.CORS_ORIGINS),
    aiPrices: parseAiPrices(c.AI_PRICES),
    publicUrl: parsePublicUrl(c.PUBLIC_URL, c.PORT),
    publicOrigin: c.PUBLIC_URL ? new URL(parsePublicUrl(c.PUBLIC_URL, c.PORT)).origin : null,
  };
}
