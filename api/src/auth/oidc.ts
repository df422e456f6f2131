// External sign-in (single sign-on) with OpenID Connect: the authorization
// code flow with PKCE, state and nonce (openid-client), users matched to
// existing accounts by verified e-mail, sessions exactly like internal
// sign-in's (auth/sessions.ts) but remembering that they came from the
// provider, and RP-initiated logout at sign-out. Off unless OIDC_ISSUER_URL,
// OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set (config.ts).
//
// Where the flow's secrets live between /api/login and the callback: in a
// short-lived (10 min) HttpOnly, SameSite=Lax cookie scoped to /api/auth,
// encrypted and authenticated (AES-256-GCM, key derived from the client
// secret). Nothing is kept in process memory, so any instance behind a load
// balancer can finish a flow another one started; the browser that started
// the flow is the only one that can finish it; the cookie is cleared by the
// callback whatever the outcome.
import crypto from 'node:crypto';
import * as oidc from 'openid-client';
import { Prisma, type PrismaClient, type User } from '../generated/prisma/client.js';
import type { Config } from '../config.js';
import { recordAudit } from '../core/audit.js';
import { publicUser, type Actor, type PublicUser } from '../core/types.js';
import { neutralizeText, normalizeEmail } from '../core/validation.js';
import { createSession, endSession, sessionOrigin, type NewSession } from './sessions.js';

/** The flow cookie: name, path (it goes only to the callback) and lifetime. */
export const FLOW_COOKIE = 'grc_oidc';
export const FLOW_COOKIE_PATH = '/api/auth';
export const FLOW_TTL_SECONDS = 600;
export const CALLBACK_PATH = '/api/auth/callback';
/** Where single sign-on users land after signing out (SPEC §4). */
export const SIGNED_OUT_PATH = '/internal-login';
/** The web page that explains a refused sign-in (web/src/routes/sign-in-refused). */
export const REFUSED_PATH = '/sign-in-refused';

/**
 * Why a sign-in through the provider was refused:
 * - unknown: no account has this e-mail (and the reviewer group does not apply);
 * - unverified: the provider did not vouch for the e-mail (email_verified not true);
 * - deactivated: the account exists but is deactivated;
 * - failed: the flow could not be completed (expired or foreign state, the provider
 *   refused, the code exchange or the ID token checks failed);
 * - unavailable: the provider could not be reached to start.
 */
export type RefusalReason = 'unknown' | 'unverified' | 'deactivated' | 'failed' | 'unavailable';

export function refusedLocation(reason: RefusalReason): string {
  return `${REFUSED_PATH}?reason=${reason}`;
}

type OidcConfig = Pick<
  Config,
  | 'oidcEnabled'
  | 'OIDC_ISSUER_URL'
  | 'OIDC_CLIENT_ID'
  | 'OIDC_CLIENT_SECRET'
  | 'OIDC_REDIRECT_URL'
  | 'OIDC_SCOPES'
  | 'OIDC_REVIEWER_GROUP'
  | 'OIDC_GROUPS_CLAIM'
  | 'SESSION_TTL_HOURS'
>;

/** The app's origin as the browser reaches it: OIDC_REDIRECT_URL's, else the request's. */
export function appOrigin(config: OidcConfig, requestOrigin: string): string {
  return config.OIDC_REDIRECT_URL ? new URL(config.OIDC_REDIRECT_URL).origin : requestOrigin;
}

function redirectUri(config: OidcConfig, requestOrigin: string): string {
  return config.OIDC_REDIRECT_URL ?? `${requestOrigin}${CALLBACK_PATH}`;
}

function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

// The provider's metadata (discovery) once per process; a failed discovery is
// tried again by the next sign-in.
const providers = new Map<string, Promise<oidc.Configuration>>();

export function providerConfiguration(config: OidcConfig): Promise<oidc.Configuration> {
  if (!config.oidcEnabled) return Promise.reject(new Error('Single sign-on is not configured'));
  const key = [config.OIDC_ISSUER_URL, config.OIDC_CLIENT_ID, config.OIDC_CLIENT_SECRET].join('\n');
  let p = providers.get(key);
  if (!p) {
    const issuer = new URL(config.OIDC_ISSUER_URL!);
    // Plain HTTP only for a provider on this machine (development, tests).
    const options = issuer.protocol === 'http:' && isLoopback(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined;
    p = oidc.discovery(issuer, config.OIDC_CLIENT_ID!, undefined, oidc.ClientSecretBasic(config.OIDC_CLIENT_SECRET!), options);
    providers.set(key, p);
    p.catch(() => providers.delete(key));
  }
  return p;
}

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  /** Epoch milliseconds after which the flow is refused. */
  exp: number;
}

function flowKey(config: OidcConfig): Buffer {
  return crypto
    .createHash('sha256')
    .update(`grc-oidc-flow\0${config.OIDC_CLIENT_SECRET ?? ''}`)
    .digest();
}

