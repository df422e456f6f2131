// Notifications over REST and GraphQL, per-user read state, and live delivery
// to exactly the users a notification targets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { collect, listening, until, wsClient } from '../helpers/ws.js';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

describe('sending (administrators only)', () => {
  it('validates title, message, type and target with clear messages', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ message: 'm' }, 400, 'Title is required'],
      [{ title: '  ', message: 'm' }, 400, 'Title is required'],
      [{ title: 't' }, 400, 'Message is required'],
      [{ title: 't', message: 'm', type: 'spam' }, 400, 'Type must be general, info, warning or urgent'],
      [{ title: 't', message: 'm', targetType: 'specific' }, 400, 'Please choose the user to send to'],
      [{ title: 't', message: 'm', targetType: 'specific', targetUserId: '00000000-0000-4000-8000-000000000000' }, 400, 'The chosen user does not exist'],
    ];
    for (const [body, status, message] of cases) {
      const r = await admin.post('/api/notifications', body);
      expect(r.status, message).toBe(status);
      expect(r.body.message).toBe(message);
    }
  });

  it('refuses reviewers', async () => {
    const { client } = await userClient(server, admin);
    expect((await client.post('/api/notifications', { title: 't', message: 'm' })).status).toBe(403);
    expect((await client.get('/api/notifications?admin=true')).status).toBe(403);
  });
});

