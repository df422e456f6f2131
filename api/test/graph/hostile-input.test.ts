// Hostile input: every state-changing REST route (read
// from /api/openapi.json, which lists the routes as registered) and every GraphQL
// mutation (read from the schema) gets malformed JSON, wrong types, 1 MB strings,
// NUL bytes, lone surrogates, SQL and script payloads, unknown fields and enormous
// numbers. None may answer a 500 or an internal GraphQL error, show a stack trace,
// or write anything when it refuses.
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, type GraphQLInputType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: Client;

const TABLES = ['users', 'api_tokens', 'review_periods', 'uploads', 'decisions', 'submissions', 'assignment_criteria', 'notifications'];

/** Every table's row count, in one round trip (thousands of requests are checked before and after). */
const COUNTS_SQL = `SELECT ${TABLES.map((t) => `(SELECT count(*) FROM ${t}) AS ${t}`).join(', ')}`;
async function counts(): Promise<Record<string, number>> {
  const [r] = await server.app.deps.db.sql.query<Record<string, number | string>>(COUNTS_SQL);
  return Object.fromEntries(TABLES.map((t) => [t, Number(r![t])]));
}

const BIG = 'x'.repeat(1024 * 1024 - 200);
/** Values that must always be refused, wherever a string goes. */
const REFUSED_STRINGS: [string, string][] = [
  ['NUL byte', 'a\u0000b'],
  ['lone surrogate', 'a\ud800b'],
  ['1 MB string', BIG],
];
/** Values a text field may legitimately accept (stored verbatim) or refuse. */
const TEXT_STRINGS: [string, string][] = [
  ['SQL payload', "'); DROP TABLE users; --"],
  ['script payload', '<script>alert(1)</script>'],
];
const WRONG_TYPES: [string, unknown][] = [
  ['number', 12345],
  ['object', { $ne: null }],
  ['array', ['a', 'b']],
  ['boolean', true],
];
const NUMBER_FIELDS = ['page', 'limit', 'batchSize', 'expiresInDays'];
const HOSTILE_NUMBERS: [string, unknown][] = [
  ['1e308', 1e308],
  ['2**63', 2 ** 63],
  ['-1', -1],
  ['NaN as string', 'NaN'],
  ['string', 'many'],
];
const STRING_FIELDS = [
  'email',
  'password',
  'currentPassword',
  'newPassword',
  'firstName',
  'lastName',
  'role',
  'name',
  'title',
  'message',
  'description',
  'comment',
  'comments',
  'criteriaType',
  'criteriaValue',
  'reviewerId',
  'userId',
  'targetUserId',
  'scope',
  'decision',
  'status',
  'compositeBusinessRole',
  'riskDefinitionId',
  'mitigationControl',
  'startDate',
  'endDate',
  'type',
];

interface Outcome {
  label: string;
  status: number;
  body: unknown;
}
const failures: string[] = [];
let sent = 0;

/** HOSTILE_REPORT=<file> lists every failure (vitest shortens long arrays). */
function report() {
  if (process.env.HOSTILE_REPORT) fs.appendFileSync(process.env.HOSTILE_REPORT, failures.map((f) => `${f}\n`).join(''));
}

