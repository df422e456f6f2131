// The verification of the audit chain as administrators reach it (REST GET
// /api/audit/verify, GraphQL auditChainVerification; nobody else) and as the
// daily job runs it: a break is told to the administrators once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, userClient, type Client, type TestServer } from '../helpers/server.js';
import { CHAIN_BREAK_TITLE, checkAuditChain } from '../../src/services/audit/chain.js';
import { JOBS } from '../../src/db/queue.js';
import { AUDIT_CHAIN_CRON } from '../../src/jobs/audit-chain.js';

const QUERY = '{ auditChainVerification { checkedEvents headHash firstBreak { eventId reason } } }';

let server: TestServer;
let admin: Client;
let reviewer: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  reviewer = (await userClient(server, admin)).client;
});
afterAll(async () => server?.close());

/** Changes an event as the database's owner can: the append-only trigger disabled for the UPDATE. */
async function alterEvent(id: bigint): Promise<void> {
  await server.app.deps.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update');
    await tx.$executeRaw`UPDATE audit_events SET after = jsonb_build_object('role', 'admin') WHERE id = ${id}`;
    await tx.$executeRawUnsafe('ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update');
  });
}

describe('verifying the audit chain', () => {
  it('answers administrators over REST and GraphQL with the events checked, the head and no break', async () => {
    const events = await server.app.deps.prisma.auditEvent.count();
    expect(events).toBeGreaterThan(2); // the users created, the sign-ins
    const [head] = await server.app.deps.prisma.$queryRaw<{ hash: string }[]>`SELECT hash FROM audit_chain_head`;
    const r = await admin.get('/api/audit/verify');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ checkedEvents: expect.any(Number), headHash: head!.hash, firstBreak: null });
    expect(r.body.checkedEvents).toBeGreaterThanOrEqual(events);
    const g = await admin.gql(QUERY);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.auditChainVerification).toMatchObject({ headHash: expect.stringMatching(/^[0-9a-f]{64}$/), firstBreak: null });
  });

  it('refuses anyone but administrators', async () => {
    expect((await reviewer.get('/api/audit/verify')).status).toBe(403);
    const g = await reviewer.gql(QUERY);
    expect(g.body.data?.auditChainVerification ?? null).toBeNull();
    expect(g.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('is in the OpenAPI document', async () => {
    const doc = await admin.get('/api/openapi.json');
    expect(doc.body.paths['/api/audit/verify']?.get).toBeDefined();
  });

  it('names an event a database owner changed, and the daily job tells every administrator once', async () => {
    const [victim] = await server.app.deps.prisma.$queryRaw<{ id: bigint }[]>`SELECT id FROM audit_events ORDER BY chain_seq LIMIT 1 OFFSET 1`;
    await alterEvent(victim!.id);
    const r = await admin.get('/api/audit/verify');
    expect(r.body.firstBreak).toEqual({ eventId: String(victim!.id), reason: expect.stringMatching(/^hash mismatch/) });
    const g = await admin.gql(QUERY);
    expect(g.body.data.auditChainVerification.firstBreak).toEqual(r.body.firstBreak);

    const first = await checkAuditChain(server.app.deps);
    expect(first).toMatchObject({ alerted: true, firstBreak: r.body.firstBreak });
    const again = await checkAuditChain(server.app.deps);
    expect(again).toMatchObject({ alerted: false, firstBreak: r.body.firstBreak });
    const notes = await admin.get('/api/notifications');
    const told = notes.body.notifications.filter((n: { title: string }) => n.title === CHAIN_BREAK_TITLE);
    expect(told).toHaveLength(1);
    expect(told[0].message).toContain(`audit event ${victim!.id}`);
    // A reviewer is not told.
    const theirs = await reviewer.get('/api/notifications');
    expect(theirs.body.notifications.filter((n: { title: string }) => n.title === CHAIN_BREAK_TITLE)).toHaveLength(0);
    // The break found is itself in the trail, chained after the break.
    const recorded = await server.app.deps.prisma.auditEvent.findMany({ where: { action: 'audit.chain_broken' } });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.entityId).toBe(String(victim!.id));
  });

  it('is scheduled daily by the job queue', async () => {
    const rows = await server.app.deps.prisma.$queryRawUnsafe<{ cron: string }[]>('SELECT cron FROM pgboss.schedule WHERE name = $1', JOBS.auditChain);
    expect(rows).toEqual([{ cron: AUDIT_CHAIN_CRON }]);
  });
});
