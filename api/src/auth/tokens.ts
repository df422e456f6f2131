// API tokens for downstream tools: `Authorization: Bearer grc_…`. Only a
// SHA-256 of the token is stored; the token is shown once, at creation.
import crypto from 'node:crypto';
import type { ApiToken, PrismaClient, User } from '../generated/prisma/client.js';
import { ValidationError } from '../core/errors.js';
import { recordAudit } from '../core/audit.js';
import type { Actor } from '../core/types.js';
import { sha256 } from './sessions.js';

export const TOKEN_PREFIX = 'grc_';

export async function createApiToken(
  prisma: PrismaClient,
  actor: Actor & { user: User },
  input: { name: string; expiresInDays?: number | null },
): Promise<{ token: string; record: ApiToken }> {
  const name = input.name?.trim();
  if (!name) throw new ValidationError('Token name is required', 'name');
  const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86400_000) : null;
  const record = await prisma.$transaction(async (tx) => {
    const r = await tx.apiToken.create({
      data: { userId: actor.user.id, name, tokenHash: sha256(token), prefix: token.slice(0, 10), expiresAt },
    });
    await recordAudit(tx, actor, { action: 'api_token.created', entityType: 'ApiToken', entityId: r.id, after: { name, expiresAt } });
    return r;
  });
  return { token, record };
}

export async function resolveApiToken(prisma: PrismaClient, token: string): Promise<User | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const record = await prisma.apiToken.findUnique({ where: { tokenHash: sha256(token) }, include: { user: true } });
  if (!record || record.revokedAt || (record.expiresAt && record.expiresAt.getTime() <= Date.now())) return null;
  if (!record.user.isActive) return null;
  if (!record.lastUsedAt || Date.now() - record.lastUsedAt.getTime() > 60_000) {
    await prisma.apiToken.update({ where: { id: record.id }, data: { lastUsedAt: new Date() } });
  }
  return record.user;
}
