// An extract load or an analysis run whose instance died does not stay
// 'processing' for ever: its job expires only after longer than a big load
// takes, is tried once more, and when that try dies too the work ends
// 'failed' saying to start it again; and when the app starts, work left
// 'processing' without a live job is ended the same way, while work still
// queued is done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { JOBS } from '../../src/db/queue.js';
import { STOPPED_QUEUE, WORK_LOCK, endOrphanedWork } from '../../src/jobs/access.js';
import { PAY_ROLE, assign, estate, pairRules, user } from './support/fixtures.js';
import { postZip, settle } from './support/edge.js';

const onPostgres = Boolean(process.env.DATABASE_URL);
const LOAD_STOPPED = 'The load stopped before it finished; load the extract again.';
const PRD = estate({ USR02: [user('ALICE')], AGR_USERS: [assign('ALICE', 'Z_PAY')], AGR_1251: [...PAY_ROLE] });

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  // Extract jobs are left to the "instances" of these tests: this one does not take them.
  await server.app.deps.jobs.boss.offWork(JOBS.accessExtract);
}, 60_000);
afterAll(async () => server?.close());

const boss = () => server.app.deps.jobs.boss;
/** The job of an extract. */
async function jobOf(extractId: string) {
  const [job] = await server.app.deps.db.sql.query<{ id: string; state: string }>(
    `SELECT id::text, state::text FROM pgboss.job WHERE name = $1 AND data->>'extractId' = $2`,
    [JOBS.accessExtract, extractId],
  );
  return job!;
}
/** An instance takes the extract's job and dies with it: it stays active, started `ago` back. */
async function takenByADeadInstance(extractId: string, ago: string) {
  const job = await jobOf(extractId);
  await server.app.deps.db.sql.query(`UPDATE pgboss.job SET start_after = now() WHERE id = $1::uuid`, [job.id]);
  const [taken] = await boss().fetch(JOBS.accessExtract);
  expect(taken?.id).toBe(job.id);
  await later(job.id, ago);
  return job.id;
}
/** Moves a job's start back by `ago`, as if that much time had passed, and lets pg-boss's maintenance look at it. */
async function later(jobId: string, ago: string) {
  await server.app.deps.db.sql.query(`UPDATE pgboss.job SET started_on = started_on - $2::interval WHERE id = $1::uuid`, [jobId, ago]);
  await boss().maintain();
}

