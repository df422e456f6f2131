// The graph as analysts and tools meet it: GraphiQL from the app's own
// files with the guide's examples, and the guide's examples valid and runnable;
// errors a tool can act on (limits, ids); a reviewer's API token used end to end
// as docs/graph.md shows it (curl's request, its Node and Python examples run as
// they are written, graphql-ws with connectionParams), then revoked.
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, validate } from 'graphql';
import { schema } from '../../src/schema/index.js';
import { GRAPHIQL_TITLE, GRAPH_DOCS_FILE, graphiqlTabs } from '../../src/graphiql.js';
import { seedRows } from '../helpers/seed.js';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: Client;
const guide = fs.readFileSync(GRAPH_DOCS_FILE, 'utf8');

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  await seedRows(server.app.deps.prisma, [
    { userId: 'U1001', userName: 'Alice Jones', accessRiskId: 'R01', system: 'SAP ERP', roleProfile: 'Z_AP_CLERK' },
    { userId: 'U1001', userName: 'Alice Jones', accessRiskId: 'R02', system: 'SAP ERP', roleProfile: 'Z_GL' },
    { userId: 'U2002', userName: 'Bob Smith', accessRiskId: 'R03', system: 'Workday', roleProfile: 'HR_ADMIN' },
  ]);
});
afterAll(async () => server?.close());

/** The GraphiQL options the page carries (JSON in a non-executed script element). */
function pageOptions(html: string): { title: string; defaultTabs: { query: string; variables?: string }[] } {
  const m = /<script type="application\/json" id="graphiql-options">([\s\S]*?)<\/script>/.exec(html);
  expect(m, 'the options element').not.toBeNull();
  return JSON.parse(m![1]!);
}

