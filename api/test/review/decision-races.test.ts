// Decisions written while other things happen to the same period, on two
// app instances sharing one PostgreSQL database (PGlite has one connection:
// nothing runs at once there, so only the refusal after a close runs on it).
//
// - A close while 20 reviewers keep saving: after it commits no decision of
//   the period is accepted, and the evidence it froze holds exactly the
//   decisions stored (same rows, same final values). A save racing the close
//   either lands before it (and is in the evidence) or is refused with 409.
// - Many reviewers batch-saving and submitting rows of shared items at once:
//   no request fails with a 500 (the kept aggregates' triggers lock rows of
//   shared items; writers of a period take their locks in one order, and a
//   transaction PostgreSQL still aborts as a deadlock or serialization
//   failure is tried again inside the service).
import { afterAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { onPostgres } from '../helpers/db.js';
import { seedRows } from '../helpers/seed.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) await s.close();
});

const SYSTEMS = 10;
const gid = (id: bigint | number) => Buffer.from(`RiskRow:${id}`).toString('base64');
const pick = <T>(xs: T[], n: number) => [...xs].sort(() => Math.random() - 0.5).slice(0, n);

/**
 * Two instances on one database (one on PGlite), `count` reviewers each
 * holding the rows of one of SYSTEMS systems (two reviewers a system: every
 * row shared), the rows spread over 40 users so that every item (user id
 * and role) has rows in every system.
 */
async function reviewSetUp(count: number, rowsPerSystem: number, period: Record<string, unknown>) {
  const a = await startServer();
  servers.push(a);
  const b = onPostgres ? await startServer({}, { sameDatabaseAs: a }) : a;
  if (b !== a) servers.push(b);
  const admin = await adminClient(a);
  const reviewers = await userClients(a, admin, count);
  const rows: { userId: string; accessRiskId: string; system: string }[] = [];
  for (let s = 0; s < SYSTEMS; s++) {
    for (let i = 0; i < rowsPerSystem; i++) rows.push({ userId: `U${i % 40}`, accessRiskId: `R${s}-${i}`, system: `S${s}` });
  }
  const ids = await seedRows(a.app.deps.prisma, rows);
  const bySystem = new Map<string, bigint[]>();
  rows.forEach((r, i) => bySystem.set(r.system, [...(bySystem.get(r.system) ?? []), ids[i]!]));
  const held = new Map<string, bigint[]>();
  for (const [i, r] of reviewers.entries()) {
    const system = `S${i % SYSTEMS}`;
    expect((await admin.post('/api/assignment-criteria', { reviewerId: r.user.id, criteriaType: 'system', criteriaValue: system })).status).toBe(201);
    held.set(r.user.id, bySystem.get(system)!);
  }
  const created = await admin.post('/api/review-periods', { name: 'Race review', ...period });
  expect(created.status).toBe(201);
  // Half the reviewers talk to each instance (their session cookie is valid on both).
  const on = (r: UserClient, i: number): Client => {
    const c = new Client(i % 2 ? b.url : a.url);
    c.cookies = r.client.cookies;
    return c;
  };
  return { a, b, admin, reviewers: reviewers.map((r, i) => ({ ...r, client: on(r, i), rows: held.get(r.user.id)! })), periodId: created.body.id as string };
}

