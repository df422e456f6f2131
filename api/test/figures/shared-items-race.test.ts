// A period's first shared items' refresh (services/kept/shared-items.ts) while a
// decision is being made in another transaction (PostgreSQL only: PGlite has
// one connection). The decision's trigger moves the kept counts only of
// periods already worked out (shared_item_periods), and the refresh counts the
// decisions committed when it reads them: a decision uncommitted while the
// first refresh read, and whose trigger ran before the refresh's stamp was
// committed, was counted by neither. The dashboard figures' job
// (jobs/dashboard-figures.ts) runs such refreshes in the background, while
// reviewers decide. A change of what reviewers see keeps the items up to date
// in its own transaction (keepSharedItemsAfter), from the decisions it reads:
// a decision under way when it starts is waited for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../helpers/database.js';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { seedRows, seedUsers } from '../helpers/seed.js';
import { freshSharedItems } from '../../src/services/kept/index.js';
import { changingWhatTheySee } from '../../src/services/review/assignments.js';
import { startJobQueue } from '../../src/db/queue.js';

/**
 * A decision inserted in its own transaction (its triggers ran) and not yet
 * committed; `commitAfter(work)` starts the work, commits the decision 300 ms
 * later (while the work runs, or waits for it) and waits for both.
 */
async function decisionUnderWay(prisma: PrismaClient, periodId: string, reviewerId: string, row: bigint, decision: 'retain' | 'remove') {
  let commit = () => {};
  const held = new Promise<void>((r) => (commit = r));
  let inserted = () => {};
  const decided = new Promise<void>((r) => (inserted = r));
  const deciding = prisma.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO decisions (period_id, reviewer_id, risk_row_id, decision)
      VALUES (${periodId}::uuid, ${reviewerId}::uuid, ${row}, ${decision}::"DecisionValue")`;
    inserted();
    await held;
  });
  await decided;
  return {
    async commitAfter(work: () => Promise<unknown>) {
      const working = work();
      await new Promise((r) => setTimeout(r, 300));
      commit();
      await Promise.all([deciding, working]);
    },
  };
}

describe.runIf(Boolean(process.env.DATABASE_URL))("a period's first refresh and a decision at the same time", () => {
  let env: Awaited<ReturnType<typeof migratedDatabase>>;
  beforeAll(async () => {
    env = await migratedDatabase();
  });
  afterAll(async () => env?.close());

  it('the decision is counted once, whichever commits first', async () => {
    const prisma = env.db.prisma;
    const [row] = await seedRows(prisma, [{ userId: 'U1', accessRiskId: 'R01' }]);
    const [reviewer] = await seedUsers(prisma, 1, 'reviewer', 'Race#Pass1');
    const period = await prisma.reviewPeriod.create({ data: { name: 'Race', startDate: new Date(), status: 'active' } });
    // The decision: inserted (its trigger ran), not yet committed; the refresh starts meanwhile.
    const decision = await decisionUnderWay(prisma, period.id, reviewer!.id, row!, 'retain');
    await decision.commitAfter(() => freshSharedItems(prisma, [period.id]));
    const [kept] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT coalesce(sum(decisions), 0)::bigint AS n FROM shared_items WHERE period_id = $1::uuid`,
      period.id,
    );
    expect(kept!.n).toBe(1n);
  });

  it('a reviewer deciding an item while it is taken from them stays one of its reviewers', async () => {
    const prisma = env.db.prisma;
    const [row] = await seedRows(prisma, [{ userId: 'U7', accessRiskId: 'R07', system: 'S7' }]);
    const [x, y] = await seedUsers(prisma, 2, 'reviewer', 'Race#Pass1');
    const xs = await prisma.assignmentCriteria.create({ data: { name: 'x', reviewerId: x!.id, criteriaType: 'system', criteriaValue: 'S7' } });
    await prisma.assignmentCriteria.create({ data: { name: 'y', reviewerId: y!.id, criteriaType: 'user_id', criteriaValue: 'U7' } });
    await prisma.reviewPeriod.updateMany({ where: { status: 'active' }, data: { status: 'closed' } });
    const period = await prisma.reviewPeriod.create({ data: { name: 'Race 2', startDate: new Date(), status: 'active' } });
    await freshSharedItems(prisma, [period.id]);
    // x decides (the trigger adds x to the item), not yet committed, while x's criterion is removed.
    const decision = await decisionUnderWay(prisma, period.id, x!.id, row!, 'remove');
    const jobs = await startJobQueue(env.db, { databaseUrl: env.test.url });
    try {
      await decision.commitAfter(() =>
        prisma.$transaction((tx) => changingWhatTheySee(tx, jobs, [x!.id], () => tx.assignmentCriteria.delete({ where: { id: xs.id } }))),
      );
    } finally {
      await jobs.stop(0);
    }
    const [item] = await prisma.$queryRawUnsafe<{ reviewers: string[]; shared: boolean; fresh: boolean }[]>(
      `SELECT ARRAY(SELECT r::text FROM unnest(si.reviewers) r ORDER BY 1) AS reviewers, si.shared,
              s.data_version = v.version AND s.criteria_version = v.criteria_version AS fresh
         FROM shared_items si JOIN shared_item_periods s USING (period_id) CROSS JOIN risk_data_version v
        WHERE v.id = 1 AND si.period_id = $1::uuid AND si.user_id = 'U7'`,
      period.id,
    );
    // x decided it: a reviewer of it still (README 'Shared reviews'), beside y, who holds it.
    expect(item).toEqual({ reviewers: [x!.id, y!.id].sort(), shared: true, fresh: true });
  });
});
