// Outgoing mail, one module for everything that sends it (new users, password
// resets, upload completion, reminders). Sending is a job: callers enqueue after
// their transaction commits; the worker (jobs/mail.ts) delivers through SMTP
// when SMTP_URL is set, otherwise writes an .eml file to DATA_DIR/outbox and
// logs it, so nothing is silently dropped. A failed delivery is retried with
// backoff.
import type { JobQueue } from '../../db/queue.js';
import { JOBS } from '../../db/queue.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Queues a message for delivery. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export const MAIL_RETRY = { retryLimit: 5, retryDelay: 5, retryBackoff: true };

/** The mailer that enqueues (the queue is created by the worker, jobs/mail.ts). */
export function createMailer(queue: JobQueue): Mailer {
  const { boss } = queue;
  return {
    async send(message) {
      await boss.send(JOBS.sendMail, message, { ...MAIL_RETRY, retentionDays: 7 });
    },
  };
}
