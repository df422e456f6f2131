// Creates everything the server runs on (database, migrations, mail, pub/sub,
// the first administrator) and the server itself. Used by main.ts and tests.
// The start-up steps that another instance may run at the same moment
// (migrations, the job queue's set-up, the first administrator) run under one
// advisory lock (db/startup-lock.ts).
import type { Config } from './config.js';
import { createDatabase, type Database } from './db/client.js';
import { migrate } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import { lockDataDir } from './db/data-dir-lock.js';
import { createMailer } from './services/identity/mail.js';
import { createMailTransport, startMailWorker } from './jobs/mail.js';
import { startJobQueue, type JobQueue } from './db/queue.js';
import { startIngestWorker } from './jobs/ingest.js';
import { createAppPubSub, type PubSubHandle } from './pubsub.js';
import { startAiBulkWorker } from './jobs/ai-bulk.js';
import { startDeadlineWorker } from './jobs/reminders.js';
import { startRecurrenceWorker } from './jobs/recurrence.js';
import { startDashboardFiguresWorker } from './jobs/dashboard-figures.js';
import { startAccessWorkers } from './jobs/access.js';
import { startAuditChainWorker } from './jobs/audit-chain.js';
import { startEvidenceWorkers } from './jobs/evidence.js';
import { ensureFirstAdmin } from './services/identity/users.js';
import { warmDashboardFigures } from './services/kept/index.js';
import { buildServer, type BuiltServer } from './server.js';
import type { AppDeps } from './context.js';
import { createLogger } from './logger.js';
import { startMetricsServer } from './metrics-endpoint.js';
import { startTracing, type Tracing } from './tracing.js';
import { openObjectStore } from './db/storage/index.js';

export interface App {
  deps: AppDeps;
  server: BuiltServer;
  /** Set when this start created the first administrator with a generated password. */
  generatedAdminPassword?: string;
  /** Closes at once (tests). */
  close(): Promise<void>;
  /**
   * Stops gracefully within `timeoutMs`: /readyz answers 503, after `drainMs`
   * the listener closes while running requests finish, WebSockets are closed
   * with 1012 (Service Restart, which clients retry), running jobs finish or
   * are handed back to the queue, then pub/sub and the database close.
   */
  shutdown(opts: { drainMs: number; timeoutMs: number }): Promise<void>;
}

export interface AppOptions {
  inMemory?: boolean;
  db?: Database;
  /**
   * Called when only a new process can carry on: space came back after the disk of the
   * embedded database filled up (db/client.ts onSpaceBack). main.ts exits so that the
   * supervisor starts it again; without it, the instance stays up refusing writes.
   */
  onRestartNeeded?: (reason: string) => void;
}

