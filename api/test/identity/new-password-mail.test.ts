// The e-mail with a new password carries the sign-in link
// (PUBLIC_URL + /internal-login), for a new user and for a password reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/standins/smtp.js';

let smtp: TestSmtp;
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://grc.example.com/' });
  admin = await adminClient(server);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('the e-mail with a new password', () => {
  it('for a new user carries the sign-in link', async () => {
    const email = 'daily.link@example.com';
    const r = await admin.post('/api/users', { email, firstName: 'Daily', lastName: 'Link', role: 'reviewer' });
    expect(r.status).toBe(201);
    const mail = await smtp.waitFor(email);
    expect(mail.body).toContain('Temporary password: ');
    expect(mail.body).toContain('Sign in at https://grc.example.com/internal-login');
  });

  it('after a password reset carries the sign-in link', async () => {
    const email = 'daily.reset@example.com';
    const r = await admin.post('/api/users', { email, firstName: 'Daily', lastName: 'Reset', role: 'reviewer', password: 'Given#Pass1' });
    expect(r.status).toBe(201);
    const id = r.body.user?.id ?? r.body.id;
    const reset = await admin.put(`/api/users/${id}/reset-password`, { newPassword: 'Reset#Pass1' });
    expect(reset.status).toBe(200);
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe('Your GRC Platform password was reset');
    expect(mail.body).toContain('Temporary password: Reset#Pass1');
    expect(mail.body).toContain('Sign in at https://grc.example.com/internal-login');
  });
});
