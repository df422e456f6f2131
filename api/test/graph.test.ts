// The graph as analysts and tools meet it (issue 16): GraphiQL from the app's own
// files with the guide's examples, and the guide's examples valid and runnable.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, validate } from 'graphql';
import { schema } from '../src/schema/index.js';
import { GRAPHIQL_TITLE, GRAPH_DOCS_FILE, graphiqlTabs } from '../src/graphiql.js';
import { seedRows } from './helpers/seed.js';
import { Client, adminClient, startServer, type TestServer } from './helpers/server.js';

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
    for (const q of blocks) expect(validate(schema, parse(q)).map((e) => e.message), q).toEqual([]);

    const period = await admin.post('/api/review-periods', { name: 'Graph guide period' });
    expect(period.status).toBe(201);
    const periods = await admin.gql(`{ reviewPeriods(first: 1) { edges { node { id } } } }`);
    const periodId = periods.body.data.reviewPeriods.edges[0].node.id;
    for (const q of blocks) {
      const r = await admin.gql(q, /\$periodId\b/.test(q) ? { periodId } : undefined);
      expect(r.body.errors, q).toBeUndefined();
      expect(r.status).toBe(200);
    }
    const risks = await admin.gql(blocks[0]!);
    expect(risks.body.data.riskQueue.total).toBe(2);
    expect(risks.body.data.riskQueue.rows.map((row: { accessRiskId: string }) => row.accessRiskId).sort()).toEqual(['R01', 'R02']);
  });
});
