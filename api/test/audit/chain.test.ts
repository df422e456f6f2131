// The audit trail's hash chain: every event the app writes (one through
// Prisma, or millions set-based in SQL) is chained by the database in its
// transaction, in one unbroken chain under concurrent writers; the offline
// verifier (packages/grc-verify/src/chain.mjs) recomputes every stored hash
// from the events as JSON; and the verification names the first event a
// database owner changed, deleted or moved.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma, type PrismaClient, type User } from '../../src/generated/prisma/client.js';
import { auditRowsSql, recordAudit } from '../../src/core/audit.js';
import type { DbClient } from '../../src/core/types.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { createDatabase } from '../../src/db/client.js';
import { GENESIS_HASH, walkAuditChain, type ChainVerification } from '../../src/services/audit/chain.js';
import { canonicalEvent, eventHash, verifyChain, type ChainEvent } from '../../../packages/grc-verify/src/chain.mjs';
import { freshDatabase, onPostgres, twoInstancesOnOneDatabase } from '../helpers/db.js';
import { migratedDatabase } from '../helpers/database.js';
import { seedUsers } from '../helpers/seed.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Every event as a bundle writes it (audit-events.jsonl), in chain order. */
async function eventsAsJson(prisma: DbClient): Promise<ChainEvent[]> {
  const rows = await prisma.auditEvent.findMany({ orderBy: { chainSeq: 'asc' } });
  // Through JSON text and back, as a file carries them.
  return rows.map(
    (e) =>
      JSON.parse(
        JSON.stringify({
          id: e.id.toString(),
          chainSeq: e.chainSeq!.toString(),
          occurredAt: e.occurredAt.toISOString(),
          actorId: e.actorId,
          actorLabel: e.actorLabel,
          action: e.action,
          entityType: e.entityType,
          entityId: e.entityId,
          periodId: e.periodId,
          before: e.before,
          after: e.after,
          ip: e.ip,
          prevHash: e.prevHash,
          hash: e.hash,
        }),
      ) as ChainEvent,
  );
}

