// Bad input that used to reach an internal error (a 500, or GraphQL's masked
// 'Unexpected error.'): a risk row id past PostgreSQL's bigint, a multipart body
// that cannot be parsed (REST and GraphQL), GraphQL GET parameters that are not
// JSON, and dates outside four-digit years. Each is now a 4xx naming the problem,
// and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { createCaller } from '../../src/services/caller.js';
import { saveDecisions } from '../../src/services/review/decisions.js';
import { listReassignments, reassign } from '../../src/services/review/reassignments.js';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  await seedRows(server.app.deps.prisma, [{ userId: 'U1', accessRiskId: 'R1' }]);
  expect((await admin.post('/api/review-periods', { name: 'Now' })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function send(method: string, path: string, body: BodyInit | undefined, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, { method, body, headers: { cookie: admin.cookieHeader, ...headers } });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: json };
}

const decisions = () => server.app.deps.prisma.decision.count();

describe('risk row ids past the database bigint', () => {
  it('are a 400 naming riskDefinitionId in single and batch decisions and approval comments', async () => {
    for (const id of ['99999999999999999999', 1e20, 2 ** 63]) {
      const one = await admin.post('/api/reviews/decision', { riskDefinitionId: id, decision: 'retain' });
      expect(one.status, String(id)).toBe(400);
      expect(one.body.message).toBe('riskDefinitionId must be the id of a risk row');
      const batch = await admin.post('/api/reviews/decisions', { decisions: [{ riskDefinitionId: id, decision: 'remove' }] });
      expect(batch.status, String(id)).toBe(400);
      expect(batch.body.message).toBe('Decision 1: riskDefinitionId must be the id of a risk row');
    }
    const approve = await admin.put('/api/submissions/00000000-0000-0000-0000-000000000000/approve', {
      itemComments: [{ riskDefinitionId: '99999999999999999999', comment: 'c' }],
    });
    expect(approve.status).toBe(400);
    expect(approve.body.message).toBe('riskDefinitionId must be the id of a risk row');
    expect(await decisions()).toBe(0);
  });

  it('are refused by the services under their own names (riskRowId, riskRowIds), and by GraphQL under the same names', async () => {
    const user = await server.app.deps.prisma.user.findFirstOrThrow({ where: { role: 'admin' } });
    const caller = createCaller(server.app.deps, { user });
    await expect(saveDecisions(caller, [{ riskRowId: '99999999999999999999', decision: 'retain' }])).rejects.toThrow(
      'Decision 1: riskRowId must be the id of a risk row',
    );
    await expect(saveDecisions(caller, [{ decision: 'retain' }])).rejects.toThrow('Each decision needs a riskRowId, or a userId and a compositeBusinessRole');
    await expect(reassign(caller, { riskRowIds: ['x1'], toReviewerId: user.id })).rejects.toThrow("riskRowIds must be risk ids (numbers): 'x1' is not");
    await expect(listReassignments(caller, { riskRowId: 'x1' })).rejects.toThrow('riskRowId must be a number');

    const sub = Buffer.from('Submission:00000000-0000-0000-0000-000000000000').toString('base64');
    const g = await admin.gql(
      `mutation($id: ID!, $items: [ItemCommentInput!]) { approveSubmission(id: $id, itemComments: $items) { __typename ... on ValidationError { message field } } }`,
      { id: sub, items: [{ riskRowId: '99999999999999999999', comment: 'c' }] },
    );
    expect(g.body.data.approveSubmission).toEqual({
      __typename: 'ValidationError',
      message: 'riskRowId must be the id of a risk row',
      field: 'itemComments.0.riskRowId',
    });
    expect(await decisions()).toBe(0);
  });
});

describe('multipart bodies that cannot be parsed', () => {
  const TRUNCATED = '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nUser ID,Access Risk ID\r\nU1,R1';

  it('REST upload and preview: a 400 saying the body is not readable multipart', async () => {
    for (const path of ['/api/upload', '/api/upload/preview']) {
      for (const [label, ct, body] of [
        ['cut off', 'multipart/form-data; boundary=XX', TRUNCATED],
        ['no boundary', 'multipart/form-data', 'junk'],
      ]) {
        const r = await send('POST', path, body, { 'content-type': ct! });
        expect(r.status, `${path} ${label}`).toBe(400);
        expect(r.body.message, `${path} ${label}`).toMatch(/^The request body is not readable multipart\/form-data: /);
      }
    }
    expect(await server.app.deps.prisma.upload.count()).toBe(0);
  });

  it('GraphQL: a form without operations and map, and a map naming a file not sent', async () => {
    const empty = await send('POST', '/graphql', '--XX--\r\n', { 'content-type': 'multipart/form-data; boundary=XX', 'x-graphql-yoga-csrf': '1' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].message).toBe('A GraphQL multipart request needs the fields operations and map (GraphQL multipart request specification)');

    const form = new FormData();
    form.append('operations', JSON.stringify({ query: 'mutation($f: Upload!) { uploadFile(file: $f) { __typename } }', variables: { f: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.f'] }));
    form.append('0', 'a text field, not a file');
    const missing = await send('POST', '/graphql', form, { 'x-graphql-yoga-csrf': '1' });
    expect(missing.body.errors[0]).toMatchObject({ message: 'File missing in the request.', extensions: { code: 'BAD_USER_INPUT' } });
    expect(await server.app.deps.prisma.upload.count()).toBe(0);
  });
});

describe('GraphQL GET parameters that are not JSON', () => {
  it('are a 400 BAD_REQUEST naming them', async () => {
    const q = encodeURIComponent('{ viewer { id } }');
    for (const param of ['variables', 'extensions']) {
      const r = await send('GET', `/graphql?query=${q}&${param}={bad`, undefined);
      expect(r.status, param).toBe(400);
      expect(r.body.errors[0].message).toMatch(/^The request's variables or extensions are not valid JSON: /);
      expect(r.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    }
  });
});

describe('dates outside four-digit years', () => {
  it('are refused (REST and GraphQL), so no stored date breaks a later read', async () => {
    for (const d of ['275760-09-13', '+010000-01-01', '0000-01-01', 8.64e15]) {
      const r = await admin.post('/api/reviews/decision', {
        riskDefinitionId: 1,
        decision: 'retain_mitigated',
        mitigationControl: 'Dual control',
        mitigationExpiresAt: d,
        comments: 'Mitigated',
      });
      expect(r.status, String(d)).toBe(400);
      expect(r.body.message).toBe('Mitigation expiry is not a valid date (the year must be from 1000 to 9999)');
    }
    expect(await decisions()).toBe(0);
    const list = await admin.get('/api/risks');
    expect(list.status).toBe(200);

    const g = await admin.gql(`mutation($i: CreateReviewPeriodInput!) { createReviewPeriod(input: $i) { __typename } }`, {
      i: { name: 'Far', endDate: '0000-01-01T00:00:00Z' },
    });
    expect(g.body.errors[0].message).toMatch(/Not a valid date: 0000-01-01T00:00:00Z \(the year must be from 1000 to 9999\)/);
  });
});