export async function createApp(config: Config, opts: AppOptions = {}): Promise<App> {
  // One JSON log for the process: operational messages (migrations, mail, loads) are info-level.
  const logger = createLogger(config);
  const log = (msg: string) => logger.info(msg);
  const warn = (msg: string) => logger.warn(msg);
  // The embedded database on disk belongs to one process (backup and restore check the same lock).
  const releaseDataDir = !config.DATABASE_URL && !opts.inMemory && !opts.db ? lockDataDir(config.dataDir) : () => {};
  // Before the database client, so its queries are traced too (when configured).
  let tracing: Tracing | null;
  try {
    tracing = await startTracing(config);
  } catch (err) {
    releaseDataDir();
    throw err;
  }
  let db: Database;
  try {
    const onSpaceBack = () => {
      const reason = 'space is back in the data folder, which had filled up: the embedded database takes writes again only in a new process';
      logger.error(reason);
      opts.onRestartNeeded?.(reason);
    };
    db = opts.db ?? (await createDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, inMemory: opts.inMemory, onSpaceBack, warn }));
  } catch (err) {
    await tracing?.shutdown();
    releaseDataDir();
    throw err;
  }
  let ps: PubSubHandle | undefined;
  let jobs: JobQueue | undefined;
  let stopIngest = () => {};
  const transport = createMailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.dataDir, log });
  try {
    ps = await createAppPubSub(config.REDIS_URL, (msg) => logger.warn(msg));
    const pubsub = ps.pubsub;
    const started = await withStartupLock(db, async () => {
      const { applied, scripts } = await migrate(db.sql, {}, warn);
      if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
      if (scripts.length) log(`applied database function scripts: ${scripts.join(', ')}`);
      jobs = await startJobQueue(db, { databaseUrl: config.DATABASE_URL, warn });
      await startMailWorker(jobs, transport, { pollingIntervalSeconds: config.JOB_POLL_SECONDS });
      const storage = await openObjectStore(config);
      if (storage.kind === 's3') log(`stored files are kept in ${storage.location}`);
      const deps: AppDeps = {
        config,
        db,
        prisma: db.prisma,
        storage,
        mailer: createMailer(jobs),
        jobs,
        pubsub,
        log,
        logError: (msg: string) => logger.error(msg),
      };
      const ingest = await startIngestWorker(deps, { pollingIntervalSeconds: config.JOB_POLL_SECONDS, staleSeconds: config.UPLOAD_STALE_SECONDS });
      stopIngest = ingest.stop;
      await startAiBulkWorker(deps, { pollingIntervalSeconds: config.JOB_POLL_SECONDS });
      await startDeadlineWorker(deps, { pollingIntervalSeconds: config.JOB_POLL_SECONDS });
      await startRecurrenceWorker(deps, { pollingIntervalSeconds: config.JOB_POLL_SECONDS });
      await startDashboardFiguresWorker(deps, { pollingIntervalSeconds: config.JOB_POLL_SECONDS });
      await startAccessWorkers(deps, { pollingIntervalSeconds: config.JOB_POLL_SECONDS });
      await startAuditChainWorker(deps, { pollingIntervalSeconds: config.JOB_POLL_SECONDS });
      await startEvidenceWorkers(deps, { pollingIntervalSeconds: config.JOB_POLL_SECONDS });
      const first = await ensureFirstAdmin(deps, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
      return { deps, first };
    });
    const { deps, first } = started;
    // The figures an administrator's dashboard caches in this process per data version (counts
    // over every live row: seconds at 1M rows) are worked out now, in the background, so the
    // first dashboard after a start does not wait for them (an upload warms them the same way).
    const warming = warmDashboardFigures(deps.prisma).catch((err: Error) => log(`dashboard figures not worked out at start: ${err.message}`));
    const server = await buildServer(deps, { logger, tracing });
    const metrics = await startMetricsServer(config);
    const queue = jobs!;
    const pubsubHandle = ps;
    const closeRest = async (jobsTimeoutMs: number) => {
      await warming;
      await metrics?.close();
      stopIngest();
      await queue.stop(jobsTimeoutMs);
      transport.close();
      await pubsubHandle.close();
      await db.close();
      await tracing?.shutdown();
      releaseDataDir();
    };
    return {
      deps,
      server,
      generatedAdminPassword: first.generatedPassword,
      async close() {
        await server.close();
        await closeRest(5000);
      },
      async shutdown({ drainMs, timeoutMs }) {
        const deadline = Date.now() + timeoutMs;
        server.drain();
        if (drainMs > 0) await new Promise((r) => setTimeout(r, Math.min(drainMs, timeoutMs / 2)));
        // Requests and jobs share what is left, keeping a second for pub/sub and the database.
        const left = () => Math.max(0, deadline - Date.now() - 1000);
        await server.close({ requestsTimeoutMs: left() });
        await closeRest(left());
      },
    };
  } catch (err) {
    stopIngest();
    await jobs?.stop(0).catch(() => {});
    transport.close();
    await ps?.close().catch(() => {});
    await db.close().catch(() => {});
    await tracing?.shutdown();
    releaseDataDir();
    throw err;
  }
}
