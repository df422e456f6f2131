// Creates everything the server runs on (database, migrations, mail, pub/sub,
// the first administrator) and the server itself. Used by main.ts and tests.
import type { Config } from './config.js';
import { createDatabase, type Database } from './db/client.js';
import { migrate } from './db/migrate.js';
import { createMailer } from './services/mail.js';
import { createMailTransport, startMailWorker } from './jobs/mail.js';
import { startJobQueue } from './db/queue.js';
import { startIngestWorker } from './jobs/ingest.js';
import { createAppPubSub } from './pubsub.js';
import { ensureFirstAdmin } from './services/users.js';
import { buildServer, type BuiltServer } from './server.js';
import type { AppDeps } from './context.js';

export interface App {
  deps: AppDeps;
  server: BuiltServer;
  /** Set when this start created the first administrator with a generated password. */
  generatedAdminPassword?: string;
  close(): Promise<void>;
}

export async function createApp(config: Config, opts: { inMemory?: boolean; db?: Database } = {}): Promise<App> {
  // Operational messages (migrations, mail, loads) are info-level.
  const log = (msg: string) => {
    if (['info', 'debug', 'trace'].includes(config.LOG_LEVEL)) console.log(`[grc] ${msg}`);
  };
  const db = opts.db ?? (await createDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, inMemory: opts.inMemory }));
  try {
    const { applied } = await migrate(db.sql);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    const ps = await createAppPubSub(config.REDIS_URL);
    const jobs = await startJobQueue(db, { databaseUrl: config.DATABASE_URL });
    const transport = createMailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.dataDir, log });
    await startMailWorker(jobs, transport, { pollingIntervalSeconds: config.JOB_POLL_SECONDS });
    const mailer = createMailer(jobs);
    const deps: AppDeps = {
      config,
      db,
      prisma: db.prisma,
      mailer,
      jobs,
      pubsub: ps.pubsub,
      log,
    };
    const ingest = await startIngestWorker(deps, { pollingIntervalSeconds: config.JOB_POLL_SECONDS, staleSeconds: config.UPLOAD_STALE_SECONDS });
    const first = await ensureFirstAdmin(deps, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
    const server = await buildServer(deps);
    return {
      deps,
      server,
      generatedAdminPassword: first.generatedPassword,
      async close() {
        await server.close();
        ingest.stop();
        await jobs.stop();
        transport.close();
        await ps.close();
        await db.close();
      },
    };
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
}