function sealFlow(config: OidcConfig, flow: Flow): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', flowKey(config), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function openFlow(config: OidcConfig, value: string | undefined): Flow | null {
  if (!value) return null;
  try {
    const raw = Buffer.from(value, 'base64url');
    if (raw.length < 29) return null;
    const decipher = crypto.createDecipheriv('aes-256-gcm', flowKey(config), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const flow = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as Flow;
    return typeof flow.exp === 'number' && flow.exp > Date.now() ? flow : null;
  } catch {
    return null;
  }
}

export interface StartedSignIn {
  /** The provider's authorization endpoint with the request. */
  location: string;
  /** The sealed flow, for the FLOW_COOKIE cookie. */
  flowCookie: string;
}

/** Starts the authorization code flow: PKCE (S256), state and nonce. */
export async function startSignIn(config: OidcConfig, requestOrigin: string): Promise<StartedSignIn> {
  const provider = await providerConfiguration(config);
  const verifier = oidc.randomPKCECodeVerifier();
  const flow: Flow = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier,
    redirectUri: redirectUri(config, requestOrigin),
    exp: Date.now() + FLOW_TTL_SECONDS * 1000,
  };
  const url = oidc.buildAuthorizationUrl(provider, {
    redirect_uri: flow.redirectUri,
    scope: config.OIDC_SCOPES,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  });
  return { location: url.href, flowCookie: sealFlow(config, flow) };
}

export type SignInOutcome = { ok: true; user: User; session: NewSession; created: boolean } | { ok: false; reason: RefusalReason; detail: string };

/**
 * A refused single sign-on, written to the audit trail (`auth.sso_refused`:
 * why, the provider's e-mail when it sent one, the account when there is one).
 */
async function refuse(
  prisma: PrismaClient,
  actor: Actor,
  reason: RefusalReason,
  detail: string,
  who: { email?: string; userId?: string } = {},
): Promise<SignInOutcome> {
  await recordAudit(
    prisma,
    { user: null, ip: actor.ip ?? null },
    {
      action: 'auth.sso_refused',
      entityType: 'User',
      entityId: who.userId ?? null,
      actorLabel: `single sign-on attempt${who.email ? ` <${who.email}>` : ''}`,
      after: { reason, detail: neutralizeText(detail).slice(0, 500), ...(who.email ? { email: who.email } : {}), method: 'oidc' },
    },
  );
  return { ok: false, reason, detail };
}

function groupsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}

/** A claim as text: the provider's, not typed here, so unsafe controls are removed (core/validation.ts). */
function str(v: unknown): string {
  return typeof v === 'string' ? neutralizeText(v).trim() : '';
}

/** First and last name for an account created from the provider's claims. */
function namesOf(claims: Record<string, unknown>, email: string): { firstName: string; lastName: string } {
  const given = str(claims.given_name);
  const family = str(claims.family_name);
  if (given) return { firstName: given.slice(0, 100), lastName: family.slice(0, 100) };
  const full = str(claims.name);
  if (full) {
    const [first, ...rest] = full.split(/\s+/);
    return { firstName: first!.slice(0, 100), lastName: rest.join(' ').slice(0, 100) };
  }
  return { firstName: email.split('@')[0]!.slice(0, 100), lastName: family.slice(0, 100) };
}

/**
 * Finishes the flow at the callback: checks state, PKCE and the ID token
 * (signature, issuer, audience, nonce), reads the claims (ID token, completed
 * by the UserInfo endpoint), matches the verified e-mail to an account and
 * signs that account in with a new session, as internal sign-in does.
 *
 * A pending forced password change does not stop a single sign-on: the
 * provider vouched for the person, who never uses the password here. The
 * temporary password is then discarded together with the flag (audited), so
 * it cannot be used at /internal-login without the change it was issued
 * with; an administrator's Reset Password issues a new one if needed.
 */
