// The layers of docs/architecture.md, checked in CI (`npm run lint:layers`).
// Who may import whom:
//   core/ (errors, validation, audit writer, CSV, types)  <- everything
//   db/, ingest/, auth/                                    <- import core/ (and db/) only
//   services/                                              <- import core/, db/, ingest/, auth/, each other (no cycles);
//                                                             services/kept/ only through its index.ts and dispatcher.ts
//   schema/, rest/, jobs/                                  <- import services/ and below; never each other
//   server/ (the Fastify plugins), server.ts               <- compose the adapters; only server.ts and app.ts import them
// The generated Prisma client and config.ts are leaves everyone may read.
const SRC = '^api/src/';
const forbidden = [
  {
    name: 'no-circular',
    comment: 'A cycle makes two modules one; split the shared part out instead.',
    severity: 'error',
    from: { path: SRC },
    to: { circular: true },
  },
  {
    name: 'core-is-a-leaf',
    comment: 'core/ holds what every layer shares and no domain owns: it imports nothing of ours but the generated client.',
    severity: 'error',
    from: { path: `${SRC}core/` },
    to: { path: SRC, pathNot: [`${SRC}core/`, `${SRC}generated/`] },
  },
  {
    name: 'db-is-infrastructure',
    comment: 'db/ is the client factory, migrator, bulk copy and job queue: no domain code.',
    severity: 'error',
    from: { path: `${SRC}db/` },
    to: { path: SRC, pathNot: [`${SRC}db/`, `${SRC}core/`, `${SRC}generated/`] },
  },
  {
    name: 'ingest-is-a-leaf',
    comment: 'ingest/ reads files into rows and COPY batches; the upload lifecycle is a service.',
    severity: 'error',
    from: { path: `${SRC}ingest/` },
    to: { path: SRC, pathNot: [`${SRC}ingest/`, `${SRC}core/`, `${SRC}db/`, `${SRC}generated/`] },
  },
  {
    name: 'auth-below-services',
    comment:
      'auth/ holds identity primitives (sessions, passwords, throttling, API tokens, the OpenID Connect protocol); the sign-in rules that use them are services/identity/auth.ts.',
    severity: 'error',
    from: { path: `${SRC}auth/` },
    to: { path: SRC, pathNot: [`${SRC}auth/`, `${SRC}core/`, `${SRC}db/`, `${SRC}generated/`, `${SRC}config\\.ts$`] },
  },
  {
    name: 'services-below-adapters',
    comment: 'Services own the rules; they never reach up into the GraphQL schema, REST routes, jobs workers or the request context.',
    severity: 'error',
    from: { path: `${SRC}services/` },
    to: {
      path: [
        `${SRC}schema/`,
        `${SRC}rest/`,
        `${SRC}jobs/`,
        `${SRC}context\\.ts$`,
        `${SRC}graphql\\.ts$`,
        `${SRC}server\\.ts$`,
        `${SRC}server/`,
        `${SRC}app\\.ts$`,
      ],
    },
  },
  {
    name: 'kept-wing-closed',
    comment:
      'The kept aggregates (services/kept/) are read through its index.ts and kept up to date through its dispatcher.ts: no other module imports an aggregate, so no writer knows which aggregates follow its change.',
    severity: 'error',
    from: { path: SRC, pathNot: `${SRC}services/kept/` },
    to: { path: `${SRC}services/kept/`, pathNot: [`${SRC}services/kept/index\\.ts$`, `${SRC}services/kept/dispatcher\\.ts$`] },
  },
  {
    name: 'schema-not-rest',
    comment: 'GraphQL and REST are sibling adapters over the same services.',
    severity: 'error',
    from: { path: `${SRC}schema/` },
    to: { path: [`${SRC}rest/`, `${SRC}jobs/`] },
  },
  {
    name: 'rest-not-schema',
    severity: 'error',
    from: { path: `${SRC}rest/` },
    to: { path: [`${SRC}schema/`, `${SRC}jobs/`] },
  },
  {
    name: 'jobs-not-adapters',
    severity: 'error',
    from: { path: `${SRC}jobs/` },
    to: { path: [`${SRC}schema/`, `${SRC}rest/`] },
  },
  {
    name: 'server-plugins-on-top',
    comment: 'server/ holds the Fastify plugins buildServer (server.ts) composes; nothing below the composition imports them.',
    severity: 'error',
    from: { path: SRC, pathNot: [`${SRC}server/`, `${SRC}server\\.ts$`, `${SRC}app\\.ts$`] },
    to: { path: [`${SRC}server/`, `${SRC}server\\.ts$`] },
  },
  {
    name: 'web-routes-apart',
    comment:
      'A route folder owns its screen; what two screens share lives in components/, domain/, or routes/composite-view/ (which, being a route folder too, imports no other).',
    severity: 'error',
    from: { path: '^web/src/routes/([^/]+)/' },
    to: { path: '^web/src/routes/([^/]+)/', pathNot: ['^web/src/routes/$1/', '^web/src/routes/composite-view/'] },
  },
  {
    name: 'web-components-generic',
    comment: 'components/ is generic UI: it imports no route, domain, shell or auth module.',
    severity: 'error',
    from: { path: '^web/src/components/' },
    to: { path: ['^web/src/routes/', '^web/src/domain/', '^web/src/shell/', '^web/src/auth/'] },
  },
  {
    name: 'web-domain-below-routes',
    comment: 'domain/ serves the routes, not the reverse.',
    severity: 'error',
    from: { path: '^web/src/domain/' },
    to: { path: '^web/src/routes/', pathNot: '^web/src/routes/composite-view/' },
  },
  {
    name: 'web-not-api',
    severity: 'error',
    from: { path: '^web/' },
    to: { path: '^api/' },
  },
];

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['__generated__', '^api/src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