describe('work left by an instance that died', () => {
  it('a load is given tens of minutes, tried once more, and ends failed when its last try dies too', async () => {
    const x = await postZip(server, admin, '/api/systems/PRD/extracts', PRD);
    expect(x.status).toBe(202);
    const url = `/api/systems/PRD/extracts/${x.body.id}`;
    const job = await takenByADeadInstance(x.body.id, '50 minutes');
    // Fifty minutes into a load: still going as far as anyone knows.
    expect((await jobOf(x.body.id)).state).toBe('active');
    await later(job, '4 hours');
    // Given up on that instance: tried again.
    expect((await jobOf(x.body.id)).state).toBe('retry');
    expect((await admin.get(url)).body.status).toBe('processing');
    await takenByADeadInstance(x.body.id, '5 hours');
    expect((await jobOf(x.body.id)).state).toBe('failed');
    expect(await settle(admin, url)).toMatchObject({ status: 'failed', errorMessage: LOAD_STOPPED });
    // Nothing of it is used: the system has no extract to analyse.
    const set = await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Stopped' });
    expect((await admin.post('/api/analyses', { ruleSetId: set.body.id, systems: ['PRD'] })).status).toBe(400);
  });

  it('when the app starts, work processing without a live job ends failed, and work still queued is done', async () => {
    const dead = await postZip(server, admin, '/api/systems/DEAD/extracts', PRD);
    await takenByADeadInstance(dead.body.id, '2 minutes');
    const queued = await postZip(server, admin, '/api/systems/QUEUED/extracts', PRD);
    // A run whose job is gone (it ended without ending the run).
    const set = await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Orphans' });
    const run = await server.app.deps.prisma.accessAnalysisRun.create({
      data: { ruleSetId: set.body.id, asOf: new Date('2026-06-30T00:00:00Z'), systems: ['DEAD'] },
    });

    // The app starts again: on PostgreSQL as a second instance on the same database and data folder;
    // PGlite runs in one process only, so its start's sweep runs in this one.
    const again = onPostgres ? await startServer({ DATA_DIR: server.dataDir }, { sameDatabaseAs: server }) : server;
    try {
      if (!onPostgres) await endOrphanedWork(server.app.deps);
      const c = onPostgres ? await adminClient(again) : admin;
      expect(await settle(c, `/api/systems/DEAD/extracts/${dead.body.id}`)).toMatchObject({ status: 'failed', errorMessage: LOAD_STOPPED });
      expect(await settle(c, `/api/analyses/${run.id}`)).toMatchObject({
        status: 'failed',
        errorMessage: 'The analysis stopped before it finished; start it again.',
      });
      if (onPostgres) expect(await settle(c, `/api/systems/QUEUED/extracts/${queued.body.id}`)).toMatchObject({ status: 'completed', users: 1 });
      else expect((await c.get(`/api/systems/QUEUED/extracts/${queued.body.id}`)).body.status).toBe('processing');
    } finally {
      if (again !== server) await again.close();
    }
  });

  it.skipIf(!onPostgres)('at start, a load another live instance is running is left to it', async () => {
    const x = await postZip(server, admin, '/api/systems/BUSY/extracts', PRD);
    const url = `/api/systems/BUSY/extracts/${x.body.id}`;
    await takenByADeadInstance(x.body.id, '2 minutes');
    // The instance that took it is alive: it holds the work's lock while it loads.
    await server.app.deps.db.sql.session(async (conn) => {
      await conn.query('SELECT pg_advisory_lock($1::int, hashtext($2))', [WORK_LOCK, x.body.id]);
      try {
        expect(await endOrphanedWork(server.app.deps)).toBe(0);
      } finally {
        await conn.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [WORK_LOCK, x.body.id]);
      }
    });
    expect((await admin.get(url)).body.status).toBe('processing');
    // That instance has died since: the next start ends its load.
    expect(await endOrphanedWork(server.app.deps)).toBe(1);
    expect((await admin.get(url)).body).toMatchObject({ status: 'failed', errorMessage: LOAD_STOPPED });
  });

  it.skipIf(!onPostgres)('a job given up on while a live instance still loads leaves the load to it', async () => {
    const x = await postZip(server, admin, '/api/systems/SLOW/extracts', PRD);
    const url = `/api/systems/SLOW/extracts/${x.body.id}`;
    await takenByADeadInstance(x.body.id, '1 minute');
    /** The extract's job fails for good (it reaches the dead-letter queue); resolves once that is handled. */
    const failedForGood = async () => {
      const id = (await boss().send(STOPPED_QUEUE.extract, { extractId: x.body.id }))!;
      for (
        const deadline = Date.now() + 30_000;
        (await boss().getJobById(STOPPED_QUEUE.extract, id))?.state !== 'completed';
        await new Promise((r) => setTimeout(r, 100))
      ) {
        if (Date.now() > deadline) throw new Error('the dead-letter job was not handled');
      }
    };
    await server.app.deps.db.sql.session(async (conn) => {
      // Another instance is still loading it: it holds the work's lock.
      await conn.query('SELECT pg_advisory_lock($1::int, hashtext($2))', [WORK_LOCK, x.body.id]);
      try {
        await failedForGood();
      } finally {
        await conn.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [WORK_LOCK, x.body.id]);
      }
    });
    expect((await admin.get(url)).body.status).toBe('processing');
    await failedForGood();
    expect((await admin.get(url)).body).toMatchObject({ status: 'failed', errorMessage: LOAD_STOPPED });
  });
});
