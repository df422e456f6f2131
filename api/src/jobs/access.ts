// The access engine's workers (services/access/): an extract's load and an
// analysis run, each job one at a time per instance, publishing progress as
// they go (services/access/progress.ts). Both services end what they were
// given 'completed' or 'failed' themselves, and skip what is no longer
// 'processing', so a job retried after an instance stopped mid-way starts
// over cleanly instead of loading or counting twice.
//
// No work stays 'processing' for ever:
// - a job expires only after longer than the work can take (a load of tens of
//   millions of rows, an analysis's transaction), then is tried once more;
// - a job that fails for good (its last try expired too: the instances
//   running it died) goes to its dead-letter queue, whose worker ends the work
//   'failed' with a message saying to start it again;
// - when the app starts, work 'processing' without a live job (none queued,
//   or one started by an instance that has since died) is ended the same way.
// One piece of work is worked on by one worker at a time: in this process (a
// job that expired while its handler still runs is retried at once) and, on
// PostgreSQL, across instances (an advisory lock held while the work runs,
// freed with the connection of an instance that dies).
import type { AppDeps } from '../context.js';
import { JOBS } from '../db/queue.js';
import { timedJob } from '../core/metrics.js';
import { loadExtract } from '../services/access/extracts.js';
import { runAnalysis } from '../services/access/analysis.js';
import { publishingProgress } from '../services/access/progress.js';
import { endStoppedExtract, endStoppedRun, processingWork } from '../services/access/stopped.js';

/** A load of 5M+ rows takes tens of minutes; its job is given up (and retried) only after this long. */
export const EXTRACT_JOB_EXPIRY_SECONDS = 4 * 3600;
/** An analysis runs in one transaction of at most 30 minutes. */
export const ANALYSIS_JOB_EXPIRY_SECONDS = 3600;
/** Where the jobs that failed for good go. */
export const STOPPED_QUEUE = { extract: `${JOBS.accessExtract}.stopped`, analysis: `${JOBS.accessAnalysis}.stopped` } as const;
/** How long a job a live instance has just taken may go without its lock (it takes it right after fetching). */
const TAKING_SECONDS = 30;
/** The class of the advisory locks that keep one worker on a piece of work. */
export const WORK_LOCK = 0x41435357;

const workingHere = new Set<string>();

/**
 * Runs `fn` unless the work `id` is being worked on already, here or (on
 * PostgreSQL) by another instance; false when it was (that worker ends it).
 */
async function alone(deps: AppDeps, id: string, fn: () => Promise<void>): Promise<boolean> {
  if (workingHere.has(id)) return false;
  workingHere.add(id);
  try {
    if (deps.db.kind !== 'postgres') {
      await fn();
      return true;
    }
    return await deps.db.sql.session(async (conn) => {
      const [got] = await conn.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS ok', [WORK_LOCK, id]);
      if (!got?.ok) return false;
      try {
        await fn();
        return true;
      } finally {
        await conn.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [WORK_LOCK, id]).catch(() => {});
      }
    });
  } finally {
    workingHere.delete(id);
  }
}

/** Ends 'failed' the work left 'processing' whose job will not run it: none waiting, none running on a live instance. */
export async function endOrphanedWork(deps: AppDeps): Promise<number> {
  const work = await processingWork(deps);
  if (!work.extracts.length && !work.runs.length) return 0;
  // pg-boss's own table (schema 'pgboss', db/queue.ts): the jobs not yet ended.
  const jobs = await deps.db.sql.query<{ id: string; name: string; state: string; work: string; settled: boolean }>(
    `SELECT id::text, name, state::text, coalesce(data->>'extractId', data->>'runId') AS work, coalesce(started_on < now() - make_interval(secs => $2), false) AS settled
       FROM pgboss.job WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active')`,
    [[JOBS.accessExtract, JOBS.accessAnalysis], TAKING_SECONDS],
  );
  let ended = 0;
  const sweep = async (ids: string[], end: (id: string) => Promise<boolean>) => {
    for (const id of ids) {
      const mine = jobs.filter((j) => j.work === id);
      // Waiting, or just taken by a live instance, or running under its lock: live.
      if (mine.some((j) => j.state !== 'active' || (deps.db.kind === 'postgres' && !j.settled))) continue;
      let stopped = false;
      if (!(await alone(deps, id, async () => void (stopped = await end(id))))) continue;
      for (const j of mine) await deps.jobs.boss.cancel(j.name, j.id);
      if (stopped) ended++;
    }
  };
  await sweep(work.extracts, (id) => endStoppedExtract(deps, id));
  await sweep(work.runs, (id) => endStoppedRun(deps, id));
  if (ended) deps.log(`ended ${ended} access extract(s) or analysis run(s) left processing by a stopped instance`);
  return ended;
}

export async function startAccessWorkers(deps: AppDeps, opts: { pollingIntervalSeconds: number }) {
  const { boss } = deps.jobs;
  const queues = [
    { name: JOBS.accessExtract, stopped: STOPPED_QUEUE.extract, expireInSeconds: EXTRACT_JOB_EXPIRY_SECONDS },
    { name: JOBS.accessAnalysis, stopped: STOPPED_QUEUE.analysis, expireInSeconds: ANALYSIS_JOB_EXPIRY_SECONDS },
  ];
  for (const q of queues) {
    await boss.createQueue(q.stopped);
    const options = { name: q.name, retryLimit: 1, retryDelay: 30, expireInSeconds: q.expireInSeconds, deadLetter: q.stopped };
    await boss.createQueue(q.name, options);
    // A queue created before these options existed gets them too.
    await boss.updateQueue(q.name, options);
  }
  await endOrphanedWork(deps);
  const work = { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 };
  await boss.work<{ extractId: string }>(JOBS.accessExtract, work, async ([job]) => {
    const id = job!.data.extractId;
    await alone(deps, id, () => timedJob(JOBS.accessExtract, () => publishingProgress(deps, 'extract', id, () => loadExtract(deps, id))));
  });
  await boss.work<{ runId: string }>(JOBS.accessAnalysis, work, async ([job]) => {
    const id = job!.data.runId;
    await alone(deps, id, () => timedJob(JOBS.accessAnalysis, () => publishingProgress(deps, 'analysis', id, () => runAnalysis(deps, id))));
  });
  // A job failed for good: its work ends 'failed', unless a worker is still on it (it ends it itself).
  await boss.work<{ extractId: string }>(STOPPED_QUEUE.extract, work, async ([job]) => {
    await alone(deps, job!.data.extractId, async () => void (await endStoppedExtract(deps, job!.data.extractId)));
  });
  await boss.work<{ runId: string }>(STOPPED_QUEUE.analysis, work, async ([job]) => {
    await alone(deps, job!.data.runId, async () => void (await endStoppedRun(deps, job!.data.runId)));
  });
}
