// A statement run with planner settings of its own (db/plan-settings.ts): they
// hold for it and end with it, and bad values are refused before reaching SQL.
import { afterAll, describe, expect, it } from 'vitest';
import { withPlanSettings } from '../../src/db/plan-settings.js';
import { migratedDatabase } from '../helpers/database.js';

const h = await migratedDatabase();
afterAll(() => h.close());
const settings = () =>
  h.db.prisma.$queryRaw<{ jit: string; work_mem: string; workers: string }[]>`
    SELECT current_setting('jit') AS jit, current_setting('work_mem') AS work_mem, current_setting('max_parallel_workers_per_gather') AS workers`;

describe('withPlanSettings', () => {
  it('runs the statement with the settings and leaves the connection as it was', async () => {
    const [before] = await settings();
    const [during] = await withPlanSettings(h.db.prisma, { jit: 'off', workMem: '64MB', parallelWorkers: 0 }, settings());
    expect(during).toEqual({ jit: 'off', work_mem: '64MB', workers: '0' });
    const [after] = await settings();
    expect(after).toEqual(before);
    expect(before!.work_mem).not.toBe('64MB');
  });

  it('hash joins only: neither nested loops nor merge joins for the statement', async () => {
    const joins = () => h.db.prisma.$queryRaw<{ nestloop: string; mergejoin: string }[]>`
      SELECT current_setting('enable_nestloop') AS nestloop, current_setting('enable_mergejoin') AS mergejoin`;
    const [during] = await withPlanSettings(h.db.prisma, { hashJoinsOnly: true }, joins());
    expect(during).toEqual({ nestloop: 'off', mergejoin: 'off' });
    expect((await joins())[0]).toEqual({ nestloop: 'on', mergejoin: 'on' });
  });

  it('refuses values that are not settings', async () => {
    await expect(withPlanSettings(h.db.prisma, { workMem: "1MB'; DROP TABLE users; --" as '1MB' }, settings())).rejects.toThrow(/work_mem/);
    await expect(withPlanSettings(h.db.prisma, { parallelWorkers: -1 }, settings())).rejects.toThrow(/parallel workers/);
  });
});