function hasStack(body: unknown): boolean {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  return /\bat [\w.<>]+ \(|node:internal|\/src\/[\w/-]+\.ts|\.js:\d+:\d+/.test(text);
}

function check(o: Outcome, before: Record<string, number>, after: Record<string, number>, mayWrite: boolean) {
  sent++;
  if (o.status >= 500) failures.push(`${o.label}: HTTP ${o.status} ${JSON.stringify(o.body).slice(0, 200)}`);
  if (hasStack(o.body)) failures.push(`${o.label}: stack trace in the response`);
  const gqlErrors = (o.body as { errors?: { message: string; extensions?: { code?: string } }[] } | undefined)?.errors ?? [];
  for (const e of gqlErrors) {
    if (e.extensions?.code === 'INTERNAL_SERVER_ERROR' || e.message === 'Unexpected error.') {
      failures.push(`${o.label}: internal GraphQL error ${e.message}`);
    }
  }
  const wrote = TABLES.filter((t) => before[t] !== after[t]);
  const refused = o.status >= 400 || gqlErrors.length > 0 || /Error$/.test(String(firstTypename(o.body)));
  if (wrote.length && (refused || !mayWrite)) failures.push(`${o.label}: ${refused ? 'refused' : 'answered'} (${o.status}) and wrote ${wrote.join(', ')}`);
  if (!mayWrite && !refused) failures.push(`${o.label}: accepted (${o.status}) ${JSON.stringify(o.body).slice(0, 200)}`);
}

function firstTypename(body: unknown): unknown {
  const data = (body as { data?: Record<string, { __typename?: string } | null> } | undefined)?.data;
  if (!data) return undefined;
  return Object.values(data)[0]?.__typename;
}

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

async function raw(client: Client | null, method: string, url: string, body: string | undefined, contentType = 'application/json') {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = contentType;
  if (client?.cookies.size) headers.cookie = client.cookieHeader;
  let res: globalThis.Response;
  let text: string;
  try {
    res = await fetch(server.url + url, { method, headers, body, redirect: 'manual' });
    text = await res.text();
  } catch (err) {
    // A response cut off half way (a streamed export that failed) is a server error too.
    return { status: 599, body: `connection dropped: ${(err as Error).message}` };
  }
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

/** Routes whose body, when ignored, make a 2xx answer legitimate (they read nothing from it). */
const BODY_IGNORED = new Set([
  'put /api/notifications/read-all',
  'put /api/review-periods/{id}/activate',
  'put /api/review-periods/{id}/close',
  'put /api/review-periods/{id}/reopen',
  // No body: checks the stored key / purges (here an empty database, so nothing of TABLES changes).
  'post /api/admin/validate-openai-key',
  'delete /api/admin/purge-risk-data',
  'post /api/ai/bulk-categorize',
]);

describe('hostile input to REST', () => {
  it('every state-changing route refuses hostile bodies with a 4xx naming the problem, never a 500, and writes nothing', async () => {
    const doc = (await admin.get('/api/openapi.json')).body;
    const routes: { method: string; path: string; access: string }[] = [];
    for (const [p, ops] of Object.entries<Record<string, { description: string }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (method === 'get') continue;
        routes.push({ method, path: p, access: op.description });
      }
    }
    expect(routes.length).toBeGreaterThan(15);
    // The administrator's own session must survive: sign-out is sent anonymously only.
    const anonymousOnly = new Set(['post /api/logout', 'post /api/internal-login']);
    const anonymous = new Client(server.url);
    for (const r of routes) {
      const key = `${r.method} ${r.path}`;
      const client = anonymousOnly.has(key) ? null : admin;
      const url = r.path.replace(/\{[^}]+\}/g, '999999');
      const bodies: [string, string, boolean][] = [];
      bodies.push(['malformed JSON', '{"email": "a@example.com", ', false]);
      bodies.push(['JSON array', '[1,2,3]', false]);
      bodies.push(['JSON string', '"hello"', false]);
      const every = (v: unknown) => JSON.stringify(Object.fromEntries(STRING_FIELDS.map((f) => [f, v])));
      for (const [name, v] of REFUSED_STRINGS) bodies.push([`${name} in every field`, every(v), false]);
      for (const [name, v] of TEXT_STRINGS) bodies.push([`${name} in every field`, every(v), true]);
      for (const [name, v] of WRONG_TYPES) bodies.push([`${name} in every string field`, every(v), false]);
      for (const [name, v] of HOSTILE_NUMBERS) {
        bodies.push([`${name} in number fields`, JSON.stringify(Object.fromEntries(NUMBER_FIELDS.map((f) => [f, v]))), false]);
      }
      bodies.push(['unknown fields only', JSON.stringify({ isAdmin: true, __proto__x: 1, constructor: 'x' }), false]);
      for (const [label, body, textOk] of bodies) {
        const before = await counts();
        const res = await raw(client, r.method.toUpperCase(), url, body);
        const after = await counts();
        // A route that reads no body (or an anonymous sign-out) may answer 2xx to anything without writing rows.
        const mayWrite = textOk || BODY_IGNORED.has(key) || key === 'post /api/logout';
        check({ label: `${key} ${label}`, ...res }, before, after, mayWrite);
        if (BODY_IGNORED.has(key) || key === 'post /api/logout') {
          expect(
            TABLES.every((t) => before[t] === after[t]),
            `${key} ${label} wrote`,
          ).toBe(true);
        }
      }
      // The wrong content type.
      const before = await counts();
      const res = await raw(client, r.method.toUpperCase(), url, 'email=a', 'text/plain');
      check({ label: `${key} text/plain body`, ...res }, before, await counts(), BODY_IGNORED.has(key) || key === 'post /api/logout');
    }
    // Hostile path parameters.
    for (const r of routes.filter((x) => x.path.includes('{'))) {
      for (const id of ['%00', '%ED%A0%80', '1e308', "'%3B--", 'x'.repeat(5000)]) {
        const before = await counts();
        const res = await raw(admin, r.method.toUpperCase(), r.path.replace(/\{[^}]+\}/g, id), '{}');
        check({ label: `${r.method} ${r.path} id=${id.slice(0, 20)}`, ...res }, before, await counts(), false);
      }
    }
    // Sign-in and password change anonymously, with hostile values in each field.
    for (const [url, method, fields] of [
      ['/api/internal-login', 'POST', ['email', 'password']],
      ['/api/internal/change-password', 'PUT', ['currentPassword', 'newPassword', 'userId']],
    ] as const) {
      for (const f of fields) {
        for (const [name, v] of [...REFUSED_STRINGS, ...WRONG_TYPES, ...TEXT_STRINGS]) {
          const body = { email: 'admin@example.com', password: 'x', currentPassword: 'x', newPassword: 'Another#Pass1', [f]: v };
          const before = await counts();
          const res = await anonymous.request(method, url, body);
          check({ label: `anonymous ${method} ${url} ${f}=${name}`, ...res }, before, await counts(), false);
        }
      }
    }
    report();
    expect(failures).toEqual([]);
  }, 600_000);

  it('one hostile field at a time in an otherwise valid body: wrong types, over-long text and bad numbers answer a 4xx naming the field and write nothing', async () => {
    failures.length = 0;
    const reviewer = (await admin.post('/api/users', { email: 'hostile.reviewer@example.com', firstName: 'R', role: 'reviewer' })).body.user;
    let n = 0;
    const bases: [string, string, () => Record<string, unknown>][] = [
      ['POST', '/api/users', () => ({ email: `hostile${++n}@example.com`, firstName: 'A', lastName: 'B', role: 'reviewer', password: 'Start#123' })],
      ['PUT', `/api/users/${reviewer.id}`, () => ({ firstName: 'A', lastName: 'B', role: 'reviewer' })],
      ['PUT', `/api/users/${reviewer.id}/reset-password`, () => ({ newPassword: 'Reset#Pass9' })],
      ['POST', '/api/notifications', () => ({ title: 'T', message: 'M', type: 'info', targetType: 'specific', targetUserId: reviewer.id })],
      ['POST', '/api/review-periods', () => ({ name: 'P', description: 'D', startDate: '2026-01-01', endDate: '2026-12-31' })],
      ['POST', '/api/assignment-criteria', () => ({ name: 'N', reviewerId: reviewer.id, criteriaType: 'system', criteriaValue: 'SYS' })],
      ['POST', '/api/tokens', () => ({ name: 'tok', expiresInDays: 30, scope: 'read' })],
      ['PUT', '/api/tokens/settings', () => ({ usersMayCreateTokens: true })],
      ['POST', '/api/reviews/decision', () => ({ riskDefinitionId: 1, decision: 'approved', comments: 'c' })],
    ];
    const LONG: [string, unknown] = ['9,999 characters (under the edge backstop, over any field limit)', 'x'.repeat(9999)];
    for (const [method, url, base] of bases) {
      for (const field of Object.keys(base())) {
        const baseValue = base()[field];
        const values = typeof baseValue === 'number' ? [...HOSTILE_NUMBERS, ...WRONG_TYPES.slice(1)] : [...WRONG_TYPES, LONG];
        for (const [name, v] of values) {
          if (typeof v === typeof baseValue && !Array.isArray(v) && typeof v !== 'string') continue; // its own type
          if (/Date$/.test(field) && typeof v === 'number') continue; // a timestamp is a date
          const body = { ...base(), [field]: v };
          const before = await counts();
          const res = await admin.request(method, url, body);
          check({ label: `${method} ${url.replace(reviewer.id, ':id')} ${field}=${name}`, ...res }, before, await counts(), false);
        }
      }
    }
    report();
    expect(failures).toEqual([]);
  }, 600_000);

  it('GET routes refuse hostile query strings with a 4xx, never a 500', async () => {
    failures.length = 0;
    const doc = (await admin.get('/api/openapi.json')).body;
    const paths = Object.entries<Record<string, unknown>>(doc.paths)
      .filter(([p, ops]) => 'get' in ops && !p.includes('{') && !p.startsWith('/api/login') && !p.includes('callback'))
      .map(([p]) => p);
    const queries = [
      'page=1e308',
      'page=9223372036854775808',
      'page=-1',
      'page=NaN',
      'limit=-1',
      'limit=1e308',
      'limit=abc',
      'search=a%00b',
      'search=%ED%A0%80',
      `search=${'x'.repeat(20000)}`,
      'status=%00',
      'page[a]=1',
      'page=1&page=2',
      "search='%29%3B%20DROP%20TABLE%20users%3B%20--",
      'all=%00',
      'admin=%00',
      'role=%00',
      'active=%00',
    ];
    for (const p of paths) {
      for (const q of queries) {
        const before = await counts();
        const res = await raw(admin, 'GET', `${p}?${q}`, undefined);
        const after = await counts();
        sent++;
        if (res.status >= 500) failures.push(`GET ${p}?${q.slice(0, 40)}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        if (hasStack(res.body)) failures.push(`GET ${p}?${q.slice(0, 40)}: stack trace`);
        if (TABLES.some((t) => before[t] !== after[t])) failures.push(`GET ${p}?${q.slice(0, 40)}: wrote`);
        // (%ED%A0%80 is invalid UTF-8, decoded as U+FFFD: only its 500s count.)
        if (/%00/.test(q) && res.status < 400 && /search|status|role|active|admin|all/.test(q)) {
          failures.push(`GET ${p}?${q.slice(0, 40)}: accepted a NUL byte or lone surrogate (${res.status})`);
        }
      }
    }
    report();
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('hostile input to GraphQL', () => {
  const schema = buildSchema(fs.readFileSync(path.join(import.meta.dirname, '../../../schema.graphql'), 'utf8'));
  const mutations = Object.values(schema.getMutationType()!.getFields());

  /** A value for an argument type, with `hostile` wherever a String or ID goes. */
  function fill(type: GraphQLInputType, hostile: unknown, numberHostile: unknown, depth = 0): unknown {
    if (isNonNullType(type)) return fill(type.ofType, hostile, numberHostile, depth);
    if (isListType(type)) return [fill(type.ofType, hostile, numberHostile, depth)];
    if (isInputObjectType(type)) {
      if (depth > 3) return null;
      return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, fill(f.type, hostile, numberHostile, depth + 1)]));
    }
    if (isEnumType(type)) return type.getValues()[0]!.name;
    if (isScalarType(type)) {
      if (type.name === 'String' || type.name === 'ID') return hostile;
      if (type.name === 'Int' || type.name === 'Float') return numberHostile;
      if (type.name === 'Boolean') return true;
      if (type.name === 'Upload' || type.name === 'File') return null;
      return hostile; // DateTime and other custom scalars: strings on the wire
    }
    return null;
  }

  /** Whether an argument carries a value the case makes hostile: text (strings, IDs, custom scalars), or numbers too. */
  function carriesText(type: GraphQLInputType, depth = 0, numbers = true): boolean {
    if (isNonNullType(type) || isListType(type)) return carriesText(type.ofType, depth, numbers);
    if (isInputObjectType(type)) return depth < 4 && Object.values(type.getFields()).some((f) => carriesText(f.type, depth + 1, numbers));
    return isScalarType(type) && type.name !== 'Boolean' && (numbers || (type.name !== 'Int' && type.name !== 'Float'));
  }

  it('every mutation answers hostile variables with a client error, never an internal one, and writes nothing it refuses', async () => {
    failures.length = 0;
    expect(mutations.length).toBeGreaterThan(10);
    // The last flag: the case makes numbers hostile too (else every number is a valid 1, and a
    // mutation taking numbers only may take the call).
    const cases: [string, unknown, unknown, boolean, boolean][] = [
      ...REFUSED_STRINGS.map(([n, v]): [string, unknown, unknown, boolean, boolean] => [n, v, 1, false, false]),
      ...TEXT_STRINGS.map(([n, v]): [string, unknown, unknown, boolean, boolean] => [n, v, 1, true, false]),
      ...WRONG_TYPES.map(([n, v]): [string, unknown, unknown, boolean, boolean] => [`${n} for strings`, v, 1, false, false]),
      ...HOSTILE_NUMBERS.map(([n, v]): [string, unknown, unknown, boolean, boolean] => [`${n} for numbers`, 'a', v, false, true]),
    ];
    for (const m of mutations) {
      if (m.name === 'logout' || m.name === 'signOut') continue;
      const vars = m.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const call = m.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const named = getNamedType(m.type);
      const selection = 'getFields' in named || 'getTypes' in named ? '{ __typename }' : '';
      const query = `mutation Hostile${vars ? `(${vars})` : ''} { ${m.name}${call ? `(${call})` : ''} ${selection} }`;
      for (const [label, hostile, numberHostile, textOk, numbersHostile] of cases) {
        const variables = Object.fromEntries(m.args.map((a) => [a.name, fill(a.type, hostile, numberHostile)]));
        const before = await counts();
        const res = await admin.gql(query, variables);
        const after = await counts();
        // GraphQL answers typed errors (ValidationError, ...) as data; a 2xx with a success type is a write.
        check(
          { label: `mutation ${m.name} ${label}`, status: res.status, body: res.body },
          before,
          after,
          textOk || !m.args.some((a) => carriesText(a.type, 0, numbersHostile)),
        );
      }
    }
    // Literal arguments carrying a NUL byte or a lone surrogate (escapes inside the document).
    for (const literal of ['"a\\u0000b"', '"a\\ud800b"']) {
      const before = await counts();
      const res = await admin.gql(
        `mutation { sendNotification(input: { title: ${literal}, message: ${literal}, targetType: ALL, type: INFO }) { __typename } }`,
      );
      check({ label: `literal ${literal}`, status: res.status, body: res.body }, before, await counts(), false);
    }
    // Malformed GraphQL bodies.
    for (const body of ['{"query": ', '[]', '{"query": 5}', '{"query": "mutation {", "variables": 3}']) {
      const res = await raw(admin, 'POST', '/graphql', body);
      check({ label: `graphql body ${body}`, ...res }, await counts(), await counts(), false);
    }
    report();
    expect(failures).toEqual([]);
  }, 600_000);
});

afterAll(() => {
  console.log(`hostile-input: ${sent} hostile requests sent`);
});

describe('hostile input to GraphQL queries', () => {
  it('every query field with arguments answers hostile values with a client error, never an internal one', async () => {
    failures.length = 0;
    const schema = buildSchema(fs.readFileSync(path.join(import.meta.dirname, '../../../schema.graphql'), 'utf8'));
    const fields = Object.values(schema.getQueryType()!.getFields()).filter((f) => f.args.length > 0);
    expect(fields.length).toBeGreaterThan(3);
    const leaf = (type: GraphQLInputType, str: unknown, num: unknown): unknown => {
      if (isNonNullType(type)) return leaf(type.ofType, str, num);
      if (isListType(type)) return [leaf(type.ofType, str, num)];
      if (isInputObjectType(type)) return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, leaf(f.type, str, num)]));
      if (isEnumType(type)) return type.getValues()[0]!.name;
      if (isScalarType(type)) return type.name === 'Int' || type.name === 'Float' ? num : type.name === 'Boolean' ? true : str;
      return null;
    };
    const cases: [string, unknown, unknown][] = [
      ...REFUSED_STRINGS.map(([n, v]): [string, unknown, unknown] => [n, v, 1]),
      ...TEXT_STRINGS.map(([n, v]): [string, unknown, unknown] => [n, v, 1]),
      ...WRONG_TYPES.map(([n, v]): [string, unknown, unknown] => [`${n} for strings`, v, 1]),
      ...HOSTILE_NUMBERS.map(([n, v]): [string, unknown, unknown] => [`${n} for numbers`, null, v]),
    ];
    for (const f of fields) {
      const vars = f.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const call = f.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const named = getNamedType(f.type);
      const selection = 'getFields' in named || 'getTypes' in named ? '{ __typename }' : '';
      const query = `query Hostile(${vars}) { ${f.name}(${call}) ${selection} }`;
      for (const [label, str, num] of cases) {
        const variables = Object.fromEntries(f.args.map((a) => [a.name, leaf(a.type, str, num)]));
        const before = await counts();
        const res = await admin.gql(query, variables);
        check({ label: `query ${f.name} ${label}`, status: res.status, body: res.body }, before, await counts(), true);
      }
    }
    report();
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('the answers name what was wrong', () => {
  it('REST: NUL bytes, over-long and wrong-typed fields, page numbers', async () => {
    const anonymous = new Client(server.url);
    const nul = await anonymous.post('/api/internal-login', { email: 'a\u0000b@example.com', password: 'x' });
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({ message: 'email must not contain NUL characters', code: 'BAD_USER_INPUT', field: 'email' });
    const surrogate = await anonymous.post('/api/internal-login', { email: 'admin@example.com', password: 'a\ud800' });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.message).toBe('password must not contain unpaired UTF-16 surrogates (invalid Unicode)');
    const big = await anonymous.post('/api/internal-login', { email: 'admin@example.com', password: 'x'.repeat(10_001) });
    expect(big.body).toEqual({ message: 'password is too long (10,000 characters at most)', code: 'BAD_USER_INPUT', field: 'password' });
    const typed = await anonymous.post('/api/internal-login', { email: { $ne: null }, password: 'x' });
    expect(typed.status).toBe(400);
    expect(typed.body.message).toBe('Email must be text');
    const longPassword = await anonymous.post('/api/internal-login', { email: 'admin@example.com', password: 'x'.repeat(1025) });
    expect(longPassword.body.message).toBe('Password is too long (1,024 characters at most)');
    const name = await admin.post('/api/users', { email: 'long.name@example.com', firstName: 'x'.repeat(201), role: 'reviewer' });
    expect(name.status).toBe(400);
    expect(name.body.message).toBe('First name is too long (200 characters at most)');
    const reviewer = (await admin.post('/api/users', { email: 'criteria.owner@example.com', firstName: 'C', role: 'reviewer' })).body.user;
    const criteria = await admin.post('/api/assignment-criteria', { reviewerId: reviewer.id, criteriaType: 'system', criteriaValue: 'x'.repeat(501) });
    expect(criteria.body.message).toBe('Criteria value is too long (500 characters at most)');
    const page = await admin.get('/api/risks?page=9223372036854775808');
    expect(page.status).toBe(400);
    expect(page.body.message).toBe('page must be at most 1,000,000');
    const search = await admin.get('/api/users?search=a%00b');
    expect(search.status).toBe(400);
    expect(search.body.message).toBe('search must not contain NUL characters');
    const period = await admin.post('/api/review-periods', { name: 'P', startDate: true });
    expect(period.body.message).toBe('Start date is not a valid date');
  });

  it('GraphQL: variables and literal arguments', async () => {
    const q = `mutation($input: SendNotificationInput!) { sendNotification(input: $input) { __typename } }`;
    const v = await admin.gql(q, { input: { title: 'a\u0000b', message: 'm', targetType: 'ALL', type: 'INFO' } });
    expect(v.body.errors[0].message).toBe('Variable input.title must not contain NUL characters');
    expect(v.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const lit = await admin.gql(`mutation { sendNotification(input: { title: "a\\u0000b", message: "m", targetType: ALL, type: INFO }) { __typename } }`);
    expect(lit.body.errors[0].message).toBe('Argument input.title must not contain NUL characters');
    expect(lit.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    // A lone surrogate escape is refused by the GraphQL parser itself.
    const surrogate = await admin.gql(`mutation { sendNotification(input: { title: "a\\ud800", message: "m", targetType: ALL, type: INFO }) { __typename } }`);
    expect(surrogate.body.errors[0].message).toMatch(/^Syntax Error: Invalid Unicode escape sequence/);
  });
});
