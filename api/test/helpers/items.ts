// Small review data by item (user id and role/profile) for the kept-figures
// tests (shared-items, trend-days): uploads through the API, a live row of an
// item, a reviewer's decision on it.
import { expect } from 'vitest';
import type { Client, TestServer, UserClient } from './server.js';
import { loadExport } from './upload.js';

const HEADER = 'User ID,User Name,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile\r\n';
/** One line of an export: a high risk of this user in this system and role. */
export const line = (user: string, risk: string, system: string, role: string) => `${user},Name ${user},${risk},Risk ${risk},High,0101,${system},${role}\r\n`;

/** Uploads these lines as an administrator and waits for the upload to finish. */
export async function load(server: TestServer, admin: Client, content: string, mode: 'replace' | 'append') {
  await loadExport(server, admin, HEADER + content, { mode });
}

/** The first live row of an item. */
export async function rowId(server: TestServer, user: string, role: string) {
  const [r] = await server.app.deps.prisma.$queryRawUnsafe<{ id: bigint }[]>(
    `SELECT id FROM risk_rows r WHERE user_id = $1 AND role_profile = $2 AND (upload_id IS NULL OR upload_id IN (SELECT id FROM uploads WHERE live)) ORDER BY id LIMIT 1`,
    user,
    role,
  );
  return Number(r!.id);
}

/** A reviewer decides one risk row by its id (and it succeeds). */
export async function decideRow(u: Pick<UserClient, 'client'>, id: bigint | number, decision = 'retain') {
  const r = await u.client.post('/api/reviews/decision', { riskDefinitionId: Number(id), decision });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** A reviewer decides the first live row of an item (and it succeeds). */
export const decide = async (server: TestServer, u: UserClient, user: string, role: string, decision = 'retain') =>
  decideRow(u, await rowId(server, user, role), decision);
