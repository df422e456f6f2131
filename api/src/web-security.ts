// What a browser must be told and what a browser's request must show before
// the app acts on it: which proxies are believed (TRUST_PROXY), which other
// origins may call with the user's cookies (CORS_ORIGINS), the Origin check on
// every state-changing request (CSRF and cross-site WebSocket hijacking), the
// security headers (CSP with a per-response style nonce, frame, sniffing,
// referrer, HSTS over TLS) and the session cookie's name and attributes.
import crypto from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import proxyAddr from '@fastify/proxy-addr';
import type { Config, TrustProxySetting } from './config.js';
import { errorBody } from './core/errors.js';

export type TrustFn = (addr: string, hop: number) => boolean;

/**
 * TRUST_PROXY as the function Fastify and the WebSocket upgrade both use.
 * A hop count trusts that many nearest hops (the socket's peer first), as
 * Express does: only right when the app is reachable through the proxies alone.
 */
export function trustFunction(setting: TrustProxySetting): TrustFn {
  if (setting === false) return () => false;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_addr, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

function last(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[value.length - 1] : value;
  if (!v) return undefined;
  const i = v.lastIndexOf(',');
  return (i < 0 ? v : v.slice(i + 1)).trim() || undefined;
}

/** The client address, host and protocol of a raw request, by the same rules as Fastify's req.ip/host/protocol. */
export function requestFacts(raw: IncomingMessage, trust: TrustFn): { ip: string | null; host: string; protocol: 'http' | 'https' } {
  const peer = raw.socket?.remoteAddress;
  const peerTrusted = peer != null && trust(peer, 0);
  const all = peer != null ? proxyAddr.all(raw, trust) : [];
  const encrypted = Boolean((raw.socket as { encrypted?: boolean } | undefined)?.encrypted);
  const fwdProto = peerTrusted ? last(raw.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  return {
    ip: all[all.length - 1] ?? peer ?? null,
    host: (peerTrusted ? last(raw.headers['x-forwarded-host']) : undefined) ?? raw.headers.host ?? '',
    protocol: fwdProto === 'https' || (!fwdProto && encrypted) ? 'https' : 'http',
  };
}

function originOf(value: string): string | null {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** The scheme, host and port of a request's page: what its Origin is when it comes from the app itself. */
export function ownOrigin(protocol: string, host: string): string | null {
  return host ? originOf(`${protocol}://${host}`) : null;
}

export function isAllowedCorsOrigin(config: Config, origin: string | undefined): origin is string {
  return Boolean(origin) && config.corsOrigins.includes(origin!);
}

/**
 * Why a browser request must be refused as coming from another site, or null
 * when it may go on. A page of the app itself, or of an origin in
 * CORS_ORIGINS, may call. With PUBLIC_URL set, the app's own pages are those of
 * PUBLIC_URL's origin and nothing else: the Host header (or a forwarded host) is
 * the caller's to write, so a request naming a forged host is refused. With
 * PUBLIC_URL unset (a local or single-host install) the app's own origin is the
 * request's scheme and host; an https page on that host is accepted for a
 * request seen as plain http (TLS ended at a proxy that TRUST_PROXY does not
 * name). Without Origin, Sec-Fetch-Site decides; with neither the caller is not
 * a browser (scripts, tools), which a forged page cannot be.
 */
export function foreignOriginReason(
  config: Pick<Config, 'corsOrigins' | 'publicOrigin'>,
  headers: IncomingHttpHeaders,
  own: { protocol: string; host: string },
): string | null {
  const rawOrigin = typeof headers.origin === 'string' ? headers.origin : undefined;
  if (rawOrigin !== undefined) {
    const origin = originOf(rawOrigin);
    if (origin && config.corsOrigins.includes(origin)) return null;
    if (config.publicOrigin) {
      if (origin === config.publicOrigin) return null;
    } else {
      const mine = ownOrigin(own.protocol, own.host);
      if (origin && mine && origin === mine) return null;
      if (origin && mine && own.protocol === 'http' && origin === ownOrigin('https', own.host)) return null;
    }
    return `Cross-origin request refused: ${rawOrigin} may not call this application`;
  }
  const site = headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin' || site === 'none') return null;
  return `Cross-origin request refused: a ${site} request may not call this application`;
}

/** A cookie-less Bearer request: no browser attaches it by itself, so no other site can forge it. */
export function isBearerOnly(headers: IncomingHttpHeaders): boolean {
  const authz = headers.authorization;
  return typeof authz === 'string' && /^bearer\s/i.test(authz) && !headers.cookie;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Content types a page may send without a CORS preflight (so an HTML form or a no-cors fetch can). */
function isSimpleContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === '' || type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded' || type === 'text/plain';
}

/**
 * Headers that make a GraphQL POST with a form-like body non-simple: a page of
 * another origin cannot add them without a preflight, which it does not get.
 * The first is the one Yoga's CSRF-prevention plugin asks for.
 */
export const GRAPHQL_CSRF_HEADERS = ['x-graphql-yoga-csrf', 'graphql-require-preflight', 'apollo-require-preflight'];

const styleNonces = new WeakMap<ServerResponse, string>();

/** The per-response nonce the CSP allows <style> elements with (served into index.html). */
export function cspStyleNonce(reply: FastifyReply): string {
  return nonceOf(reply.raw);
}

function nonceOf(res: ServerResponse): string {
  let nonce = styleNonces.get(res);
  if (!nonce) {
    nonce = crypto.randomBytes(16).toString('base64');
    styleNonces.set(res, nonce);
  }
  return nonce;
}

/** Did the request reach us over TLS (directly, or per a trusted proxy's X-Forwarded-Proto)? */
export function overTls(req: FastifyRequest): boolean {
  return req.protocol === 'https';
}

export const HSTS_VALUE = 'max-age=31536000';

/** Helmet, HSTS over TLS, CORS for CORS_ORIGINS only, and the Origin guard. */
export async function registerWebSecurity(app: FastifyInstance, config: Config) {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // No inline and no third-party script: the web app and GraphiQL load only their own files.
        'script-src': ["'self'"],
        // Fluent UI's Griffel (and FluentProvider's theme tag) insert <style> elements at run
        // time. They carry the per-response nonce that index.html hands to main.tsx, so no
        // 'unsafe-inline' is needed. Tried in Chromium: a <style> element without the nonce is
        // blocked (its .sheet stays null, so Griffel's insertRule fails and the app renders
        // unstyled); with it, rules added through CSSOM (insertRule) apply, and so do styles
        // React sets through element.style, which CSP does not treat as inline markup.
        'style-src': ["'self'", (_req: IncomingMessage, res: ServerResponse) => `'nonce-${nonceOf(res)}'`],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        // 'self' covers ws:/wss: to the same host in CSP Level 3 (the subscriptions' socket).
        'connect-src': ["'self'"],
        'worker-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    // Sent below only when the request came over TLS.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Pages of CORS_ORIGINS read API answers through CORS, which this does not affect.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });

  app.addHook('onRequest', async (req, reply) => {
    if (overTls(req)) reply.header('strict-transport-security', HSTS_VALUE);

    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    const corsAllowed = isAllowedCorsOrigin(config, origin ? (originOf(origin) ?? undefined) : undefined);

    // CORS: only origins listed in CORS_ORIGINS, with credentials; nobody else gets an Allow header.
    if (req.method === 'OPTIONS' && origin && req.headers['access-control-request-method']) {
      if (!corsAllowed) return reply.status(403).send(errorBody(403, `Cross-origin requests from ${origin} are not allowed`));
      reply.header('vary', 'Origin');
      reply.header('access-control-allow-origin', originOf(origin)!);
      reply.header('access-control-allow-credentials', 'true');
      reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE');
      reply.header('access-control-allow-headers', ['content-type', 'accept', 'authorization', ...GRAPHQL_CSRF_HEADERS].join(', '));
      reply.header('access-control-max-age', '600');
      return reply.status(204).send();
    }
    if (corsAllowed) {
      reply.header('vary', 'Origin');
      reply.header('access-control-allow-origin', originOf(origin!)!);
      reply.header('access-control-allow-credentials', 'true');
      // What tools read beside the body: progress of an export, the id to quote, when to retry, how to sign in.
      reply.header('access-control-expose-headers', 'retry-after, content-disposition, x-total-rows, x-request-id, www-authenticate');
    }

    if (SAFE_METHODS.has(req.method)) return;
    // State-changing requests: refused unless they come from the app's own pages or
    // CORS_ORIGINS, before any body is read, so nothing is written.
    if (isBearerOnly(req.headers)) return;
    const reason = foreignOriginReason(config, req.headers, { protocol: req.protocol, host: req.host });
    if (reason) return reply.status(403).send(errorBody(403, reason));
    // GraphQL with a body an HTML form could send (multipart, urlencoded, text): only with a
    // header no form can add (the GraphQL multipart request spec's CSRF advice).
    const path = req.url.split('?')[0];
    if (path === '/graphql' && isSimpleContentType(req.headers['content-type'])) {
      if (!GRAPHQL_CSRF_HEADERS.some((h) => req.headers[h] !== undefined)) {
        return reply.status(403).send(errorBody(403, `A GraphQL request with this content type must carry the ${GRAPHQL_CSRF_HEADERS[0]} header`));
      }
    }
  });
}
