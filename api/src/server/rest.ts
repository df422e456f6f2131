// The REST adapter (SPEC §7): every /api route and the OpenAPI document describing them.
import fp from 'fastify-plugin';
import { routeSchema } from '../rest/edge.js';
import { collectRoutes, openApiDocument } from '../rest/openapi.js';
import { OpenApiJson } from '../rest/replies.js';
import { registerAuthRoutes } from '../rest/auth.js';
import { registerUserRoutes } from '../rest/users.js';
import { registerNotificationRoutes } from '../rest/notifications.js';
import { registerPeriodRoutes } from '../rest/periods.js';
import { registerAssignmentRoutes } from '../rest/assignments.js';
import { registerReassignmentRoutes } from '../rest/reassignments.js';
import { registerRiskRoutes } from '../rest/risks.js';
import { registerDecisionRoutes } from '../rest/decisions.js';
import { registerDashboardRoutes } from '../rest/dashboard.js';
import { registerReviewerStatusRoutes } from '../rest/reviewer-status.js';
import { registerUploadRoutes } from '../rest/uploads.js';
import { registerTokenRoutes } from '../rest/tokens.js';
import { registerRiskAnalysisRoutes } from '../rest/risk-analysis.js';
import { registerSimulationRoutes } from '../rest/simulation.js';
import { registerReviewHistoryRoutes } from '../rest/review-history.js';
import { registerEvidenceRoutes } from '../rest/evidence.js';
import { registerRemediationRoutes } from '../rest/remediation.js';
import { registerSettingsRoutes } from '../rest/settings.js';
import { registerAiRoutes } from '../rest/ai.js';
import { registerPurgeRoutes } from '../rest/purge.js';
import { registerAiBulkRoutes } from '../rest/ai-bulk.js';
import { registerAccessRoutes } from '../rest/access/index.js';

export const rest = fp(
  async (app) => {
    // Collected as they are added (onRoute): every /api route is registered below.
    const routes = collectRoutes(app);
    registerAuthRoutes(app);
    registerUserRoutes(app);
    registerNotificationRoutes(app);
    registerPeriodRoutes(app);
    registerAssignmentRoutes(app);
    registerReassignmentRoutes(app);
    registerRiskRoutes(app);
    registerDecisionRoutes(app);
    registerDashboardRoutes(app);
    registerReviewerStatusRoutes(app);
    await registerUploadRoutes(app);
    registerTokenRoutes(app);
    registerRiskAnalysisRoutes(app);
    registerSimulationRoutes(app);
    registerReviewHistoryRoutes(app);
    registerEvidenceRoutes(app);
    registerRemediationRoutes(app);
    registerSettingsRoutes(app);
    registerAiRoutes(app);
    registerPurgeRoutes(app);
    registerAiBulkRoutes(app);
    registerAccessRoutes(app);
    app.get('/api/openapi.json', { config: { access: 'public' }, schema: routeSchema({ summary: 'This document (OpenAPI 3.1)', reply: OpenApiJson }) }, async () => openApiDocument(routes));
  },
  { name: 'rest' },
);
