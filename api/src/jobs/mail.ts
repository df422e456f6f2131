// The mail worker: delivers queued messages (services/identity/mail.ts enqueues them)
// through SMTP when SMTP_URL is set, otherwise as .eml files in
// DATA_DIR/outbox, logged. A failed delivery is retried with backoff.
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import type { JobQueue } from '../db/queue.js';
import { JOBS } from '../db/queue.js';
import type { MailMessage } from '../services/identity/mail.js';
import { timedJob } from '../core/metrics.js';

/** Delivers a message now (used by the job worker). */
export interface MailTransport {
  kind: 'smtp' | 'outbox';
  deliver(message: MailMessage): Promise<void>;
  close(): void;
}

function headerSafe(v: string): string {
  return v.replace(/[\r\n]+/g, ' ');
}

export function createMailTransport(opts: { smtpUrl?: string; from: string; dataDir: string; log: (m: string) => void }): MailTransport {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      kind: 'smtp',
      async deliver(m) {
        await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text });
        opts.log(`mail to ${m.to} ("${m.subject}") sent over SMTP`);
      },
      close: () => transport.close(),
    };
  }
  const dir = path.join(opts.dataDir, 'outbox');
  return {
    kind: 'outbox',
    async deliver(m) {
      await fs.mkdir(dir, { recursive: true });
      const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}`;
      const eml = [
        `From: ${headerSafe(opts.from)}`,
        `To: ${headerSafe(m.to)}`,
        `Subject: ${headerSafe(m.subject)}`,
        `Date: ${new Date().toUTCString()}`,
        `Message-ID: <${id}@grc-platform>`,
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: 8bit',
        '',
        m.text,
        '',
      ].join('\r\n');
      // Written under a temporary name and renamed, so whoever watches the
      // outbox (an operator's relay script, a test) never reads half a message.
      const file = path.join(dir, `${id}.eml`);
      await fs.writeFile(`${file}.part`, eml, { mode: 0o600 });
      await fs.rename(`${file}.part`, file);
      opts.log(`mail to ${m.to} ("${m.subject}") written to ${file}`);
    },
    close: () => {},
  };
}

/** Creates the mail queue and registers the delivery worker. */
export async function startMailWorker(queue: JobQueue, transport: MailTransport, opts: { pollingIntervalSeconds?: number } = {}): Promise<void> {
  const { boss } = queue;
  await boss.createQueue(JOBS.sendMail);
  await boss.work<MailMessage>(JOBS.sendMail, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2, batchSize: 1 }, async ([job]) => {
    await timedJob(JOBS.sendMail, () => transport.deliver(job!.data));
  });
}