describe('a close while reviewers save', () => {
  it.skipIf(!onPostgres)(
    '(PostgreSQL only: PGlite runs one transaction at a time) freezes exactly the stored decisions; saves racing it land before it or get 409, none after it',
    { timeout: 180_000 },
    async () => {
      const { a, admin, reviewers, periodId } = await reviewSetUp(20, 150, { defaultDecisionAtClose: 'retain' });
      const prisma = a.app.deps.prisma;
      let closedAt = Infinity;
      /** Every save: when it was sent and answered, its rows and values, the answer. */
      const saves: {
        reviewer: string;
        sent: number;
        answered: number;
        status: number;
        message?: string;
        items: { id: bigint; decision: string; comments: string }[];
      }[] = [];
      const saver = async (r: (typeof reviewers)[number], i: number) => {
        // Until each reviewer has tried three saves after the close answered.
        for (let n = 0, after = 0; after < 3; n++) {
          const decision = Math.random() < 0.5 ? 'retain' : 'remove';
          const items = pick(r.rows, 8).map((id) => ({ id, decision, comments: `reviewer ${i}, save ${n}` }));
          const sent = performance.now();
          const res = await r.client.post('/api/reviews/decisions', {
            decisions: items.map((x) => ({ riskDefinitionId: Number(x.id), decision: x.decision, comments: x.comments })),
          });
          saves.push({ reviewer: r.user.id, sent, answered: performance.now(), status: res.status, message: res.body?.message, items });
          if (sent > closedAt) after++;
        }
      };
      const saving = reviewers.map(saver);
      // The close starts once the reviewers have saved twice each on average, while they go on.
      while (saves.filter((s) => s.status === 200).length < 2 * reviewers.length) await new Promise((r) => setTimeout(r, 50));
      const close = await admin.put(`/api/review-periods/${periodId}/close`);
      closedAt = performance.now();
      await Promise.all(saving);
      expect(close.status, JSON.stringify(close.body)).toBe(200);

      // Every save was acknowledged or refused with 409, and every one sent after the close was refused.
      const byStatus: Record<string, typeof saves> = {};
      for (const s of saves) (byStatus[s.status] ??= []).push(s);
      expect(Object.keys(byStatus).sort(), JSON.stringify(saves.find((s) => s.status !== 200 && s.status !== 409))).toEqual(['200', '409']);
      const late = saves.filter((s) => s.sent > closedAt);
      expect(late.length).toBeGreaterThanOrEqual(60);
      expect(late.filter((s) => s.status !== 409)).toEqual([]);
      expect(saves.filter((s) => s.answered > closedAt && s.status === 200).map((s) => s.answered - closedAt)).toEqual([]);
      for (const s of byStatus['409']!) expect(s.message).toMatch(/review period (is being closed|is active)|No review period is active/);
      expect(byStatus['200']!.filter((s) => s.answered < closedAt).length).toBeGreaterThanOrEqual(2 * reviewers.length);
      const closing = byStatus['409']!.filter((s) => /being closed/.test(s.message ?? '')).length;
      console.log(
        `saves: ${byStatus['200']!.length} acknowledged (all before the close answered), ${closing} refused while it ran, ${byStatus['409']!.length - closing} after it`,
      );

      // The stored decisions of the period: each acknowledged save's last value, else the default at close.
      const stored = await prisma.$queryRawUnsafe<
        { reviewer: string; email: string; risk: string; row: bigint; decision: string; comments: string | null; at_close: boolean }[]
      >(
        `SELECT d.reviewer_id::text AS reviewer, u.email, r.access_risk_id AS risk, d.risk_row_id AS row, d.decision::text AS decision, d.comments, d.applied_at_close AS at_close
         FROM decisions d JOIN users u ON u.id = d.reviewer_id JOIN risk_rows r ON r.id = d.risk_row_id WHERE d.period_id = $1::uuid`,
        periodId,
      );
      const last = new Map<string, { decision: string; comments: string }>();
      for (const s of byStatus['200']!) for (const x of s.items) last.set(`${s.reviewer}:${x.id}`, { decision: x.decision, comments: x.comments });
      for (const d of stored.filter((d) => !d.at_close))
        expect(last.get(`${d.reviewer}:${d.row}`), `${d.email} ${d.risk}`).toEqual({ decision: d.decision, comments: d.comments });
      for (const [key, v] of last)
        expect(
          stored.find((d) => `${d.reviewer}:${d.row}` === key),
          key,
        ).toMatchObject({ ...v, at_close: false });
      // Every row a reviewer holds has their decision now (theirs, or the default at close).
      expect(stored.length).toBe(reviewers.reduce((n, r) => n + r.rows.length, 0));

      // The frozen evidence: the same decisions, row for row, with the same final values.
      const frozen = await prisma.periodEvidenceDecision.findMany({ where: { periodId }, orderBy: { seq: 'asc' } });
      const key = (email: string, risk: string, decision: string, comments: string | null) => `${email} ${risk} ${decision} ${comments}`;
      const evidence = frozen.map((f) => {
        const r = f.record as Record<string, string | null>;
        return key(/<([^>]+)>/.exec(r.reviewer!)![1]!, r.accessRiskId!, r.decision!, r.comments ?? null);
      });
      expect(evidence.sort()).toEqual(stored.map((d) => key(d.email, d.risk, d.decision, d.comments)).sort());
      const scope = (await prisma.periodEvidence.findFirstOrThrow({ where: { periodId }, orderBy: { version: 'desc' } })).scope as {
        summary: { decisions: number };
      };
      expect(scope.summary.decisions).toBe(stored.length);
    },
  );

  it('refuses a save after the close with 409 in REST and CONFLICT in GraphQL, and the frozen evidence keeps its value', { timeout: 120_000 }, async () => {
    const { admin, reviewers, periodId } = await reviewSetUp(2, 3, {});
    const [r] = reviewers;
    const [row] = r!.rows;
    expect((await r!.client.post('/api/reviews/decision', { riskDefinitionId: Number(row), decision: 'retain', comments: 'kept' })).status).toBe(200);
    expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    const rest = await r!.client.post('/api/reviews/decision', { riskDefinitionId: Number(row), decision: 'remove', comments: 'too late' });
    expect(rest.status).toBe(409);
    expect(rest.body.message).toMatch(/No review period is active/);
    const graph = await r!.client.gql('mutation ($d: [DecisionInput!]!) { saveDecisions(decisions: $d) { ... on BaseError { code message } } }', {
      d: [{ riskRowId: gid(row!), decision: 'REMOVE' }],
    });
    expect(graph.body.data.saveDecisions).toEqual({ code: 'CONFLICT', message: rest.body.message });
    const frozen = await servers[servers.length - 1]!.app.deps.prisma.periodEvidenceDecision.findMany({ where: { periodId } });
    expect(frozen.map((f) => (f.record as { decision: string; comments: string }).comments)).toEqual(['kept']);
  });
});

