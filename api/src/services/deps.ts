// The long-lived things the app is built from (app.ts makes them once), as the
// services receive them. Defined here, below the request context, so that a
// service never imports the context that adapters build.
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { JobQueue } from '../db/queue.js';
import type { ObjectStore } from '../db/storage/index.js';
import type { PubSub } from '../pubsub.js';
import type { Mailer } from './identity/mail.js';

export interface AppDeps {
  config: Config;
  db: Database;
  prisma: PrismaClient;
  /** Where the files every instance reads are kept (stored uploads, extracts, evidence bundles): DATA_DIR or STORAGE_URL. */
  storage: ObjectStore;
  mailer: Mailer;
  jobs: JobQueue;
  pubsub: PubSub;
  log: (msg: string) => void;
  /** A fault of ours (an unexpected error answered 500): logged at error level, whatever LOG_LEVEL hides. */
  logError: (msg: string) => void;
}

/** What a service that tells people something needs (an in-app notification, published, and an e-mail with the sign-in link): the deadline reminders, the new-conflict notices. */
export type MessagingDeps = Pick<AppDeps, 'prisma' | 'pubsub' | 'mailer' | 'config'>;
