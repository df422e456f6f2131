// Outgoing mail. Until SMTP delivery lands (issue: users, notifications and
// mail), every message is written to DATA_DIR/outbox as an .eml file and
// logged, so nothing is silently dropped.
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

function headerSafe(v: string): string {
  return v.replace(/[\r\n]+/g, ' ');
}

export function createOutboxMailer(dataDir: string, from: string, log: (msg: string) => void): Mailer {
  const dir = path.join(dataDir, 'outbox');
  return {
    async send(m) {
      await fs.mkdir(dir, { recursive: true });
      const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}`;
      const eml = [
        `From: ${headerSafe(from)}`,
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
      const file = path.join(dir, `${id}.eml`);
      await fs.writeFile(file, eml, { mode: 0o600 });
      log(`mail to ${m.to} ("${m.subject}") written to ${file}`);
    },
  };
}