describe('batch saves and submits of shared rows at once', () => {
  it.skipIf(!onPostgres)(
    '(PostgreSQL only: PGlite runs one transaction at a time) never answer 500 (no deadlock or serialization failure reaches a user)',
    { timeout: 240_000 },
    async () => {
      const { reviewers } = await reviewSetUp(20, 40, {});
      const answers = new Map<string, number>();
      const count = (what: string, status: number, body: unknown) => {
        const k = `${what} ${status}${status >= 500 ? ` ${JSON.stringify(body).slice(0, 200)}` : ''}`;
        answers.set(k, (answers.get(k) ?? 0) + 1);
      };
      await Promise.all(
        reviewers.map(async (r) => {
          for (let n = 0; n < 12; n++) {
            const decision = n % 2 ? 'retain' : 'remove';
            const saved = await r.client.post('/api/reviews/decisions', {
              decisions: pick(r.rows, 25).map((id) => ({ riskDefinitionId: Number(id), decision })),
            });
            count('save', saved.status, saved.body);
            const submitted = await r.client.post('/api/reviews/submit');
            count('submit', submitted.status, submitted.body);
            const recalled = await r.client.post('/api/reviews/recall');
            count('recall', recalled.status, recalled.body);
          }
        }),
      );
      expect(Object.fromEntries(answers)).toEqual({ 'save 200': 240, 'submit 200': 240, 'recall 200': 240 });
    },
  );
});

describe('a transaction PostgreSQL aborts as a deadlock or serialization failure', () => {
  it('is run again inside the service: the save is answered 200 and written once; past the bound, 503 (busy), never 500', { timeout: 120_000 }, async () => {
    const { a, reviewers } = await reviewSetUp(1, 2, {});
    const prisma = a.app.deps.prisma;
    const [r] = reviewers;
    // The database itself aborts the first statements writing decisions, as it aborts a deadlock's victim.
    await prisma.$executeRawUnsafe(`CREATE SEQUENCE test_aborts`);
    await prisma.$executeRawUnsafe(`CREATE TABLE test_abort_limit (n INT NOT NULL)`);
    await prisma.$executeRawUnsafe(`CREATE FUNCTION test_abort() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('test_aborts') <= (SELECT n FROM test_abort_limit) THEN
          RAISE EXCEPTION 'deadlock detected' USING ERRCODE = CASE WHEN currval('test_aborts') % 2 = 0 THEN '40001' ELSE '40P01' END;
        END IF;
        RETURN NULL;
      END $$`);
    await prisma.$executeRawUnsafe(`CREATE TRIGGER test_abort BEFORE INSERT OR UPDATE ON decisions FOR EACH STATEMENT EXECUTE FUNCTION test_abort()`);
    const aborted = async (n: number) => {
      await prisma.$executeRawUnsafe(`DELETE FROM test_abort_limit`);
      await prisma.$executeRawUnsafe(`INSERT INTO test_abort_limit VALUES (${n})`);
      await prisma.$executeRawUnsafe(`SELECT setval('test_aborts', 1, false)`);
    };
    const mine = () => prisma.decision.findMany({ where: { reviewerId: r!.user.id }, select: { riskRowId: true, decision: true } });
    const events = () => prisma.auditEvent.count({ where: { action: 'decision.changed', actorId: r!.user.id } });

    await aborted(2);
    const saved = await r!.client.post('/api/reviews/decisions', { decisions: [{ riskDefinitionId: Number(r!.rows[0]), decision: 'remove' }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await mine()).toEqual([{ riskRowId: r!.rows[0], decision: 'remove' }]);
    expect(await events()).toBe(1);

    await aborted(1000);
    const busy = await r!.client.post('/api/reviews/decisions', { decisions: [{ riskDefinitionId: Number(r!.rows[1]), decision: 'retain' }] });
    expect(busy.status).toBe(503);
    expect(busy.body.message).toMatch(/busy; try again/);
    const submitted = await r!.client.post('/api/reviews/submit');
    expect(submitted.status).toBe(503);
    expect(await mine()).toEqual([{ riskRowId: r!.rows[0], decision: 'remove' }]);
    expect(await events()).toBe(1);
    await prisma.$executeRawUnsafe(`DROP TRIGGER test_abort ON decisions`);
  });
});
