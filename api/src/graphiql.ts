// GraphiQL (served to signed-in users at /graphql) from the app itself: Yoga's
// own page loads its scripts and styles from a CDN with inline scripts, which
// the CSP forbids. The same bundle (@graphql-yoga/render-graphiql, the build
// of @graphql-yoga/graphiql that matches our Yoga) is served from /graphiql/*
// as files, and the page only references them.
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './core/errors.js';

type Bundle = typeof import('@graphql-yoga/render-graphiql/graphiql');
let bundle: Promise<Bundle> | null = null;
/** 9 MB of strings: loaded on first use only. */
function loadBundle(): Promise<Bundle> {
  bundle ??= import('@graphql-yoga/render-graphiql/graphiql');
  return bundle;
}

const BASE = '/graphiql';

/** The analysts' guide (docs/graph.md), served at /graphiql/docs and linked from GraphiQL's first tab. */
export const GRAPH_DOCS_FILE = new URL('../../docs/graph.md', import.meta.url);
export const GRAPH_DOCS_PATH = `${BASE}/docs`;
/** The page title: the app's own (web/index.html), not Yoga's default 'Yoga GraphiQL'. */
export const GRAPHIQL_TITLE = 'GraphQL · GRC Risk Management';

export interface GraphiQLTab {
  query: string;
  variables?: string;
}

/**
 * GraphiQL's tabs on a first visit: a welcome that links the guide, then each
 * example of the guide's 'Example queries' section (a `### Title` and its
 * graphql block) in its own tab, so the examples and the guide never drift.
 */
export function graphiqlTabs(markdown: string): GraphiQLTab[] {
  const welcome = [
    '# GraphQL explorer of GRC Risk Management',
    '#',
    `# The guide, with the example queries of the other tabs and how a tool uses an API token: ${GRAPH_DOCS_PATH}`,
    '# Every type and field is described in the Docs pane (the book icon, top left).',
    '',
    'query Viewer {',
    '  viewer {',
    '    email',
    '    role',
    '  }',
    '}',
    '',
  ].join('\n');
  const tabs: GraphiQLTab[] = [{ query: welcome }];
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Example queries')) ?? '';
  for (const m of section.matchAll(/^### (.+)\n[\s\S]*?```graphql\n([\s\S]*?)```/gm)) {
    const query = `# ${m[1]!.trim()} (from ${GRAPH_DOCS_PATH})\n${m[2]!}`;
    tabs.push(/\$periodId\b/.test(query) ? { query, variables: '{ "periodId": "paste an id from reviewPeriods" }' } : { query });
  }
  return tabs;
}

let docs: string | null = null;
function graphDocs(): string {
  docs ??= fs.readFileSync(GRAPH_DOCS_FILE, 'utf8');
  return docs;
}

/**
 * What a browser that is not signed in sees at /graphql: GraphiQL is for signed-in users
 * (it runs with their session), so the page says so and links the sign-in, which comes back.
 */
export const GRAPHIQL_SIGN_IN_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${GRAPHIQL_TITLE}</title></head>
<body>
<main>
<h1>GraphiQL</h1>
<p>Sign in to explore the graph: GraphiQL runs with your session.</p>
<p><a href="/internal-login?next=%2Fgraphql">Sign in</a></p>
<p>Tools send their requests with an API token (<code>Authorization: Bearer …</code>); the guide is at <a href="/graphiql/docs">/graphiql/docs</a>.</p>
</main>
</body>
</html>
`;

/** The options of the GraphiQL page for a signed-in user. */
export function graphiqlOptions() {
  return { title: GRAPHIQL_TITLE, defaultTabs: graphiqlTabs(graphDocs()) };
}

/** Monaco's web workers, by the label Monaco asks for. */
const WORKERS = { editorWorkerService: 'editorWorkerService', json: 'jsonWorker', graphql: 'graphqlWorker' } as const;

// Set before the bundle runs: Monaco reads it when it starts a worker.
const ENV_JS = `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: function (_moduleId, label) { return '${BASE}/workers/' + encodeURIComponent(label) + '.js'; },
};
`;

const START_JS = `(function () {
  var options = JSON.parse(document.getElementById('graphiql-options').textContent || '{}');
  YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
})();
`;

/**
 * The CSP of the GraphiQL page: scripts only from the app, as everywhere; the
 * Monaco editor inside GraphiQL inserts <style> elements without a nonce, so
 * this one page allows inline styles (never inline scripts).
 */
export const GRAPHIQL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Yoga's `renderGraphiQL` replacement: a page with no inline script that loads everything from /graphiql/. */
export function renderLocalGraphiQL(opts: { title?: string } & Record<string, unknown> = {}): string {
  const title = escapeHtml(String(opts.title ?? 'GraphiQL'));
  // JSON in a non-executed script element; '<' escaped so the text cannot close the element.
  const options = JSON.stringify(opts).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    <link rel="icon" href="${BASE}/favicon.ico" />
    <link rel="stylesheet" href="${BASE}/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div>
    <script type="application/json" id="graphiql-options">${options}</script>
    <script src="${BASE}/env.js"></script>
    <script src="${BASE}/graphiql.js"></script>
    <script src="${BASE}/start.js"></script>
  </body>
</html>
`;
}

export function registerGraphiQLAssets(app: FastifyInstance) {
  const js = 'application/javascript; charset=utf-8';
  const cache = 'public, max-age=3600';
  // Markdown as plain text: readable in any browser, with nothing to run.
  app.get(GRAPH_DOCS_PATH, async (_req, reply) => reply.type('text/plain; charset=utf-8').header('cache-control', cache).send(graphDocs()));
  app.get(`${BASE}/env.js`, async (_req, reply) => reply.type(js).header('cache-control', cache).send(ENV_JS));
  app.get(`${BASE}/start.js`, async (_req, reply) => reply.type(js).header('cache-control', cache).send(START_JS));
  app.get(`${BASE}/graphiql.js`, async (_req, reply) =>
    reply
      .type(js)
      .header('cache-control', cache)
      .send((await loadBundle()).js),
  );
  app.get(`${BASE}/graphiql.css`, async (_req, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', cache)
      .send((await loadBundle()).css),
  );
  app.get(`${BASE}/favicon.ico`, async (_req, reply) => {
    const m = /^data:([^;]+);base64,(.*)$/.exec((await loadBundle()).favicon);
    if (!m) return reply.status(404).send(errorBody(404, 'Not found'));
    return reply.type(m[1]!).header('cache-control', cache).send(Buffer.from(m[2]!, 'base64'));
  });
  app.get<{ Params: { label: string } }>(`${BASE}/workers/:label`, async (req, reply) => {
    const label = req.params.label.replace(/\.js$/, '') as keyof typeof WORKERS;
    if (!Object.prototype.hasOwnProperty.call(WORKERS, label)) return reply.status(404).send(errorBody(404, 'Not found'));
    return reply
      .type(js)
      .header('cache-control', cache)
      .send((await loadBundle())[WORKERS[label]]);
  });
}
