// Mail goes out as a job, through a real SMTP server when SMTP_URL is set, to
// the outbox folder otherwise; a failed delivery is retried.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer } from '../helpers/server.js';
import { startSmtp } from '../helpers/standins/smtp.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

describe('mail', () => {
  it('a user created by an administrator receives a generated password by e-mail, signs in with it and must change it', async () => {
    const smtp = await startSmtp();
    cleanups.push(smtp.close);
    const server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'GRC Platform <grc@example.com>' });
    cleanups.push(server.close);
    const admin = await adminClient(server);
    const email = 'new.reviewer@example.com';
    const r = await admin.post('/api/users', { email, firstName: 'New', lastName: 'Reviewer', role: 'reviewer' });
    expect(r.status).toBe(201);

    const mail = await smtp.waitFor(email);
    expect(mail.from).toBe('grc@example.com');
    expect(mail.subject).toBe('Your GRC Platform account');
    const password = /Temporary password: (\S+)/.exec(mail.body)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9!@#$%^&*]{12}$/);
    // The password travels only by e-mail, never back to the administrator.
    expect(JSON.stringify(r.body)).not.toContain(password);

    const c = new Client(server.url);
    const login = await c.login(email, password!);
    expect(login.status).toBe(200);
    expect(login.body.user.passwordResetRequired).toBe(true);
  });

  it('without SMTP_URL, writes each message to DATA_DIR/outbox as an .eml file', async () => {
    const server = await startServer();
    cleanups.push(server.close);
    const admin = await adminClient(server);
    await admin.post('/api/users', { email: 'outbox.user@example.com', firstName: 'Out', role: 'reviewer' });
    const dir = path.join(server.dataDir, 'outbox');
    const deadline = Date.now() + 15_000;
    let files: string[] = [];
    while (Date.now() < deadline) {
      files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
      if (files.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(eml).toMatch(/^To: outbox\.user@example\.com$/m);
    expect(eml).toMatch(/Temporary password: \S{12}/);
  });

  it('retries a delivery that failed because the SMTP relay was down', async () => {
    const port = await freePort();
    const server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    cleanups.push(server.close);
    const admin = await adminClient(server);
    const email = 'retry.user@example.com';
    expect((await admin.post('/api/users', { email, firstName: 'Retry', role: 'reviewer' })).status).toBe(201);
    // The first attempt fails (nothing listens); then the relay comes up.
    await new Promise((r) => setTimeout(r, 1500));
    const smtp = await startSmtp(port);
    cleanups.push(() => smtp.close());
    const mail = await smtp.waitFor(email, 25_000);
    expect(mail.subject).toBe('Your GRC Platform account');
  }, 40_000);
});