export async function completeSignIn(
  prisma: PrismaClient,
  config: OidcConfig,
  input: { flowCookie: string | undefined; search: string; actor: Actor },
): Promise<SignInOutcome> {
  const flow = openFlow(config, input.flowCookie);
  if (!flow) return refuse(prisma, input.actor, 'failed', 'no sign-in in progress in this browser (missing, foreign or expired flow cookie)');

  let claims: Record<string, unknown>;
  let idToken: string | undefined;
  try {
    const provider = await providerConfiguration(config);
    const currentUrl = new URL(flow.redirectUri);
    currentUrl.search = input.search;
    const tokens = await oidc.authorizationCodeGrant(provider, currentUrl, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) return refuse(prisma, input.actor, 'failed', 'the provider returned no ID token');
    idToken = tokens.id_token;
    claims = { ...idClaims };
    // Providers often put e-mail and groups in UserInfo only; the signed ID token wins where both speak.
    if (provider.serverMetadata().userinfo_endpoint && tokens.access_token) {
      const info = await oidc.fetchUserInfo(provider, tokens.access_token, idClaims.sub);
      claims = { ...info, ...idClaims };
    }
  } catch (err) {
    return refuse(prisma, input.actor, 'failed', (err as Error).message);
  }

  const email = typeof claims.email === 'string' ? normalizeEmail(neutralizeText(claims.email)) : '';
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  if (!email || !verified) {
    return refuse(
      prisma,
      input.actor,
      'unverified',
      email ? `e-mail ${email} is not verified by the provider` : 'the provider sent no e-mail',
      email ? { email } : {},
    );
  }

  const existing = await prisma.user.findUnique({ where: { email } });
  if (existing && !existing.isActive) return refuse(prisma, input.actor, 'deactivated', `account ${email} is deactivated`, { email, userId: existing.id });
  const group = config.OIDC_REVIEWER_GROUP;
  const inReviewerGroup = Boolean(group && groupsOf(claims[config.OIDC_GROUPS_CLAIM]).includes(group));
  if (!existing && !inReviewerGroup) return refuse(prisma, input.actor, 'unknown', `no account for ${email}`, { email });

  const meta = { ip: input.actor.ip ?? null, userAgent: input.actor.userAgent ?? null };
  try {
    return await prisma.$transaction(async (tx) => {
      let user = existing;
      let created = false;
      if (!user) {
        user = await tx.user.create({ data: { email, ...namesOf(claims, email), role: 'reviewer', passwordHash: null } });
        created = true;
        await recordAudit(
          tx,
          { user: null, ip: meta.ip },
          {
            action: 'user.created',
            entityType: 'User',
            entityId: user.id,
            after: { ...publicUser(user), source: 'single sign-on', group },
          },
        );
      }
      // The browser's earlier session (another account, or an internal sign-in) ends here.
      if (input.actor.sessionId) await endSession(tx, input.actor.sessionId);
      const session = await createSession(tx, user.id, config.SESSION_TTL_HOURS, { ...meta, authMethod: 'oidc', idToken });
      const waived = user.passwordResetRequired;
      const now = new Date();
      const updated = await tx.user.update({
        where: { id: user.id },
        data: { lastLoginAt: now, lastSeenAt: now, ...(waived ? { passwordResetRequired: false, passwordHash: null } : {}) },
      });
      const actor = { user: updated, ip: meta.ip };
      if (waived) {
        await recordAudit(tx, actor, {
          action: 'user.temporary_password_discarded',
          entityType: 'User',
          entityId: user.id,
          before: { passwordResetRequired: true },
          after: { passwordResetRequired: false, reason: 'signed in through single sign-on' },
        });
      }
      await recordAudit(tx, actor, { action: 'user.login', entityType: 'User', entityId: user.id, after: { method: 'oidc' } });
      return { ok: true as const, user: updated, session, created };
    });
  } catch (err) {
    // Two first sign-ins of the same new reviewer at once: the other one created the account.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      return refuse(prisma, input.actor, 'failed', `account ${email} was created concurrently; sign in again`, { email });
    }
    throw err;
  }
}

/** The signed-in user when the caller's session came from single sign-on (GET /api/auth/user), else null. */
export async function externalUser(prisma: PrismaClient, actor: Actor): Promise<(PublicUser & { authMethod: 'oidc' }) | null> {
  if (!actor.user || !actor.sessionId) return null;
  const origin = await sessionOrigin(prisma, actor.sessionId);
  return origin?.authMethod === 'oidc' ? { ...publicUser(actor.user), authMethod: 'oidc' } : null;
}

/**
 * Where the browser goes after the caller's session ends, for a session from
 * single sign-on (null for internal sessions, which go to /): the
 * provider's end_session_endpoint with id_token_hint and
 * post_logout_redirect_uri back to /internal-login (RP-initiated logout), or
 * /internal-login itself when the provider has no such endpoint or cannot be
 * reached. Read before the session row is deleted.
 */
export async function signOutLocation(prisma: PrismaClient, config: OidcConfig, actor: Actor, requestOrigin: string): Promise<string | null> {
  if (!actor.sessionId) return null;
  const origin = await sessionOrigin(prisma, actor.sessionId);
  if (origin?.authMethod !== 'oidc') return null;
  if (!config.oidcEnabled) return SIGNED_OUT_PATH;
  try {
    const provider = await providerConfiguration(config);
    if (!provider.serverMetadata().end_session_endpoint) return SIGNED_OUT_PATH;
    const params: Record<string, string> = { post_logout_redirect_uri: `${appOrigin(config, requestOrigin)}${SIGNED_OUT_PATH}` };
    if (origin.idToken) params.id_token_hint = origin.idToken;
    return oidc.buildEndSessionUrl(provider, params).href;
  } catch {
    return SIGNED_OUT_PATH;
  }
}
