// API tokens for downstream tools: `Authorization: Bearer grc_…`. Only a
// SHA-256 of the token is stored; the token is shown once, at creation.
// Who may create, list and revoke tokens is decided in services/identity/tokens.ts;
// this file makes secrets, resolves a presented token (every request, no
// cache) and revokes a user's tokens (for a password change).
import crypto from 'node:crypto';
import type { ApiTokenScope, User } from '../generated/prisma/client.js';
import { recordAudit } from '../core/audit.js';
import type { Actor, DbClient } from '../core/types.js';
import { sha256 } from './sessions.js';

export const TOKEN_PREFIX = 'grc_';
/** lastUsedAt / lastUsedIp are written at most this often per token. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** A new secret, its stored hash and the prefix shown in lists. */
export function newTokenSecret(): { token: string; tokenHash: string; prefix: string } {
  const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
  return { token, tokenHash: sha256(token), prefix: token.slice(0, 10) };
}

export interface ResolvedToken {
  user: User;
  token: { id: string; scope: ApiTokenScope };
}

/**
 * The user and token behind a presented secret, or null when it is unknown,
 * revoked, expired or its owner is deactivated. Read from the database on
 * every call, so a revocation counts from the next request.
 * `ip`: the caller's address when known; only then is the last use recorded.
 */
export async function resolveApiToken(prisma: DbClient, token: string, ip?: string | null): Promise<ResolvedToken | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const record = await prisma.apiToken.findUnique({ where: { tokenHash: sha256(token) }, include: { user: true } });
  if (!record || !isLive(record) || !record.user.isActive) return null;
  if (ip !== undefined && (!record.lastUsedAt || Date.now() - record.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS)) {
    // Conditional, so concurrent requests write once a minute at most.
    const now = new Date();
    await prisma.apiToken.updateMany({
      where: {
        id: record.id,
        OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }],
      },
      data: { lastUsedAt: now, lastUsedIp: ip ?? null },
    });
  }
  return { user: record.user, token: { id: record.id, scope: record.scope } };
}

export function isLive(t: { revokedAt: Date | null; expiresAt: Date }, now = Date.now()): boolean {
  return !t.revokedAt && t.expiresAt.getTime() > now;
}

/** For long-lived connections: is this token still usable (not revoked or expired, owner active)? */
export async function apiTokenStillValid(prisma: DbClient, id: string): Promise<boolean> {
  const t = await prisma.apiToken.findUnique({ where: { id }, select: { revokedAt: true, expiresAt: true, user: { select: { isActive: true } } } });
  return Boolean(t && isLive(t) && t.user.isActive);
}

/** Revokes every live token of a user (inside the caller's transaction), with one audit row each. */
export async function revokeUserApiTokens(tx: DbClient, actor: Actor, userId: string, reason: string): Promise<number> {
  const live = await tx.apiToken.findMany({ where: { userId, revokedAt: null, expiresAt: { gt: new Date() } }, select: { id: true, name: true } });
  if (live.length === 0) return 0;
  const revokedAt = new Date();
  await tx.apiToken.updateMany({ where: { id: { in: live.map((t) => t.id) }, revokedAt: null }, data: { revokedAt } });
  for (const t of live) {
    await recordAudit(tx, actor, {
      action: 'api_token.revoked',
      entityType: 'ApiToken',
      entityId: t.id,
      before: { revokedAt: null },
      after: { revokedAt, name: t.name, userId, reason },
    });
  }
  return live.length;
}
