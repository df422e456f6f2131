// A mutation either commits and answers success, or answers an error and
// writes nothing, whatever the client selects. Pothos asks Prisma for an empty
// `select` when the client wants no field of the record (only `__typename`),
// which Prisma refuses: the write had committed and the client got an internal
// error, so a client that retries wrote twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
});
afterAll(async () => {
  await server?.close();
});

const prisma = () => server.app.deps.prisma;

describe('a selection of only __typename', () => {
  it('createReviewPeriod answers success and writes once', async () => {
    const before = await prisma().reviewPeriod.count();
    const r = await admin.gql(`mutation { createReviewPeriod(input: { name: "Typename only" }) { __typename } }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.createReviewPeriod.__typename).toBe('MutationCreateReviewPeriodSuccess');
    expect(await prisma().reviewPeriod.count()).toBe(before + 1);
  });

  it('closeReviewPeriod with data { __typename } answers success and closes it', async () => {
    const active = await prisma().reviewPeriod.findFirstOrThrow({ where: { status: 'active' } });
    const id = Buffer.from(`ReviewPeriod:${active.id}`).toString('base64');
    const r = await admin.gql(`mutation($id: ID!) { closeReviewPeriod(id: $id) { ... on MutationCloseReviewPeriodSuccess { data { __typename } } } }`, { id });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.closeReviewPeriod.data.__typename).toBe('ReviewPeriod');
    expect((await prisma().reviewPeriod.findUniqueOrThrow({ where: { id: active.id } })).status).toBe('closed');
  });

  it('createUser and sendNotification answer success and write once', async () => {
    const users = await prisma().user.count();
    const u = await admin.gql(`mutation { createUser(input: { email: "typename@example.com", firstName: "T", role: REVIEWER }) { __typename } }`);
    expect(u.body.errors).toBeUndefined();
    expect(await prisma().user.count()).toBe(users + 1);
    const notes = await prisma().notification.count();
    const n = await admin.gql(`mutation { sendNotification(input: { title: "T", message: "M", targetType: ALL, type: GENERAL }) { __typename } }`);
    expect(n.body.errors).toBeUndefined();
    expect(await prisma().notification.count()).toBe(notes + 1);
  });

  it('queries of records and connections answer too', async () => {
    const r = await admin.gql(
      `{ viewer { __typename } reviewPeriods(first: 5) { edges { node { __typename } } } users(first: 5) { edges { node { __typename } } } }`,
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.viewer.__typename).toBe('User');
    expect(r.body.data.reviewPeriods.edges.length).toBeGreaterThan(0);
  });
});