describe('per-user read state', () => {
  it("an 'all users' notification is read or unread per person; mark one and mark all", async () => {
    const a = await userClient(server, admin);
    const b = await userClient(server, admin);
    const sent = await admin.post('/api/notifications', { title: 'Q3 review opens', message: 'Please start.', type: 'info', targetType: 'all' });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ title: 'Q3 review opens', type: 'info', targetType: 'all', senderName: 'Administrator', isRead: false });

    const direct = await admin.post('/api/notifications', {
      title: 'Just for you',
      message: 'Your queue has 3 urgent items.',
      type: 'urgent',
      targetType: 'specific',
      targetUserId: a.user.id,
    });
    expect(direct.status).toBe(201);

    const la = await a.client.get('/api/notifications');
    expect(la.body.notifications.map((n: any) => n.title)).toEqual(['Just for you', 'Q3 review opens']);
    expect(la.body.unreadCount).toBe(2);
    const lb = await b.client.get('/api/notifications');
    expect(lb.body.notifications.map((n: any) => n.title)).toEqual(['Q3 review opens']);
    expect(lb.body.unreadCount).toBe(1);

    const read = await a.client.put(`/api/notifications/${sent.body.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body.isRead).toBe(true);
    expect(read.body.readAt).toBeTruthy();
    expect((await a.client.get('/api/notifications')).body.unreadCount).toBe(1);
    // B's copy is untouched.
    expect((await b.client.get('/api/notifications')).body.unreadCount).toBe(1);

    expect((await a.client.put('/api/notifications/read-all')).status).toBe(200);
    expect((await a.client.get('/api/notifications')).body.unreadCount).toBe(0);
    expect((await b.client.get('/api/notifications')).body.unreadCount).toBe(1);
  });

  it("a user cannot mark read (or learn of) another user's private notification", async () => {
    const a = await userClient(server, admin);
    const b = await userClient(server, admin);
    const n = await admin.post('/api/notifications', { title: 'Private', message: 'For A', targetType: 'specific', targetUserId: a.user.id });
    const r = await b.client.put(`/api/notifications/${n.body.id}/read`);
    expect(r.status).toBe(404);
    expect((await b.client.get('/api/notifications')).body.notifications.map((x: any) => x.title)).not.toContain('Private');
    const gid = Buffer.from(`Notification:${n.body.id}`).toString('base64');
    const g = await b.client.gql(`query($id: ID!) { node(id: $id) { ... on Notification { title } } }`, { id: gid });
    expect(g.body.data?.node ?? null).toBeNull();
  });

  it('the administrator list has every notification with total and unread counts; delete removes one', async () => {
    const before = await admin.get('/api/notifications?admin=true');
    expect(before.status).toBe(200);
    const n = await admin.post('/api/notifications', { title: 'To delete', message: 'x' });
    const after = await admin.get('/api/notifications?admin=true');
    expect(after.body.total).toBe(before.body.total + 1);
    expect(after.body.unreadCount).toBe(before.body.unreadCount + 1);
    expect(after.body.notifications[0]).toMatchObject({ title: 'To delete', readCount: 0 });

    // Unread counts only what is addressed to the administrator: marking all read reaches 0.
    await admin.put('/api/notifications/read-all');
    expect((await admin.get('/api/notifications?admin=true')).body.unreadCount).toBe(0);
    expect((await admin.gql('{ allNotificationCounts { unreadCount } }')).body.data.allNotificationCounts.unreadCount).toBe(0);

    const { client } = await userClient(server, admin);
    expect((await client.request('DELETE', `/api/notifications/${n.body.id}`)).status).toBe(403);
    const d = await admin.request('DELETE', `/api/notifications/${n.body.id}`);
    expect(d.status).toBe(200);
    expect((await admin.get('/api/notifications?admin=true')).body.total).toBe(before.body.total);
    expect((await admin.request('DELETE', `/api/notifications/${n.body.id}`)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('sends, lists with per-viewer read state, marks read and deletes', async () => {
    const a = await userClient(server, admin);
    const meId = (await a.client.gql('{ viewer { id } }')).body.data.viewer.id;
    const sent = await admin.gql(
      `mutation($input: SendNotificationInput!) { sendNotification(input: $input) { __typename ... on MutationSendNotificationSuccess { data { id title type targetType } } ... on Error { message } } }`,
      { input: { title: 'GraphQL hello', message: 'Hi', type: 'WARNING', targetType: 'SPECIFIC', targetUserId: meId } },
    );
    const node = sent.body.data.sendNotification.data;
    expect(node).toMatchObject({ title: 'GraphQL hello', type: 'WARNING', targetType: 'SPECIFIC' });

    const list = await a.client.gql('{ notificationCounts { total unreadCount } notifications(first: 10) { edges { node { id title isRead readAt } } } }');
    expect(list.body.data.notifications.edges[0].node).toMatchObject({ title: 'GraphQL hello', isRead: false, readAt: null });
    const unread = list.body.data.notificationCounts.unreadCount;

    const m = await a.client.gql(
      `mutation($id: ID!) { markNotificationRead(id: $id) { ... on MutationMarkNotificationReadSuccess { data { isRead readAt } } } }`,
      { id: node.id },
    );
    expect(m.body.data.markNotificationRead.data.isRead).toBe(true);
    expect((await a.client.gql('{ notificationCounts { unreadCount } }')).body.data.notificationCounts.unreadCount).toBe(unread - 1);

    const bad = await a.client.gql(`mutation($id: ID!) { deleteNotification(id: $id) { __typename } }`, { id: node.id });
    expect(bad.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const del = await admin.gql(`mutation($id: ID!) { deleteNotification(id: $id) { ... on MutationDeleteNotificationSuccess { data } } }`, { id: node.id });
    expect(del.body.data.deleteNotification.data).toBe(node.id);
  });
});

describe('live delivery (notificationAdded)', () => {
  // How fast delivery is, is measured by npm run bench:review (50 reviewers), not here.
  it('delivers to exactly the users a notification targets, as it is sent', async () => {
    const a = await userClient(server, admin);
    const b = await userClient(server, admin);
    const wa = wsClient(server.url, a.client.cookieHeader);
    const wb = wsClient(server.url, b.client.cookieHeader);
    const q = 'subscription { notificationAdded { title type isRead } }';
    const before = server.app.deps.pubsub.listening('notification:added');
    const ca = collect(wa, q);
    const cb = collect(wb, q);
    await listening(server, 'notification:added', before + 2);

    await admin.post('/api/notifications', { title: 'Only A', message: 'private', targetType: 'specific', targetUserId: a.user.id });
    await until(() => ca.items.length === 1, 10_000);
    expect(ca.items[0]).toEqual({ data: { notificationAdded: { title: 'Only A', type: 'GENERAL', isRead: false } } });

    await admin.post('/api/notifications', { title: 'Everyone', message: 'all', targetType: 'all' });
    await until(() => ca.items.length === 2 && cb.items.length === 1, 10_000);
    // B never saw A's private notification.
    expect(cb.items.map((i) => i.data.notificationAdded.title)).toEqual(['Everyone']);
    await wa.dispose();
    await wb.dispose();
  });

  it('serves many open browsers without a false memory-leak warning in the log', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const a = await userClient(server, admin);
    const before = server.app.deps.pubsub.listening('notification:added');
    const sockets = Array.from({ length: 12 }, () => wsClient(server.url, a.client.cookieHeader));
    const subs = sockets.map((ws) => collect(ws, 'subscription { notificationAdded { title } }'));
    await listening(server, 'notification:added', before + 12);
    await admin.post('/api/notifications', { title: 'To many tabs', message: 'x', targetType: 'specific', targetUserId: a.user.id });
    await until(() => subs.every((c) => c.items.length === 1), 10_000);
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
    await Promise.all(sockets.map((ws) => ws.dispose()));
  });

  it('stops delivering to a user whose account was deactivated', async () => {
    const a = await userClient(server, admin);
    const wa = wsClient(server.url, a.client.cookieHeader);
    const before = server.app.deps.pubsub.listening('notification:added');
    const ca = collect(wa, 'subscription { notificationAdded { title } }');
    await listening(server, 'notification:added', before + 1);
    await admin.put(`/api/users/${a.user.id}/deactivate`);
    await admin.post('/api/notifications', { title: 'After deactivation', message: 'x' });
    await new Promise((r) => setTimeout(r, 800));
    expect(ca.items).toEqual([]);
    await wa.dispose();
  });
});
