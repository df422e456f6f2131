// Outgoing mail, one module for everything that sends it (new users, password
// resets, upload completion, reminders). Sending is a job: callers enqueue after
// their transaction commits; the worker delivers through SMTP when SMTP_URL is
// set, otherwise writes an .eml file to DATA_DIR/outbox and logs it, so nothing
// is silently dropped. A failed delivery is retried with backoff.
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import type { JobQueue } from '../jobs/queue.js';
import { JOBS } from '../jobs/queue.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Queues a message for delivery. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

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

export const MAIL_RETRY = { retryLimit: 5, retryDelay: 5, retryBackoff: true };

/** Registers the delivery worker and returns the mailer that enqueues. */
export async function startMail(queue: JobQueue, transport: MailTransport, opts: { pollingIntervalSeconds?: number } = {}): Promise<Mailer> {
  const { boss } = queue;
  await boss.createQueue(JOBS.sendMail);
  await boss.work<MailMessage>(
    JOBS.sendMail,
    { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2, batchSize: 1 },
    async ([job]) => {
      await transport.deliver(job!.data);
    },
  );
  return {
    async send(message) {
      await boss.send(JOBS.sendMail, message, { ...MAIL_RETRY, retentionDays: 7 });
    },
  };
}