describe('GraphiQL on an intranet', () => {
  it('a browser that is not signed in is shown how to sign in, not a JSON error, and comes back to GraphiQL', async () => {
    const r = await new Client(server.url).request('GET', '/graphql', undefined, { accept: 'text/html,application/xhtml+xml' });
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const html = String(r.body);
    expect(html).toContain('Sign in to explore the graph');
    expect(html).toContain('href="/internal-login?next=%2Fgraphql"');
    // A tool asking for JSON still gets GraphQL's answer.
    const tool = await new Client(server.url).request('GET', '/graphql?query=%7B__typename%7D', undefined, { accept: 'application/json' });
    expect(tool.headers.get('content-type')).toMatch(/json/);
  });

  it('the page has the app’s title, refers to no other host, and every file it loads is served by the app under the GraphiQL CSP', async () => {
    const r = await admin.request('GET', '/graphql', undefined, { accept: 'text/html' });
    expect(r.status).toBe(200);
    const html = String(r.body);
    expect(html).toContain(`<title>${GRAPHIQL_TITLE}</title>`);
    expect(html).not.toMatch(/Yoga GraphiQL/);
    // No absolute URL at all, nor a protocol-relative one: nothing leaves the app.
    expect(html).not.toMatch(/https?:\/\/|wss?:\/\/|["'(]\/\//);
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:\/\/|\*/);
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(5);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^\/graphiql\//);
      const a = await fetch(server.url + ref);
      expect(a.status, ref).toBe(200);
      const body = await a.text();
      // The bundle itself asks for nothing from elsewhere at run time (no CDN fallback for the editor's workers or fonts).
      if (ref.endsWith('.js')) expect(body, ref).not.toMatch(/(?:unpkg\.com|cdn\.jsdelivr\.net|esm\.sh|fonts\.googleapis)/);
    }
  });

  it('opens with a welcome tab linking the guide, then one tab per example of the guide', async () => {
    const r = await admin.request('GET', '/graphql', undefined, { accept: 'text/html' });
    const options = pageOptions(String(r.body));
    expect(options.title).toBe(GRAPHIQL_TITLE);
    const tabs = options.defaultTabs;
    expect(tabs[0]!.query).toContain('/graphiql/docs');
    expect(tabs.slice(1).map((t) => /^# (.+) \(from/.exec(t.query)![1])).toEqual(['Risks of a user', 'Decisions of a period', 'Reviewer progress']);
    expect(tabs).toEqual(graphiqlTabs(guide));
  });

  it('serves the guide at /graphiql/docs as plain text, to anyone, with the example queries', async () => {
    const r = await fetch(server.url + '/graphiql/docs');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    const text = await r.text();
    expect(text).toBe(guide);
    for (const h of ['### Risks of a user', '### Decisions of a period', '### Reviewer progress']) expect(text).toContain(h);
  });

  it('every example of the guide is valid against the schema and runs for an administrator', async () => {
    const blocks = [...guide.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const q of blocks)
      expect(
        validate(schema, parse(q)).map((e) => e.message),
        q,
      ).toEqual([]);

    const period = await admin.post('/api/review-periods', { name: 'Graph guide period' });
    expect(period.status).toBe(201);
    const periods = await admin.gql(`{ reviewPeriods(first: 1) { edges { node { id } } } }`);
    const periodId = periods.body.data.reviewPeriods.edges[0].node.id;
    for (const q of blocks) {
      const r = await admin.gql(q, /\$periodId\b/.test(q) ? { periodId } : undefined);
      expect(r.body.errors, q).toBeUndefined();
      expect(r.status).toBe(200);
    }
    const risks = await admin.gql(blocks.find((q) => q.includes('query RisksOfAUser'))!);
    expect(risks.body.data.riskQueue.totalCount).toBe(2);
    expect(risks.body.data.riskQueue.edges.map((e: { node: { accessRiskId: string } }) => e.node.accessRiskId).sort()).toEqual(['R01', 'R02']);
  });
});

describe('the README’s token examples', () => {
  it('every GraphQL document in the README’s curl, Node, Python and graphql-ws examples is valid against the schema', () => {
    const readme = fs.readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const code = [...readme.matchAll(/```(?:sh|js|python)\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');
    // `"query":"…"` (curl), `query: '…'` (Node, graphql-ws), `{"query": "…"}` (Python).
    const docs = [...code.matchAll(/["']?query["']?\s*:\s*(['"])((?:query|subscription|mutation)?\s*\{[\s\S]*?\})\1/g)].map((m) => m[2]!);
    expect(docs.length).toBeGreaterThanOrEqual(4);
    expect(docs.some((d) => d.startsWith('subscription'))).toBe(true);
    for (const q of docs)
      expect(
        validate(schema, parse(q)).map((e) => e.message),
        q,
      ).toEqual([]);
  });
});

const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');
const NO_SUCH_UUID = '00000000-0000-4000-8000-000000000000';

describe('errors a tool can act on', () => {
  it('a document over a limit is refused with HTTP 400, the limit’s own code and a message naming the limit', async () => {
    const deep = `{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(9)}name${' }'.repeat(9)} } } } }`;
    const costly = `{ compositeUsers(first: 500) { edges { node { riskGroups(first: 500) { edges { node { id } } } } } } }`;
    const aliased = `{ ${Array.from({ length: 21 }, (_, i) => `a${i}: viewer { id }`).join(' ')} }`;
    const cases = [
      { query: deep, code: 'MAX_DEPTH_EXCEEDED', limit: 'maxDepth', max: 12, words: /depth limit \(maxDepth 12\): it has 13/ },
      { query: costly, code: 'MAX_COST_EXCEEDED', limit: 'maxCost', max: 250000, words: /cost limit \(maxCost 250000\): it has \d+/ },
      { query: aliased, code: 'MAX_ALIASES_EXCEEDED', limit: 'maxAliases', max: 20, words: /alias limit \(maxAliases 20\): it has 21/ },
    ];
    for (const c of cases) {
      // GraphQL over HTTP: 400 for a client that accepts application/graphql-response+json, 200 (with the
      // same error) for one that asks for plain application/json only.
      const r = await admin.request('POST', '/graphql', { query: c.query }, { accept: 'application/graphql-response+json' });
      expect(r.status, c.code).toBe(400);
      const legacy = await admin.request('POST', '/graphql', { query: c.query }, { accept: 'application/json' });
      expect(legacy.status, c.code).toBe(200);
      expect(legacy.body.errors[0].extensions.code, c.code).toBe(c.code);
      expect(r.body.data, c.code).toBeUndefined();
      expect(r.body.errors, c.code).toHaveLength(1);
      const [e] = r.body.errors;
      expect(e.message, c.code).toMatch(c.words);
      expect(e.message).not.toMatch(/Syntax Error/);
      expect(e.extensions, c.code).toMatchObject({ code: c.code, limit: c.limit, max: c.max });
    }
    // Just within the limits: answered.
    const within = await admin.gql(`{ ${Array.from({ length: 20 }, (_, i) => `a${i}: viewer { id }`).join(' ')} }`);
    expect(within.status).toBe(200);
    expect(within.body.errors).toBeUndefined();
  });

  it('a malformed id, or one of no type of the graph or of the wrong type, is BAD_USER_INPUT wherever it is given', async () => {
    const users = await admin.gql(`{ users(first: 1) { edges { node { id } } } }`);
    const userId: string = users.body.data.users.edges[0].node.id;
    const bad = ['not an id', gid('Nothing', '1'), gid('ReviewPeriod', 'not-a-uuid'), gid('RiskRow', 'abc'), userId];
    for (const id of bad) {
      const asked = [
        // A user id is a good id for node(): only the others are malformed there.
        ...(id === userId
          ? []
          : [admin.gql(`query ($id: ID!) { node(id: $id) { id } }`, { id }), admin.gql(`query ($id: ID!) { nodes(ids: [$id]) { id } }`, { id })]),
        admin.gql(`query ($id: ID!) { periodEvidence(periodId: $id) { periodName } }`, { id }),
        admin.gql(`mutation ($id: ID!) { closeReviewPeriod(id: $id) { __typename } }`, { id: id === userId ? userId : id }),
        admin.gql(`mutation ($id: ID!) { createAssignment(input: { reviewerId: $id, criteriaType: USER_ID, criteriaValue: "U1001" }) { __typename } }`, {
          id: id === userId ? gid('ReviewPeriod', NO_SUCH_UUID) : id,
        }),
      ];
      for (const r of await Promise.all(asked)) {
        expect(r.body.errors, `${id}: ${JSON.stringify(r.body)}`).toHaveLength(1);
        expect(r.body.errors[0].extensions.code, `${id}: ${JSON.stringify(r.body)}`).toBe('BAD_USER_INPUT');
        expect(r.body.errors[0].message).toMatch(/is not (a valid id|the id of a|of type)/);
      }
    }
  });

  it('a well-formed id of nothing is null from node(), NOT_FOUND from an argument, and never an internal error', async () => {
    const none = gid('ReviewPeriod', NO_SUCH_UUID);
    const node = await admin.gql(`query ($id: ID!) { node(id: $id) { id } nodes(ids: [$id]) { id } }`, { id: none });
    expect(node.body).toEqual({ data: { node: null, nodes: [null] } });

    const evidence = await admin.gql(`query ($id: ID!) { periodEvidence(periodId: $id) { periodName } }`, { id: none });
    expect(evidence.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    // Mutations answer their result union's error, typed by its code.
    const close = await admin.gql(`mutation ($id: ID!) { closeReviewPeriod(id: $id) { __typename ... on BaseError { code message } } }`, { id: none });
    expect(close.body.data.closeReviewPeriod).toMatchObject({ __typename: 'BaseError', code: 'NOT_FOUND' });
    const assign = await admin.gql(
      `mutation ($id: ID!) { createAssignment(input: { reviewerId: $id, criteriaType: USER_ID, criteriaValue: "U1001" }) { __typename ... on Error { message } ... on BaseError { code } ... on ValidationError { code field } } }`,
      { id: gid('User', NO_SUCH_UUID) },
    );
    expect(assign.body.errors).toBeUndefined();
    expect(['NOT_FOUND', 'BAD_USER_INPUT']).toContain(assign.body.data.createAssignment.code);
    for (const r of [node, evidence, close, assign]) expect(JSON.stringify(r.body)).not.toMatch(/INTERNAL_SERVER_ERROR|Unexpected error/);
  });
});

/** The code block of the guide that follows `### <heading>`. */
function guideBlock(heading: string, lang: string): string {
  const m = new RegExp(`^### ${heading}\\n[\\s\\S]*?\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'm').exec(guide);
  expect(m, `${heading} ${lang}`).not.toBeNull();
  return m![1]!;
}

/** Lines a child process prints, one at a time. */
function linesOf(child: ReturnType<typeof spawn>) {
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => (waiting.shift() ?? ((l: string) => queue.push(l)))(line));
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return {
    next: (ms: number) =>
      new Promise<string>((resolve, reject) => {
        if (queue.length) return resolve(queue.shift()!);
        const t = setTimeout(() => reject(new Error(`no line within ${ms} ms; stderr: ${stderr}`)), ms);
        waiting.push((l) => (clearTimeout(t), resolve(l)));
      }),
  };
}

describe('a reviewer’s API token, end to end as the guide shows it', () => {
  it('lists the assigned risks over HTTP (curl’s request, the Node and Python examples), subscribes over graphql-ws with connectionParams, and is refused once revoked', async () => {
    const reviewer = await userClient(server, admin, 'reviewer');
    expect((await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: 'U1001' })).status).toBe(201);
    expect((await admin.put('/api/tokens/settings', { usersMayCreateTokens: true })).status).toBe(200);
    const created = await reviewer.client.post('/api/tokens', { name: 'analyst laptop', scope: 'read', expiresInDays: 30 });
    expect(created.status).toBe(201);
    const token: string = created.body.token;
    expect(token).toMatch(/^grc_/);
    const env = { ...process.env, GRC_URL: server.url, GRC_TOKEN: token };

    // curl's GraphQL request, as the guide writes it (no cookie, no CSRF header, only the token).
    const curlBody = /-d '([^']+)'/.exec(guideBlock('curl', 'sh'))![1]!;
    const http = await fetch(server.url + '/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: curlBody,
    });
    expect(http.status).toBe(200);
    const listed = (await http.json()) as { data: { assignedRisks: { totalCount: number; edges: { node: { userId: string; accessRiskId: string } }[] } } };
    expect(listed.data.assignedRisks.totalCount).toBe(2);
    expect(listed.data.assignedRisks.edges.map(({ node: r }) => `${r.userId}/${r.accessRiskId}`).sort()).toEqual(['U1001/R01', 'U1001/R02']);
    const rest = await fetch(server.url + '/api/assigned-risks?limit=50', { headers: { authorization: `Bearer ${token}` } });
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { total: number }).total).toBe(2);

    // The Python example, run as written (standard library only).
    // (Not spawnSync: the server answers from this same process.)
    const python = spawn('python3', ['-c', guideBlock('Python \\(standard library only\\)', 'python')], { env });
    expect(JSON.parse(await linesOf(python).next(30_000)).totalCount).toBe(2);

    // The Node example, run as written: its query, then notifications over graphql-ws as they are sent.
    const node = spawn(process.execPath, ['--input-type=module', '-e', guideBlock('Node \\(20 or later\\)', 'js')], { env, cwd: process.cwd() });
    try {
      const lines = linesOf(node);
      expect(JSON.parse(await lines.next(30_000)).totalCount).toBe(2);
      // The subscription starts after that line: send until one arrives.
      const arrived = lines.next(30_000);
      let delivered: { title: string; type: string } | null = null;
      void arrived.then((l) => (delivered = JSON.parse(l)));
      for (let i = 0; i < 60 && !delivered; i++) {
        const sent = await admin.gql(
          `mutation { sendNotification(input: { title: "Review due", message: "Q4 closes Friday", type: URGENT, targetType: ALL }) { __typename } }`,
        );
        expect(sent.body.data.sendNotification.__typename).toBe('MutationSendNotificationSuccess');
        await Promise.race([arrived, new Promise((r) => setTimeout(r, 500))]);
      }
      expect(await arrived).toContain('Review due');
      expect(delivered).toMatchObject({ title: 'Review due', type: 'URGENT' });
    } finally {
      node.kill();
    }

    // graphql-ws from the test itself: the token in connectionParams; a document over a limit is refused there too.
    const ws = createClient({
      url: server.url.replace('http', 'ws') + '/graphql',
      lazy: false,
      retryAttempts: 0,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    const run = (query: string) =>
      new Promise<{ result?: any; error?: any }>((resolve) => {
        let result: any;
        ws.subscribe({ query }, { next: (v) => (result = v), error: (error) => resolve({ error }), complete: () => resolve({ result }) });
      });
    try {
      const viewer = await run(`{ viewer { email role } assignedRisks { totalCount } }`);
      expect(viewer.result.data).toEqual({ viewer: { email: reviewer.email, role: 'REVIEWER' }, assignedRisks: { totalCount: 2 } });
      const deep = await run(`{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(9)}name${' }'.repeat(9)} } } } }`);
      const errors = deep.error ?? deep.result?.errors;
      expect(errors?.[0]?.extensions?.code).toBe('MAX_DEPTH_EXCEEDED');
    } finally {
      await ws.dispose();
    }

    // Revoked on the API Tokens page (the same REST call): refused the very next request, over HTTP and graphql-ws.
    expect((await reviewer.client.request('DELETE', `/api/tokens/${created.body.apiToken.id}`)).status).toBe(200);
    const refused = await fetch(server.url + '/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: curlBody,
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect((await fetch(server.url + '/api/assigned-risks', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    const again = createClient({
      url: server.url.replace('http', 'ws') + '/graphql',
      lazy: false,
      retryAttempts: 0,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      onNonLazyError: () => {}, // the refusal is asserted below
    });
    try {
      const closed = await new Promise<{ code?: number }>((resolve) => {
        again.subscribe({ query: '{ viewer { id } }' }, { next: () => {}, error: (e) => resolve(e as { code?: number }), complete: () => resolve({}) });
      });
      expect(closed.code).toBe(4403);
    } finally {
      await again.dispose();
    }
    await admin.put('/api/tokens/settings', { usersMayCreateTokens: false });
  }, 120_000);
});

describe('GraphQL over SSE', () => {
  it('a subscription posted with Accept: text/event-stream delivers each event as the README shows', async () => {
    const created = await admin.post('/api/tokens', { name: 'sse tool', scope: 'read' });
    expect(created.status).toBe(201);
    const abort = new AbortController();
    const res = await fetch(server.url + '/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${created.body.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { notificationAdded { title message } }' }),
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    const sent = (async () => {
      // Sent until the stream shows it: the subscription may still be starting when the first goes.
      for (let i = 0; i < 20 && !text.includes('Over SSE'); i++) {
        await admin.post('/api/notifications', { title: 'Over SSE', message: 'hello', type: 'info', targetType: 'all' });
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    while (!/event: next\ndata: .*"Over SSE"/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    abort.abort();
    await sent;
    const data = /event: next\ndata: (.*)\n/.exec(text)![1]!;
    expect(JSON.parse(data)).toEqual({ data: { notificationAdded: { title: 'Over SSE', message: 'hello' } } });
  });
});