/** Values that are hard to write the same way twice: text, keys and numbers. */
const TRICKY = {
  quotes: 'say "hi" \\ back\\slash / slash',
  controls: 'tab\there\nnew line\r\u0001\u001f\b\f end',
  unicode: 'Zoë Ünïcødé 日本語 😀 \u2028 \u007f \u00a0',
  emptyText: '',
  numbers: [0, -0, 1, -1, 1.5, 0.1 + 0.2, 1e21, 1e-7, -1.25e-10, 123456789012345, 9007199254740991, 5e-324, 1.7976931348623157e308, 2 ** 60],
  bigIdAsText: '9223372036854775807',
  nested: { z: { a: [1, { b: null, aa: true }], é: 'two bytes', y: 'one byte', '😀': 'four', '': 'empty key' }, deep: [[[[]]], {}] },
  nothing: null,
  flags: [true, false, null],
  ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${(i * 7919) % 41}${'x'.repeat(i % 5)}`, i])),
};

/** One event per kind of value, through both writers of core/audit.ts. */
async function writeTrickyEvents(prisma: PrismaClient, user: User): Promise<void> {
  const actor = { user, ip: '203.0.113.7' };
  await recordAudit(prisma, actor, { action: 'test.tricky', entityType: 'Test', entityId: 'js', before: TRICKY, after: { ...TRICKY, changed: 1.5 } });
  await recordAudit(prisma, null, { action: 'test.scalar', entityType: 'Test', after: 'just "text"' });
  await recordAudit(prisma, null, { action: 'test.number', entityType: 'Test', after: 1e21 });
  await recordAudit(prisma, null, { action: 'test.empty', entityType: 'Test', before: {}, after: [] });
  await recordAudit(prisma, { user: null, ip: null }, { action: 'test.refused', entityType: 'Test', actorLabel: 'someone "odd" \\ é' });
  // Numbers as SQL writes them: scales (1.50, 1.0), beyond a double's digits, exponents; JSON null beside SQL NULL.
  await prisma.$executeRaw(
    auditRowsSql(
      actor,
      Prisma.sql`
      SELECT 'test.sql' AS action, 'Test' AS entity_type, g::text AS entity_id, NULL::uuid AS period_id,
             CASE WHEN g % 2 = 0 THEN 'null'::jsonb END AS before,
             jsonb_build_object('scaled', 1.50, 'one', 1.0, 'tiny', 1e-7::numeric, 'exp', '1.5e300'::numeric,
                                'huge', 123456789012345678901234567890::numeric, 'g', g, 'neg', -g * 0.25,
                                'text', E'line\\none "q" \\\\ ' || chr(1) || ' é😀', 'list', jsonb_build_array(g, 2.50, 'x.y', NULL),
                                'id', '12345678901234567'::text, 'nestedNumbers', jsonb_build_object('a.b', 100.000, 'c', 1e20::numeric)) AS after
        FROM generate_series(1, 300) g`,
    ),
  );
}

/** Runs `fn` as a database owner would in a transaction that is then rolled back, and returns what it found. */
async function tampered(prisma: PrismaClient, fn: (tx: Prisma.TransactionClient) => Promise<void>): Promise<ChainVerification> {
  let found: ChainVerification | undefined;
  await prisma
    .$transaction(async (tx) => {
      await tx.$executeRawUnsafe('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update');
      await fn(tx);
      await tx.$executeRawUnsafe('ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update');
      found = await walkAuditChain(tx, { batchSize: 50 });
      throw new Error('rolled back');
    })
    .catch((err: Error) => {
      if (err.message !== 'rolled back') throw err;
    });
  return found!;
}

describe('the audit hash chain', () => {
  let prisma: PrismaClient;
  let user: User;

  beforeAll(async () => {
    const h = await migratedDatabase();
    cleanups.push(h.close);
    prisma = h.db.prisma;
    const [seeded] = await seedUsers(prisma, 1, 'admin', 'Seeded#Pass1');
    user = await prisma.user.update({ where: { id: seeded!.id }, data: { firstName: 'Zoë "Q"', lastName: 'O\\Brien 😀' } });
    await writeTrickyEvents(prisma, user);
  });

  it('chains every event as it is written: places 1, 2, 3… from 64 zeros, each linked to the one before', async () => {
    const events = await eventsAsJson(prisma);
    expect(events.length).toBeGreaterThan(300);
    expect(events[0]!.prevHash).toBe(GENESIS_HASH);
    events.forEach((e, i) => {
      expect(e.chainSeq).toBe(String(i + 1));
      expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
      if (i > 0) expect(e.prevHash).toBe(events[i - 1]!.hash);
    });
    const [head] = await prisma.$queryRaw<{ seq: bigint; hash: string }[]>`SELECT seq, hash FROM audit_chain_head`;
    expect(head).toEqual({ seq: BigInt(events.length), hash: events.at(-1)!.hash });
    expect(await walkAuditChain(prisma, { batchSize: 64 })).toEqual({ checkedEvents: events.length, headHash: events.at(-1)!.hash, firstBreak: null });
  });

  it('is recomputed byte for byte by the offline verifier from the events as JSON (unicode, escapes, many keys, 1.50, 1e21, big ids)', async () => {
    const events = await eventsAsJson(prisma);
    const canonical = await prisma.$queryRaw<{ seq: bigint; text: string }[]>`
      SELECT chain_seq AS seq, audit_event_canonical(e) AS text FROM audit_events e ORDER BY chain_seq`;
    for (const [i, e] of events.entries()) {
      expect(canonicalEvent(e), `the canonical form of event ${e.id}`).toBe(canonical[i]!.text);
      expect(eventHash(e, e.prevHash), `the hash of event ${e.id}`).toBe(e.hash);
    }
    expect(verifyChain(events)).toBeNull();
    // The same from the text of a JSON Lines file.
    const jsonl = events.map((e) => JSON.stringify(e)).join('\n');
    expect(verifyChain(jsonl.split('\n').map((l) => JSON.parse(l) as ChainEvent))).toBeNull();
  });

  it('names the event whose after a database owner changed (the append-only trigger disabled)', async () => {
    const [victim] = await prisma.$queryRaw<{ id: bigint }[]>`SELECT id FROM audit_events WHERE action = 'test.sql' ORDER BY chain_seq OFFSET 120 LIMIT 1`;
    const found = await tampered(prisma, (tx) => tx.$executeRaw`UPDATE audit_events SET after = after || '{"g": 999}' WHERE id = ${victim!.id}`.then(() => {}));
    expect(found.firstBreak).toEqual({ eventId: String(victim!.id), reason: expect.stringMatching(/^hash mismatch/) });
    // The offline verifier finds the same event.
    const events = await eventsAsJson(prisma);
    const i = events.findIndex((e) => e.id === String(victim!.id));
    events[i] = { ...events[i]!, after: { ...(events[i]!.after as object), g: 999 } };
    expect(verifyChain(events)).toEqual({ eventId: String(victim!.id), reason: expect.stringMatching(/^hash mismatch/) });
    // Rolled back: the chain holds again.
    expect((await walkAuditChain(prisma)).firstBreak).toBeNull();
  });

  it('names the gap where an event was deleted, and the end when the last one was', async () => {
    const [gone, next] = await prisma.$queryRaw<
      { id: bigint; seq: bigint }[]
    >`SELECT id, chain_seq AS seq FROM audit_events ORDER BY chain_seq OFFSET 77 LIMIT 2`;
    const found = await tampered(prisma, (tx) => tx.$executeRaw`DELETE FROM audit_events WHERE id = ${gone!.id}`.then(() => {}));
    expect(found.firstBreak).toEqual({
      eventId: String(next!.id),
      reason: expect.stringMatching(new RegExp(`^gap in the chain: chainSeq ${gone!.seq} missing`)),
    });
    const events = await eventsAsJson(prisma);
    expect(verifyChain(events.filter((e) => e.id !== String(gone!.id)))).toEqual({
      eventId: String(next!.id),
      reason: expect.stringMatching(/^gap in the chain/),
    });

    const [last, before] = await prisma.$queryRaw<{ id: bigint }[]>`SELECT id FROM audit_events ORDER BY chain_seq DESC LIMIT 2`;
    const truncated = await tampered(prisma, (tx) => tx.$executeRaw`DELETE FROM audit_events WHERE id = ${last!.id}`.then(() => {}));
    expect(truncated.firstBreak).toEqual({ eventId: String(before!.id), reason: expect.stringMatching(/^the chain ends at chainSeq \d+ but its head is/) });
  });

  it('names the event moved when two events swap their places in the chain', async () => {
    const [a, b] = await prisma.$queryRaw<{ id: bigint; seq: bigint }[]>`SELECT id, chain_seq AS seq FROM audit_events ORDER BY chain_seq OFFSET 10 LIMIT 2`;
    const found = await tampered(prisma, async (tx) => {
      await tx.$executeRaw`UPDATE audit_events SET chain_seq = -1 WHERE id = ${a!.id}`;
      await tx.$executeRaw`UPDATE audit_events SET chain_seq = ${a!.seq} WHERE id = ${b!.id}`;
      await tx.$executeRaw`UPDATE audit_events SET chain_seq = ${b!.seq} WHERE id = ${a!.id}`;
    });
    expect(found.firstBreak).toEqual({ eventId: String(b!.id), reason: expect.stringMatching(/^prev link broken/) });
    const events = await eventsAsJson(prisma);
    const i = events.findIndex((e) => e.id === String(a!.id));
    // The same swap in a file: the two events' places exchanged, and the lines with them.
    [events[i], events[i + 1]] = [
      { ...events[i + 1]!, chainSeq: String(a!.seq) },
      { ...events[i]!, chainSeq: String(b!.seq) },
    ];
    expect(verifyChain(events)).toEqual({ eventId: String(b!.id), reason: expect.stringMatching(/^prev link broken/) });
    // Two lines of a file swapped, their places left as they were.
    const lines = await eventsAsJson(prisma);
    [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
    expect(verifyChain(lines)?.eventId).toBe(String(b!.id));
  });

  it('leaves no gap for events rolled back, whole transactions or savepoints', async () => {
    await prisma
      .$transaction(async (tx) => {
        await recordAudit(tx, null, { action: 'test.rolled_back', entityType: 'Test' });
        throw new Error('no');
      })
      .catch(() => {});
    await prisma.$transaction(async (tx) => {
      await recordAudit(tx, null, { action: 'test.kept', entityType: 'Test', entityId: '1' });
      await tx.$executeRawUnsafe('SAVEPOINT s');
      await recordAudit(tx, null, { action: 'test.undone', entityType: 'Test' });
      await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT s');
      await recordAudit(tx, null, { action: 'test.kept', entityType: 'Test', entityId: '2' });
    });
    const v = await walkAuditChain(prisma);
    expect(v.firstBreak).toBeNull();
    expect(await prisma.auditEvent.count({ where: { action: { in: ['test.rolled_back', 'test.undone'] } } })).toBe(0);
    expect(v.checkedEvents).toBe(await prisma.auditEvent.count());
  });

  it('stays one unbroken chain under concurrent audited writes (one event, and many set-based)', async () => {
    const before = await prisma.auditEvent.count();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        prisma.$transaction(async (tx) => {
          await recordAudit(tx, null, { action: 'test.concurrent', entityType: 'Test', entityId: String(i) });
          await tx.$executeRaw(
            auditRowsSql(
              null,
              Prisma.sql`SELECT 'test.concurrent_rows' AS action, 'Test' AS entity_type, g::text AS entity_id, NULL::uuid AS period_id, NULL::jsonb AS before, jsonb_build_object('i', ${i}::int, 'g', g) AS after FROM generate_series(1, 25) g`,
            ),
          );
        }),
      ),
    );
    expect(await prisma.auditEvent.count()).toBe(before + 12 * 26);
    expect(await walkAuditChain(prisma)).toMatchObject({ checkedEvents: before + 12 * 26, firstBreak: null });
    expect(verifyChain(await eventsAsJson(prisma))).toBeNull();
  });
});

describe('the audit hash chain across instances', () => {
  it.runIf(onPostgres)('stays one unbroken chain when two instances write audited changes at once, each over several connections', async () => {
    const { a, b, cleanup } = await twoInstancesOnOneDatabase();
    cleanups.push(cleanup);
    await migrate(a.sql);
    const write = (prisma: PrismaClient, n: number) =>
      prisma.$transaction(async (tx) => {
        // The id is taken before the chain's lock: the chain's order must not follow it.
        await recordAudit(tx, null, { action: 'test.instance', entityType: 'Test', entityId: String(n) });
        await tx.$executeRaw`SELECT pg_sleep(0.005)`;
        await tx.$executeRaw(
          auditRowsSql(
            null,
            Prisma.sql`SELECT 'test.instance_rows' AS action, 'Test' AS entity_type, g::text AS entity_id, NULL::uuid AS period_id, NULL::jsonb AS before, jsonb_build_object('n', ${n}::int, 'g', g, 'r', 0.5) AS after FROM generate_series(1, 20) g`,
          ),
        );
      });
    await Promise.all(Array.from({ length: 40 }, (_, n) => write(n % 2 ? a.prisma : b.prisma, n)));
    const v = await walkAuditChain(a.prisma, { batchSize: 100 });
    expect(v).toMatchObject({ checkedEvents: 40 * 21, firstBreak: null });
    const seqs = await a.sql.query<{ n: number; lo: string; hi: string }>(
      'SELECT count(DISTINCT chain_seq)::int AS n, min(chain_seq)::text AS lo, max(chain_seq)::text AS hi FROM audit_events',
    );
    expect(seqs[0]).toEqual({ n: 40 * 21, lo: '1', hi: String(40 * 21) });
    expect(verifyChain(await eventsAsJson(b.prisma))).toBeNull();
  });
});

describe('the migration that brings the chain', () => {
  it('chains the events already there in id order, and the app goes on from them', async () => {
    const t = await freshDatabase();
    const db = await createDatabase({ databaseUrl: t.url, dataDir: '/nonexistent', inMemory: true });
    cleanups.push(async () => {
      await db.close();
      await t.drop();
    });
    // A deployment from before the chain: its migrations only, events written then.
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'grc-mig-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    for (const m of readMigrations().filter((m) => m.name < '20261207080000_audit_chain')) {
      fs.mkdirSync(path.join(dir, m.name));
      fs.writeFileSync(path.join(dir, m.name, 'migration.sql'), m.sql);
    }
    await migrate(db.sql, { migrations: dir, functions: null });
    await db.sql.exec(`INSERT INTO audit_events (action, entity_type, actor_label, after)
      SELECT 'old.event', 'Test', 'Old "label"', jsonb_build_object('n', g, 'x', 1.50) FROM generate_series(1, 25) g`);
    await migrate(db.sql);
    await recordAudit(db.prisma, null, { action: 'new.event', entityType: 'Test' });
    const rows = await db.sql.query<{ id: string; seq: string }>('SELECT e.id::text AS id, e.chain_seq::text AS seq FROM audit_events e ORDER BY e.id');
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => String(i + 1)));
    expect(await walkAuditChain(db.prisma)).toMatchObject({ checkedEvents: 26, firstBreak: null });
    expect(verifyChain(await eventsAsJson(db.prisma))).toBeNull();
  });
});
