// User administration over REST and GraphQL (SPEC §2 User Management, §5, §6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/standins/smtp.js';

let server: TestServer;
let admin: Client;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url });
  admin = await adminClient(server);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('create user', () => {
  it('requires first name, a well-formed e-mail and a role, with clear messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'a@example.com', role: 'reviewer' }, 'First name is required'],
      [{ firstName: 'A', role: 'reviewer' }, 'Email is required'],
      [{ firstName: 'A', email: 'not-an-email', role: 'reviewer' }, 'Please enter a valid email address'],
      [{ firstName: 'A', email: 'a@example.com', role: 'superuser' }, 'Role must be admin or reviewer'],
    ];
    for (const [body, message] of cases) {
      const r = await admin.post('/api/users', body);
      expect(r.status, message).toBe(400);
      expect(r.body.message).toBe(message);
    }
  });

  it('refuses a duplicate e-mail, whatever its case', async () => {
    expect((await admin.post('/api/users', { email: 'dup@example.com', firstName: 'D', role: 'reviewer' })).status).toBe(201);
    const r = await admin.post('/api/users', { email: 'DUP@Example.com', firstName: 'D2', role: 'reviewer' });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('A user with the email dup@example.com already exists');
  });

  it('works over GraphQL too, with typed validation errors', async () => {
    const q = `mutation($input: CreateUserInput!) { createUser(input: $input) { __typename ... on MutationCreateUserSuccess { data { email role passwordResetRequired } } ... on ValidationError { message field } } }`;
    const ok = await admin.gql(q, { input: { email: 'gql.user@example.com', firstName: 'G', role: 'REVIEWER' } });
    expect(ok.body.data.createUser).toEqual({
      __typename: 'MutationCreateUserSuccess',
      data: { email: 'gql.user@example.com', role: 'REVIEWER', passwordResetRequired: true },
    });
    const bad = await admin.gql(q, { input: { email: 'nope', firstName: 'G', role: 'REVIEWER' } });
    expect(bad.body.data.createUser).toEqual({ __typename: 'ValidationError', message: 'Please enter a valid email address', field: 'email' });
  });
});

describe('edit, reset password, activate', () => {
  it('edits name and role; an administrator cannot change their own role', async () => {
    const { user, client } = await userClient(server, admin);
    const r = await admin.put(`/api/users/${user.id}`, { firstName: 'Renamed', lastName: 'Person', role: 'admin' });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ firstName: 'Renamed', lastName: 'Person', role: 'admin' });
    // The new role applies at once.
    expect((await client.get('/api/users')).status).toBe(200);
    const me = (await admin.get('/api/users')).body.find((u: any) => u.email === ADMIN_EMAIL);
    const self = await admin.put(`/api/users/${me.id}`, { role: 'reviewer' });
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('You cannot change your own role');
    expect((await admin.put(`/api/users/${user.id}`, { firstName: '' })).body.message).toBe('First name is required');
  });

  it('refuses a field it does not change (an e-mail) by name instead of answering 200', async () => {
    const { user } = await userClient(server, admin);
    for (const email of ['new.address@example.com', 'not an address']) {
      const r = await admin.put(`/api/users/${user.id}`, { firstName: 'Kept', email });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("email cannot be changed: a user's first name, last name and role can be edited");
    }
    const after = (await admin.get('/api/users')).body.find((u: any) => u.id === user.id);
    expect(after).toMatchObject({ email: user.email, firstName: user.firstName });
  });

  it('refuses to make a reviewer who holds work an administrator, and does it once the work is reassigned', async () => {
    const { user } = await userClient(server, admin);
    const { user: other } = await userClient(server, admin);
    const a = await admin.post('/api/assignment-criteria', { name: 'USER ID: U9', reviewerId: user.id, criteriaType: 'user_id', criteriaValue: 'U9' });
    expect(a.status).toBeLessThan(300);
    const r = await admin.put(`/api/users/${user.id}`, { role: 'admin' });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/holds review work: reassign it with Reassign Work before making them an administrator$/);
    expect((await admin.get('/api/users')).body.find((u: any) => u.id === user.id).role).toBe('reviewer');
    expect((await admin.post('/api/reassignments', { criteriaId: a.body.id, toReviewerId: other.id })).status).toBe(201);
    expect((await admin.put(`/api/users/${user.id}`, { role: 'admin' })).status).toBe(200);
  });

  it('resets a password: at least 6 characters, mailed to the user, signed out everywhere, must change it at next sign-in', async () => {
    const { user, client, email } = await userClient(server, admin);
    const short = await admin.put(`/api/users/${user.id}/reset-password`, { newPassword: '12345' });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Password must be at least 6 characters long');

    const r = await admin.put(`/api/users/${user.id}/reset-password`, { newPassword: 'Reset#Pass9' });
    expect(r.status).toBe(200);
    expect(r.body.user.passwordResetRequired).toBe(true);
    expect((await client.get('/api/notifications')).status).toBe(401);
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe('Your GRC Platform password was reset');
    expect(mail.body).toContain('Temporary password: Reset#Pass9');
    const again = new Client(server.url);
    const login = await again.login(email, 'Reset#Pass9');
    expect(login.status).toBe(200);
    expect(login.body.user.passwordResetRequired).toBe(true);
  });

  it("shows each user's real last sign-in", async () => {
    const { email } = await userClient(server, admin);
    const list = (await admin.get('/api/users')).body as any[];
    const u = list.find((x) => x.email === email);
    expect(new Date(u.lastLoginAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('activates a deactivated user, who can sign in again', async () => {
    const { user, email, password } = await userClient(server, admin);
    await admin.put(`/api/users/${user.id}/deactivate`);
    expect((await new Client(server.url).login(email, password)).status).toBe(403);
    const r = await admin.put(`/api/users/${user.id}/activate`);
    expect(r.body.user.isActive).toBe(true);
    expect((await new Client(server.url).login(email, password)).status).toBe(200);
  });

  it('filters the list by search, role and status, over REST and GraphQL', async () => {
    const { email, user } = await userClient(server, admin);
    await admin.put(`/api/users/${user.id}/deactivate`);
    const found = (await admin.get(`/api/users?search=${encodeURIComponent(email.slice(0, 12))}`)).body;
    expect(found.map((u: any) => u.email)).toEqual([email]);
    expect((await admin.get('/api/users?role=admin')).body.every((u: any) => u.role === 'admin')).toBe(true);
    expect((await admin.get('/api/users?active=false')).body.map((u: any) => u.email)).toContain(email);
    const g = await admin.gql(`{ users(first: 50, role: REVIEWER, active: false) { edges { node { email isActive role } } } }`);
    expect(g.body.data.users.edges.map((e: any) => e.node.email)).toContain(email);
    expect(g.body.data.users.edges.every((e: any) => !e.node.isActive && e.node.role === 'REVIEWER')).toBe(true);
  });

  it('answers 404 for an unknown user id', async () => {
    expect((await admin.put('/api/users/not-a-uuid/deactivate')).status).toBe(404);
    expect((await admin.put('/api/users/00000000-0000-4000-8000-000000000000/activate')).status).toBe(404);
  });
});
