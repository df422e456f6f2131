// The permission matrix: every REST route, GraphQL root field and
// subscription, called as every kind of caller, against the access written
// below. Routes and fields are discovered from the running app (the OpenAPI
// document the server builds from its own route table, and the built
// schema), so a new route or field without an entry here fails the test, and
// so does an entry for one that no longer exists.
//
// Outcomes: a caller that is not allowed gets 401 / UNAUTHENTICATED (not
// signed in, deactivated) or 403 / FORBIDDEN (wrong role, password change
// pending, read token on a write, token on a session-only operation); an
// allowed caller gets anything else except a 500 / INTERNAL_SERVER_ERROR
// (400/404/409 are expected: the ids are random and the bodies empty).
import crypto from 'node:crypto';
import WebSocket from 'ws';
import { createClient, type Client as WsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  isAbstractType,
  isLeafType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { schema } from '../../src/schema/index.js';
import { NODE_ID_FORMATS } from '../../src/schema/global-ids.js';
import type { PubSubEvents } from '../../src/pubsub.js';
import { until } from '../helpers/ws.js';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';

type Access = 'public' | 'authenticated' | 'signedIn' | 'admin' | 'reviewer';

interface Entry {
  access: Access;
  /** Refused to API tokens whatever their scope: managing tokens needs a signed-in session. */
  sessionOnly?: true;
  /** Why the allowed callers are not called (the call would end the caller's session or change its password). */
  skipAllowed?: string;
  /** REST statuses an allowed caller may get besides the usual (documented per entry). */
  allowedStatuses?: number[];
  /** GraphQL: error codes an allowed caller may get as the answer itself (documented per entry). */
  allowedCodes?: string[];
  /** GraphQL: the Node type of the `id` (or `ids`) argument, so refusals are not masked by a malformed-id error. */
  idType?: string;
}

const CALLERS = ['anonymous', 'deactivatedSession', 'deactivatedToken', 'pendingPasswordChange', 'reviewer', 'admin', 'readToken', 'fullToken'] as const;
type Caller = (typeof CALLERS)[number];

// ---------------------------------------------------------------- REST matrix
const REST: Record<string, Entry> = {
  'POST /api/internal-login': { access: 'public' },
  'PUT /api/internal/change-password': { access: 'authenticated', skipAllowed: 'changes the caller’s password' },
  'POST /api/logout': { access: 'public', skipAllowed: 'ends the caller’s session' },
  // External sign-in is not configured in tests: the route answers 401 to everyone, by design.
  'GET /api/auth/user': { access: 'public', allowedStatuses: [401] },
  'GET /api/auth/sso': { access: 'public' },
  'GET /api/login': { access: 'public' },
  'GET /api/auth/callback': { access: 'public' },
  'GET /api/openapi.json': { access: 'public' },

  'GET /api/users': { access: 'admin' },
  'POST /api/users': { access: 'admin' },
  'PUT /api/users/:id': { access: 'admin' },
  'PUT /api/users/:id/reset-password': { access: 'admin' },
  'PUT /api/users/:id/deactivate': { access: 'admin' },
  'PUT /api/users/:id/activate': { access: 'admin' },

  'GET /api/notifications': { access: 'signedIn' },
  'POST /api/notifications': { access: 'admin' },
  'PUT /api/notifications/read-all': { access: 'signedIn' },
  'PUT /api/notifications/:id/read': { access: 'signedIn' },
  'DELETE /api/notifications/:id': { access: 'admin' },

  'GET /api/review-periods/active': { access: 'signedIn' },
  'GET /api/review-periods': { access: 'admin' },
  'POST /api/review-periods': { access: 'admin' },
  'POST /api/review-periods/preview': { access: 'admin' },
  'PUT /api/review-periods/:id/open': { access: 'admin' },
  'PUT /api/review-periods/:id/close': { access: 'admin' },
  'GET /api/review-periods/:id/reminders': { access: 'admin' },
  'GET /api/review-periods/:id/stages': { access: 'admin' },
  'GET /api/review-settings': { access: 'admin' },
  'PUT /api/review-settings': { access: 'admin' },
  'GET /api/unassigned-conflicts': { access: 'admin' },
  'GET /api/review-period-templates': { access: 'admin' },
  'POST /api/review-period-templates': { access: 'admin' },
  'PUT /api/review-period-templates/:id': { access: 'admin' },
  'DELETE /api/review-period-templates/:id': { access: 'admin' },

  'POST /api/reassignments': { access: 'signedIn' },
  'GET /api/reassignments': { access: 'signedIn' },
  'GET /api/reassignments/open-work': { access: 'signedIn' },
  'GET /api/reassignments/reviewers': { access: 'signedIn' },

  'GET /api/assignment-criteria': { access: 'admin' },
  'GET /api/assignment-values/:criteriaType': { access: 'admin' },
  'POST /api/assignment-criteria': { access: 'admin' },
  'DELETE /api/assignment-criteria/:id': { access: 'admin' },

  'GET /api/risks': { access: 'admin' },
  'GET /api/assigned-risks': { access: 'reviewer' },
  'GET /api/risks/systems': { access: 'signedIn' },
  'GET /api/risks/export': { access: 'signedIn' },
  'GET /api/reports/risk-report': { access: 'signedIn' },
  'GET /api/remediation': { access: 'admin' },
  'PUT /api/remediation/:id': { access: 'admin' },

  'POST /api/reviews/decision': { access: 'signedIn' },
  'POST /api/risks/:id/questions': { access: 'signedIn' },
  'GET /api/questions': { access: 'signedIn' },
  'GET /api/questions/:id': { access: 'signedIn' },
  'POST /api/questions/:id/answer': { access: 'signedIn' },
  'POST /api/reviews/decisions': { access: 'signedIn' },
  'POST /api/reviews/decisions/by-filter': { access: 'signedIn' },
  'GET /api/reviews/rules': { access: 'signedIn' },
  'GET /api/reviews/expired-mitigations': { access: 'admin' },
  'GET /api/reviews/submission-status': { access: 'reviewer' },
  'POST /api/reviews/submit': { access: 'reviewer' },
  'POST /api/reviews/recall': { access: 'reviewer' },
  'GET /api/submissions': { access: 'admin' },
  'PUT /api/submissions/:id/approve': { access: 'admin' },
  'PUT /api/submissions/:id/return': { access: 'admin' },
  'GET /api/submissions/:id/review': { access: 'admin' },

  'GET /api/dashboard/stats': { access: 'signedIn' },
  'GET /api/reviewer-status': { access: 'admin' },
  'GET /api/dashboard/recent-reviews': { access: 'signedIn' },
  'GET /api/reviews/all': { access: 'signedIn' },
  'GET /api/dashboard/trend': { access: 'signedIn' },
  'GET /api/dashboard/categories': { access: 'signedIn' },
  'GET /api/reports/evidence': { access: 'admin' },
  'GET /api/audit/verify': { access: 'admin' },
  'GET /api/reports/evidence-bundle': { access: 'admin' },

  'POST /api/upload': { access: 'admin' },
  'GET /api/upload-status/:id': { access: 'admin' },
  'GET /api/uploads': { access: 'admin' },
  'GET /api/uploads/:id': { access: 'admin' },
  'POST /api/uploads/:id/retry': { access: 'admin' },
  'POST /api/upload/preview': { access: 'admin' },
  'POST /api/upload/preview/:id': { access: 'admin' },
  'POST /api/upload/preview/:id/start': { access: 'admin' },
  'GET /api/mapping-profiles': { access: 'admin' },
  'DELETE /api/mapping-profiles/:id': { access: 'admin' },

  'GET /api/tokens': { access: 'signedIn' },
  'POST /api/tokens': { access: 'signedIn', sessionOnly: true },
  'GET /api/tokens/settings': { access: 'admin' },
  'PUT /api/tokens/settings': { access: 'admin', sessionOnly: true },
  'DELETE /api/tokens/:id': { access: 'signedIn', sessionOnly: true },
  'POST /api/risk-analysis/baseline-vs-simulation': { access: 'signedIn' },
  'GET /api/risk-analysis/latest-results': { access: 'signedIn' },
  'POST /api/simulation/run': { access: 'admin' },
  'GET /api/simulation/runs': { access: 'admin' },
  'GET /api/simulation/role-what-if': { access: 'admin' },

  'GET /api/admin/settings/:settingKey': { access: 'admin' },
  'POST /api/admin/settings': { access: 'admin', sessionOnly: true },
  'POST /api/admin/validate-openai-key': { access: 'admin' },
  'DELETE /api/admin/purge-risk-data': { access: 'admin', sessionOnly: true, skipAllowed: 'deletes all risk data (api/test/reports/purge.test.ts)' },
  'POST /api/ai/categorize-risk': { access: 'signedIn' },
  'POST /api/ai/accept-suggestion/:riskId': { access: 'signedIn' },
  'POST /api/ai/risk-profile': { access: 'signedIn' },
  'GET /api/ai/usage-stats': { access: 'admin' },
  'GET /api/ai/bulk-categorize': { access: 'admin' },
  // No key is configured here: an allowed caller gets 409 (nothing starts).
  'POST /api/ai/bulk-categorize': { access: 'admin', sessionOnly: true },

  'POST /api/rule-sets': { access: 'admin' },
  'GET /api/rule-sets': { access: 'admin' },
  'PUT /api/rule-sets/:id/activate': { access: 'admin' },
  'GET /api/rule-sets/:id/file': { access: 'admin' },
  'POST /api/systems/:system/extracts': { access: 'admin' },
  'GET /api/systems/:system/extracts/:id': { access: 'admin' },
  'POST /api/analyses': { access: 'admin' },
  'GET /api/analyses/:id': { access: 'admin' },
  'GET /api/analyses/:id/changes': { access: 'admin' },
  'GET /api/analyses/:id/conflicts.csv': { access: 'admin' },
  'GET /api/analyses/:id/conflicts.xlsx': { access: 'admin' },
  'POST /api/analyses/:id/review': { access: 'admin' },
};

// Routes outside /api, which the REST access control does not cover: public by design.
const OUTSIDE_API: Record<string, string> = {
  '/healthz': 'process health, for the orchestrator',
  '/readyz': 'database readiness, for the orchestrator',
  '/graphql': 'the GraphQL endpoint: its root fields have their own matrix below',
  '/graphiql/env.js': 'GraphiQL page asset',
  '/graphiql/start.js': 'GraphiQL page asset',
  '/graphiql/graphiql.js': 'GraphiQL page asset',
  '/graphiql/graphiql.css': 'GraphiQL page asset',
  '/graphiql/favicon.ico': 'GraphiQL page asset',
  '/graphiql/workers/:label': 'GraphiQL page asset',
  '/graphiql/docs': "the analysts' guide to the graph (docs/graph.md), linked from GraphiQL",
  '/.well-known/grc-evidence-key':
    'the public key that verifies evidence bundles: public by design, so an auditor checks a bundle against the installation itself',
  '/metrics': 'Prometheus metrics: only with the METRICS_TOKEN bearer (observability.test.ts), never by a session or API token; off (404) here',
};

// ------------------------------------------------------------- GraphQL matrix
const QUERY: Record<string, Entry> = {
  // Public by design: answers null to a caller who is not signed in.
  viewer: { access: 'public' },
  activeReviewPeriod: { access: 'signedIn' },
  allNotificationCounts: { access: 'admin' },
  allNotifications: { access: 'admin' },
  apiTokenSettings: { access: 'admin' },
  apiTokens: { access: 'signedIn' },
  assignedRisks: { access: 'reviewer' },
  assignedSummary: { access: 'reviewer' },
  assignmentCriteria: { access: 'admin' },
  assignmentValues: { access: 'admin' },
  compositeUser: { access: 'signedIn' },
  compositeUsers: { access: 'signedIn' },
  dashboardStats: { access: 'signedIn' },
  node: { access: 'signedIn', idType: 'User' },
  nodes: { access: 'signedIn', idType: 'User' },
  notificationCounts: { access: 'signedIn' },
  notifications: { access: 'signedIn' },
  reviewPeriods: { access: 'admin' },
  reviewPeriodPreview: { access: 'admin' },
  reviewPeriodTemplates: { access: 'admin' },
  reviewSettings: { access: 'admin' },
  unassignedConflicts: { access: 'admin' },
  reviewerStatus: { access: 'admin' },
  riskQueue: { access: 'admin' },
  riskSystems: { access: 'signedIn' },
  riskExport: { access: 'signedIn' },
  submissionStatus: { access: 'reviewer' },
  submissions: { access: 'admin' },
  uploads: { access: 'admin' },
  accessRuleSets: { access: 'admin' },
  accessExtracts: { access: 'admin' },
  accessAnalyses: { access: 'admin' },
  mappingProfiles: { access: 'admin' },
  users: { access: 'admin' },
  latestRiskAnalyses: { access: 'signedIn' },
  simulationExtractUsers: { access: 'admin' },
  simulationRisks: { access: 'admin' },
  simulationRoles: { access: 'admin' },
  compositeRoleNames: { access: 'admin' },
  simulationRuns: { access: 'admin' },
  roleWhatIf: { access: 'admin' },
  recentReviews: { access: 'signedIn' },
  allReviews: { access: 'signedIn' },
  dashboardTrend: { access: 'signedIn' },
  riskCategories: { access: 'signedIn' },
  periodEvidence: { access: 'admin', idType: 'ReviewPeriod' },
  auditChainVerification: { access: 'admin' },
  evidenceBundles: { access: 'admin', idType: 'ReviewPeriod' },
  periodReconciliation: { access: 'admin', idType: 'ReviewPeriod' },
  evidencePublicKey: { access: 'signedIn' },
  evidenceRetentionYears: { access: 'admin' },
  remediationItems: { access: 'admin' },
  openAiKeyStatus: { access: 'admin' },
  aiUsageStats: { access: 'admin' },
  aiBulkCategorization: { access: 'admin' },
  reassignments: { access: 'signedIn' },
  reassignmentOpenWork: { access: 'signedIn' },
  reassignmentReviewers: { access: 'signedIn' },
  reviewRules: { access: 'signedIn' },
  expiredMitigations: { access: 'admin' },
  consultQuestions: { access: 'signedIn' },
  askableUsers: { access: 'signedIn' },
  submissionReview: { access: 'admin', idType: 'Submission' },
};

const MUTATION: Record<string, Entry> = {
  // Wrong credentials (the dummy input) answer UNAUTHENTICATED: that is the answer, not a refusal.
  login: { access: 'public', allowedCodes: ['UNAUTHENTICATED'] },
  logout: { access: 'public', skipAllowed: 'ends the caller’s session' },
  changePassword: { access: 'authenticated', skipAllowed: 'changes the caller’s password' },
  approveSubmission: { access: 'admin', idType: 'Submission' },
  returnSubmission: { access: 'admin', idType: 'Submission' },
  closeReviewPeriod: { access: 'admin', idType: 'ReviewPeriod' },
  reopenReviewPeriod: { access: 'admin', idType: 'ReviewPeriod' },
  createReviewPeriod: { access: 'admin' },
  createReviewPeriodTemplate: { access: 'admin' },
  updateReviewPeriodTemplate: { access: 'admin', idType: 'ReviewPeriodTemplate' },
  updateReviewSettings: { access: 'admin' },
  deleteReviewPeriodTemplate: { access: 'admin', idType: 'ReviewPeriodTemplate' },
  createApiToken: { access: 'signedIn', sessionOnly: true },
  revokeApiToken: { access: 'signedIn', sessionOnly: true, idType: 'ApiToken' },
  setApiTokenSettings: { access: 'admin', sessionOnly: true },
  createAssignment: { access: 'admin' },
  deleteAssignment: { access: 'admin', idType: 'AssignmentCriteria' },
  createUser: { access: 'admin' },
  updateUser: { access: 'admin', idType: 'User' },
  resetUserPassword: { access: 'admin', idType: 'User' },
  setUserActive: { access: 'admin', idType: 'User' },
  sendNotification: { access: 'admin' },
  deleteNotification: { access: 'admin', idType: 'Notification' },
  markNotificationRead: { access: 'signedIn', idType: 'Notification' },
  markAllNotificationsRead: { access: 'signedIn' },
  saveDecisions: { access: 'signedIn' },
  saveCompositeRoleDecisions: { access: 'signedIn' },
  runRiskAnalysis: { access: 'signedIn' },
  runSimulation: { access: 'admin' },
  submitDecisions: { access: 'reviewer' },
  submitStageDecisions: { access: 'reviewer' },
  recallDecisions: { access: 'reviewer' },
  retryUpload: { access: 'admin', idType: 'DataUpload' },
  activateAccessRuleSet: { access: 'admin', idType: 'AccessRuleSet' },
  startAccessAnalysis: { access: 'admin', idType: 'AccessRuleSet' },
  sendAccessAnalysisToReview: { access: 'admin', idType: 'AccessAnalysis' },
  uploadFile: { access: 'admin', skipAllowed: 'would start loading a file' },
  previewUpload: { access: 'admin' },
  startPreviewedUpload: { access: 'admin' },
  deleteMappingProfile: { access: 'admin', idType: 'MappingProfile' },
  saveOpenAiKey: { access: 'admin', sessionOnly: true },
  validateOpenAiKey: { access: 'admin' },
  categorizeRisk: { access: 'signedIn' },
  decideAiSuggestion: { access: 'signedIn' },
  generateRiskProfile: { access: 'signedIn' },
  purgeRiskData: { access: 'admin', sessionOnly: true, skipAllowed: 'deletes all risk data (api/test/reports/purge.test.ts)' },
  startAiBulkCategorization: { access: 'admin', sessionOnly: true },
  saveAiSpendCap: { access: 'admin', sessionOnly: true },
  reassignWork: { access: 'signedIn' },
  saveReviewRules: { access: 'admin', sessionOnly: true },
  saveEvidenceRetention: { access: 'admin', sessionOnly: true },
  decideByFilter: { access: 'signedIn' },
  setRemediationStatus: { access: 'admin', idType: 'RemediationItem' },
  askQuestion: { access: 'signedIn', idType: 'RiskRow' },
  answerQuestion: { access: 'signedIn', idType: 'ConsultQuestion' },
};

const SUBSCRIPTION: Record<string, Entry & { topic: keyof PubSubEvents }> = {
  notificationAdded: { access: 'signedIn', topic: 'notification:added' },
  uploadProgress: { access: 'admin', idType: 'DataUpload', topic: 'upload:progress' },
  viewerSessionEnded: { access: 'authenticated', topic: 'session:ended' },
  reviewPeriodChanged: { access: 'signedIn', topic: 'period:changed' },
  dashboardChanged: { access: 'signedIn', topic: 'dashboard:changed' },
  riskDataPurged: { access: 'signedIn', topic: 'risk-data:purged' },
  aiBulkProgress: { access: 'admin', topic: 'ai-bulk:progress' },
  viewerSubmissionChanged: { access: 'reviewer', topic: 'review:submission-changed' },
  accessProgress: { access: 'admin', idType: 'AccessExtract', topic: 'access:progress' },
};

// ------------------------------------------------------------------ the rules
type Expected = 'allowed' | 'unauthenticated' | 'forbidden';

const ROLE: Record<Caller, 'none' | 'pending' | 'reviewer' | 'admin'> = {
  anonymous: 'none',
  deactivatedSession: 'none',
  deactivatedToken: 'none',
  pendingPasswordChange: 'pending',
  reviewer: 'reviewer',
  admin: 'admin',
  readToken: 'reviewer',
  fullToken: 'admin',
};

function expected(entry: Entry, caller: Caller, write: boolean, surface: 'rest' | 'graphql'): Expected {
  if (entry.access === 'public') {
    // GraphQL refuses a presented token that is no longer valid before anything runs, and every
    // mutation to a read token; REST lets anyone reach a public route (a read token may sign out).
    if (surface === 'graphql' && caller === 'deactivatedToken') return 'unauthenticated';
    if (surface === 'graphql' && caller === 'readToken' && write) return 'forbidden';
    return 'allowed';
  }
  const role = ROLE[caller];
  if (role === 'none') return 'unauthenticated';
  if (caller === 'readToken' && write) return 'forbidden';
  if ((caller === 'readToken' || caller === 'fullToken') && entry.sessionOnly) return 'forbidden';
  if (role === 'pending') return entry.access === 'authenticated' ? 'allowed' : 'forbidden';
  if (entry.access === 'admin') return role === 'admin' ? 'allowed' : 'forbidden';
  if (entry.access === 'reviewer') return role === 'reviewer' ? 'allowed' : 'forbidden';
  return 'allowed';
}

// ------------------------------------------------------------------- fixtures
let server: TestServer;
const clients = {} as Record<Caller, Client>;
const tokens = {} as Partial<Record<Caller, string>>;

function bearer(token: string): Client {
  const c = new Client(server.url);
  c.bearer = token;
  return c;
}

beforeAll(async () => {
  server = await startServer();
  const admin = await adminClient(server);
  clients.anonymous = new Client(server.url);
  clients.admin = admin;
  clients.reviewer = (await userClient(server, admin, 'reviewer')).client;
  clients.pendingPasswordChange = (await userClient(server, admin, 'reviewer', { changePassword: false })).client;

  // A reviewer's read token (users may create their own once an administrator allows it).
  expect((await admin.put('/api/tokens/settings', { usersMayCreateTokens: true })).status).toBe(200);
  const read = await clients.reviewer.post('/api/tokens', { name: 'matrix-read', scope: 'read' });
  expect(read.status).toBe(201);
  // The switch stays on, so a reviewer's POST /api/tokens is judged on access, not on the setting.
  tokens.readToken = read.body.token;
  clients.readToken = bearer(read.body.token);
  const full = await admin.post('/api/tokens', { name: 'matrix-full', scope: 'full' });
  expect(full.status).toBe(201);
  tokens.fullToken = full.body.token;
  clients.fullToken = bearer(full.body.token);

  // A deactivated administrator: signed in and holding a full token before the deactivation.
  const gone = await userClient(server, admin, 'admin');
  const goneToken = await gone.client.post('/api/tokens', { name: 'matrix-gone', scope: 'full' });
  expect(goneToken.status).toBe(201);
  expect((await admin.put(`/api/users/${gone.user.id}/deactivate`)).status).toBe(200);
  clients.deactivatedSession = gone.client;
  tokens.deactivatedToken = goneToken.body.token;
  clients.deactivatedToken = bearer(goneToken.body.token);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

// ------------------------------------------------------------------------ REST
describe('REST', () => {
  const discovered: { method: string; path: string }[] = [];

  beforeAll(async () => {
    const doc = await clients.anonymous.get('/api/openapi.json');
    expect(doc.status).toBe(200);
    for (const [p, ops] of Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)) {
      for (const m of Object.keys(ops)) discovered.push({ method: m.toUpperCase(), path: p.replace(/\{([A-Za-z_]+)\}/g, ':$1') });
    }
  });

  it('has a matrix entry for every route the app serves, and none for a route it does not', () => {
    const keys = discovered.map((r) => `${r.method} ${r.path}`);
    expect(keys.length).toBeGreaterThan(40);
    expect(
      keys.filter((k) => !(k in REST)),
      'routes without a matrix entry',
    ).toEqual([]);
    expect(
      Object.keys(REST).filter((k) => !keys.includes(k)),
      'matrix entries of no route',
    ).toEqual([]);
  });

  it('serves nothing outside /api but the routes known to be public by design', () => {
    // Fastify's own route table: the top-level entries of its tree.
    const tree = server.app.server.app.printRoutes({ commonPrefix: false });
    const top = [...tree.matchAll(/^[├└]── (\/\S*) \(/gm)].map((m) => m[1]!).filter((p) => !p.startsWith('/api'));
    expect(top.length).toBeGreaterThan(0);
    expect(top.sort()).toEqual(Object.keys(OUTSIDE_API).sort());
  });

  it('keeps /metrics closed to every caller: no session or API token opens it', async () => {
    for (const caller of CALLERS) expect([401, 404], caller).toContain((await clients[caller].get('/metrics')).status);
  });

  it('answers every route as the matrix says, for every caller', async () => {
    const found: string[] = [];
    let calls = 0;
    for (const { method, path } of discovered) {
      const entry = REST[`${method} ${path}`];
      if (!entry) continue;
      const url = path.replace(/:([A-Za-z_]+)/g, () => crypto.randomUUID());
      const write = method !== 'GET';
      for (const caller of CALLERS) {
        const want = expected(entry, caller, write, 'rest');
        if (want === 'allowed' && entry.skipAllowed) continue;
        const r = await clients[caller].request(method, url, write && method !== 'DELETE' ? {} : undefined);
        calls++;
        const where = `${method} ${path} as ${caller}`;
        if (r.status >= 500) found.push(`${where}: ${r.status} ${JSON.stringify(r.body)}`);
        else if (want === 'unauthenticated' && r.status !== 401) found.push(`${where}: expected 401, got ${r.status} ${JSON.stringify(r.body)}`);
        else if (want === 'forbidden' && r.status !== 403) found.push(`${where}: expected 403, got ${r.status} ${JSON.stringify(r.body)}`);
        else if (want === 'allowed' && (r.status === 401 || r.status === 403) && !entry.allowedStatuses?.includes(r.status)) {
          found.push(`${where}: allowed but refused ${r.status} ${JSON.stringify(r.body)}`);
        }
      }
    }
    expect(calls).toBeGreaterThan(discovered.length * 4);
    expect(found).toEqual([]);
  }, 120_000);
});

// --------------------------------------------------------------------- GraphQL
/** A well-formed id of `type` that names nothing (a risk row's id is a number, the others' a uuid). */
function globalId(type: string) {
  return encodeGlobalID(type, type === 'RiskRow' ? '999999999' : crypto.randomUUID());
}

function dummy(type: GraphQLInputType, entry: Entry): unknown {
  if (type instanceof GraphQLNonNull) return dummy(type.ofType, entry);
  if (type instanceof GraphQLList) return [];
  if (type instanceof GraphQLEnumType) return type.getValues()[0]!.name; // variables carry GraphQL's name (UPPER_CASE), not the internal value
  if (type instanceof GraphQLInputObjectType) {
    const o: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) {
      if (f.type instanceof GraphQLNonNull && f.defaultValue === undefined) o[f.name] = dummy(f.type, entry);
    }
    return o;
  }
  const scalar = type as GraphQLScalarType;
  switch (scalar.name) {
    case 'ID':
      return globalId(entry.idType ?? 'User');
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      // true: setApiTokenSettings keeps users allowed to create tokens, as the fixtures set it.
      return true;
    case 'DateTime':
      return new Date().toISOString();
    case 'Upload':
      return null;
    default:
      return 'x';
  }
}

function selection(type: GraphQLOutputType): string {
  const named = 'ofType' in type ? selection(type.ofType as GraphQLOutputType) : null;
  if (named !== null) return named;
  if (isLeafType(type)) return '';
  if (isAbstractType(type)) {
    const base = schema.getType('BaseError') as GraphQLObjectType;
    return schema.isSubType(type, base) ? ' { __typename ... on BaseError { code } }' : ' { __typename }';
  }
  return ' { __typename }';
}

/** A minimal operation for a root field: required arguments with dummy values, `__typename` or the scalar itself. */
function operation(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>, entry: Entry) {
  const required = field.args.filter((a) => a.type instanceof GraphQLNonNull && a.defaultValue === undefined);
  const decl = required.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const args = required.map((a) => `${a.name}: $${a.name}`).join(', ');
  const variables: Record<string, unknown> = {};
  for (const a of required) variables[a.name] = a.name === 'ids' ? [globalId(entry.idType ?? 'User')] : dummy(a.type, entry);
  const name = `Matrix_${kind}_${field.name}`;
  const query = `${kind} ${name}${decl ? `(${decl})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection(field.type)} }`;
  return { query, variables, upload: required.some((a) => String(a.type) === 'Upload!') };
}

/** The error codes of a GraphQL answer: top-level errors and a typed error result of the field. */
function codes(body: any, field: string): string[] {
  const out: string[] = [];
  for (const e of body?.errors ?? []) out.push(e?.extensions?.code ?? `NO_CODE(${e?.message})`);
  const v = body?.data?.[field];
  if (v && typeof v === 'object' && v.__typename === 'BaseError') out.push(v.code);
  return out;
}

function judge(where: string, want: Expected, status: number, got: string[], found: string[], entry: Entry) {
  const refusal = got.filter((c) => c === 'UNAUTHENTICATED' || c === 'FORBIDDEN').filter((c) => want !== 'allowed' || !entry.allowedCodes?.includes(c));
  if (status >= 500 || got.includes('INTERNAL_SERVER_ERROR')) found.push(`${where}: internal error (${status}) ${got.join(',')}`);
  else if (want === 'unauthenticated' && !refusal.includes('UNAUTHENTICATED'))
    found.push(`${where}: expected UNAUTHENTICATED, got ${got.join(',') || 'no error'}`);
  else if (want === 'forbidden' && !refusal.includes('FORBIDDEN')) found.push(`${where}: expected FORBIDDEN, got ${got.join(',') || 'no error'}`);
  else if (want === 'allowed' && refusal.length) found.push(`${where}: allowed but refused ${refusal.join(',')}`);
}

const ROOTS = [
  ['query', () => schema.getQueryType()!, QUERY],
  ['mutation', () => schema.getMutationType()!, MUTATION],
  ['subscription', () => schema.getSubscriptionType()!, SUBSCRIPTION],
] as const;

describe('GraphQL', () => {
  it('has a matrix entry for every root field of the schema, and none for a field it does not have', () => {
    for (const [kind, root, matrix] of ROOTS) {
      const fields = Object.keys(root().getFields());
      expect(
        fields.filter((f) => !(f in matrix)),
        `${kind} fields without a matrix entry`,
      ).toEqual([]);
      expect(
        Object.keys(matrix).filter((f) => !fields.includes(f)),
        `${kind} matrix entries of no field`,
      ).toEqual([]);
    }
  });

  async function multipartUpload(caller: Caller, query: string, documentId: string) {
    const form = new FormData();
    form.append('operations', JSON.stringify({ documentId, query, variables: { file: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'matrix.csv');
    const c = clients[caller];
    const headers: Record<string, string> = { 'x-graphql-yoga-csrf': '1' };
    if (c.cookies.size) headers.cookie = c.cookieHeader;
    if (c.bearer) headers.authorization = `Bearer ${c.bearer}`;
    const res = await fetch(server.url + '/graphql', { method: 'POST', headers, body: form });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  }

  it('answers every query and mutation as the matrix says, for every caller', async () => {
    const found: string[] = [];
    const ops: { kind: string; field: string; entry: Entry; query: string; variables: Record<string, unknown>; upload: boolean; id: string }[] = [];
    for (const [kind, root, matrix] of ROOTS) {
      if (kind === 'subscription') continue;
      for (const field of Object.values(root().getFields())) {
        const entry = (matrix as Record<string, Entry>)[field.name];
        if (!entry) continue;
        const op = operation(kind, field, entry);
        ops.push({ kind, field: field.name, entry, ...op, id: '' });
      }
    }
    // Anonymous callers may only send persisted operations: every caller sends them that way.
    for (const op of ops) op.id = server.persist(op.query);
    let calls = 0;
    for (const op of ops) {
      for (const caller of CALLERS) {
        const want = expected(op.entry, caller, op.kind === 'mutation', 'graphql');
        if (want === 'allowed' && op.entry.skipAllowed) continue;
        const r = op.upload ? await multipartUpload(caller, op.query, op.id) : await clients[caller].gqlPersisted(op.id, op.variables);
        calls++;
        judge(`${op.kind} ${op.field} as ${caller}`, want, r.status, codes(r.body, op.field), found, op.entry);
      }
    }
    expect(calls).toBeGreaterThan(ops.length * 4);
    expect(found).toEqual([]);
  }, 120_000);

  function ws(caller: Caller): WsClient {
    const c = clients[caller];
    const token = tokens[caller];
    return createClient({
      url: server.url.replace('http', 'ws') + '/graphql',
      lazy: false,
      retryAttempts: 0,
      // A refused connection is an expected outcome here, reported through the subscription's sink.
      onNonLazyError: () => {},
      connectionParams: token ? { authorization: `Bearer ${token}` } : undefined,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, c.cookies.size && !token ? { headers: { cookie: c.cookieHeader } } : {});
        }
      },
    });
  }

  it('starts every subscription for the allowed callers only', async () => {
    const found: string[] = [];
    const root = schema.getSubscriptionType()!;
    for (const field of Object.values(root.getFields())) {
      const entry = SUBSCRIPTION[field.name];
      if (!entry) continue;
      const op = operation('subscription', field, entry);
      const documentId = server.persist(op.query);
      for (const caller of CALLERS) {
        const want = expected(entry, caller, false, 'graphql');
        const client = ws(caller);
        const before = server.app.deps.pubsub.listening(entry.topic);
        type Outcome = { kind: 'started' } | { kind: 'result'; codes: string[] } | { kind: 'closed'; code: number } | { kind: 'silent' };
        const outcome = await new Promise<Outcome>((resolve) => {
          let done = false;
          const finish = (v: Parameters<typeof resolve>[0]) => {
            if (!done) {
              done = true;
              clearInterval(poll);
              clearTimeout(guard);
              resolve(v);
            }
          };
          const results: string[] = [];
          client.subscribe({ query: op.query, variables: op.variables, documentId } as never, {
            next: (v) => results.push(...codes(v, field.name)),
            error: (e) => {
              if (Array.isArray(e)) finish({ kind: 'result', codes: e.map((x: any) => x?.extensions?.code ?? 'NO_CODE') });
              else finish({ kind: 'closed', code: (e as { code?: number })?.code ?? 0 });
            },
            complete: () => finish({ kind: 'result', codes: results }),
          });
          const poll = setInterval(() => {
            if (server.app.deps.pubsub.listening(entry.topic) > before) finish({ kind: 'started' });
          }, 20);
          // A fail-safe, not a timing assertion: neither started nor answered is reported as such.
          const guard = setTimeout(() => finish({ kind: 'silent' }), 15_000);
        });
        await client.dispose();
        // The next caller is judged by the count rising again: wait for this one's to end.
        await until(() => server.app.deps.pubsub.listening(entry.topic) <= before, 15_000);
        const where = `subscription ${field.name} as ${caller}`;
        if (outcome.kind === 'started') {
          if (want !== 'allowed') found.push(`${where}: expected ${want}, but the subscription started`);
        } else if (outcome.kind === 'silent') {
          found.push(`${where}: neither started nor answered`);
        } else if (outcome.kind === 'closed') {
          // A connection refused at once (an invalid token) is a refusal of an unauthenticated caller.
          if (want !== 'unauthenticated') found.push(`${where}: expected ${want}, got a closed connection (${outcome.code})`);
        } else {
          judge(where, want, 200, outcome.codes, found, entry);
        }
      }
    }
    expect(found).toEqual([]);
  }, 120_000);
});

describe('node(id:) of a record that does not exist', () => {
  // The matrix calls node with a User id; every Node type's loader is checked here.
  const ids: Record<string, string> = {
    RiskRow: '999999999',
    CompositeUser: 'nobody-at-all',
    CompositeRiskGroup: JSON.stringify(['nobody', 'NO-RISK']),
    CompositeRole: JSON.stringify(['nobody', 'NO-RISK', 'NO-ROLE']),
  };
  // A record that does not exist and one the caller may not see answer alike: null, no error
  // (the 'not visible' describe below checks the second).
  const summary = (body: any, key: string) => (body.errors ? body.errors.map((e: any) => e.extensions?.code) : JSON.stringify(body.data[key]));
  it('answers null, never an error, for every Node type', async () => {
    const types = Object.keys(NODE_ID_FORMATS);
    const answers: Record<string, unknown> = {};
    for (const type of types) {
      const id = encodeGlobalID(type, ids[type] ?? crypto.randomUUID());
      const one = await clients.admin.gql(`query { node(id: ${JSON.stringify(id)}) { __typename id } }`);
      const many = await clients.admin.gql(`query { nodes(ids: [${JSON.stringify(id)}]) { __typename id } }`);
      answers[type] = { node: summary(one.body, 'node'), nodes: summary(many.body, 'nodes') };
    }
    expect(answers).toEqual(Object.fromEntries(types.map((t) => [t, { node: 'null', nodes: '[null]' }])));
  });
});

describe('node(id:) of a record the caller may not see', () => {
  // Null with no hint of its type (__typename included),
  // the same answer as for a record that does not exist.
  it("answers a reviewer null, no error and no __typename, for other people's records of every kind it can name", async () => {
    const admin = clients.admin;
    const adminId = (await admin.gql('{ viewer { id } }')).body.data.viewer.id;
    const reviewerGid: string = (await clients.reviewer.gql('{ viewer { id } }')).body.data.viewer.id;
    const reviewerId = Buffer.from(reviewerGid, 'base64').toString().split(':')[1]!;
    const token = (await admin.post('/api/tokens', { name: 'not-yours' })).body.apiToken.id;
    const adminUuid = Buffer.from(adminId, 'base64').toString().split(':')[1]!;
    const note = (await admin.post('/api/notifications', { title: 'Private', message: 'm', targetType: 'specific', targetUserId: adminUuid })).body.id;
    const criteria = (await admin.post('/api/assignment-criteria', { reviewerId, criteriaType: 'system', criteriaValue: 'NOT-LOADED' })).body.id;
    const ids: Record<string, string> = {
      User: adminId,
      ApiToken: encodeGlobalID('ApiToken', token),
      Notification: encodeGlobalID('Notification', note),
      AssignmentCriteria: encodeGlobalID('AssignmentCriteria', String(criteria)),
    };
    for (const [type, id] of Object.entries(ids)) {
      // The administrator sees each record, so each id names something real.
      expect((await admin.gql(`query($id: ID!) { node(id: $id) { __typename } }`, { id })).body, type).toEqual({ data: { node: { __typename: type } } });
      const one = await clients.reviewer.gql(`query($id: ID!) { node(id: $id) { __typename id } }`, { id });
      expect(one.body, type).toEqual({ data: { node: null } });
      const many = await clients.reviewer.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }`, { ids: [id] });
      expect(many.body, type).toEqual({ data: { nodes: [null] } });
    }
  });
});

describe('the matrix itself', () => {
  it('covers every caller', () => {
    const restCells = Object.keys(REST).length * CALLERS.length;
    const gqlCells = (Object.keys(QUERY).length + Object.keys(MUTATION).length + Object.keys(SUBSCRIPTION).length) * CALLERS.length;
    expect(restCells).toBeGreaterThan(0);
    expect(gqlCells).toBeGreaterThan(0);
    console.log(
      `permission matrix: ${Object.keys(REST).length} routes × ${CALLERS.length} callers = ${restCells}; ` +
        `${Object.keys(QUERY).length + Object.keys(MUTATION).length + Object.keys(SUBSCRIPTION).length} fields × ${CALLERS.length} callers = ${gqlCells}`,
    );
  });
});
