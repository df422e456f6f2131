// The REST adapter (SPEC §7): every /api route and the OpenAPI document describing them,
// and /.well-known/grc-evidence-key (the public key that verifies evidence bundles).
import fp from 'fastify-plugin';
import { routeSchema } from '../rest/edge.js';
import { collectRoutes, openApiDocument } from '../rest/openapi.js';
import { OpenApiJson } from '../rest/replies.js';
import { registerAuthRoutes } from '../rest/identity/auth.js';
import { registerUserRoutes } from '../rest/identity/users.js';
import { registerNotificationRoutes } from '../rest/identity/notifications.js';
import { registerPeriodRoutes } from '../rest/review/periods.js';
import { registerPeriodTemplateRoutes } from '../rest/review/period-templates.js';
import { registerAssignmentRoutes } from '../rest/review/assignments.js';
import { registerReassignmentRoutes } from '../rest/review/reassignments.js';
import { registerRiskRoutes } from '../rest/review/risks.js';
import { registerDecisionRoutes } from '../rest/review/decisions.js';
import { registerQuestionRoutes } from '../rest/review/questions.js';
import { registerDashboardRoutes } from '../rest/reports/dashboard.js';
import { registerReviewerStatusRoutes } from '../rest/review/reviewer-status.js';
import { registerUploadRoutes } from '../rest/uploads/uploads.js';
import { registerTokenRoutes } from '../rest/identity/tokens.js';
import { registerRiskAnalysisRoutes } from '../rest/reports/risk-analysis.js';
import { registerSimulationRoutes } from '../rest/reports/simulation.js';
import { registerReviewHistoryRoutes } from '../rest/reports/review-history.js';
import { registerEvidenceRoutes } from '../rest/reports/evidence.js';
import { registerEvidenceBundleRoutes } from '../rest/reports/evidence-bundle.js';
import type { AppDeps } from '../context.js';
import { registerRemediationRoutes } from '../rest/reports/remediation.js';
import { registerSettingsRoutes } from '../rest/identity/settings.js';
import { registerAiRoutes } from '../rest/ai/ai.js';
import { registerPurgeRoutes } from '../rest/uploads/purge.js';
import { registerAiBulkRoutes } from '../rest/ai/ai-bulk.js';
import { registerAccessRoutes } from '../rest/access/index.js';
import { registerAuditRoutes } from '../rest/audit/verify.js';
import { registerReviewSettingsRoutes } from '../rest/review/review-settings.js';

export const rest = fp<{ deps: AppDeps }>(
  async (app, { deps }) => {
    // Collected as they are added (onRoute): every /api route is registered below.
    const routes = collectRoutes(app);
    registerAuthRoutes(app);
    registerUserRoutes(app);
    registerNotificationRoutes(app);
    registerPeriodRoutes(app);
    registerPeriodTemplateRoutes(app);
    registerAssignmentRoutes(app);
    registerReassignmentRoutes(app);
    registerRiskRoutes(app);
    registerDecisionRoutes(app);
    registerQuestionRoutes(app);
    registerDashboardRoutes(app);
    registerReviewerStatusRoutes(app);
    await registerUploadRoutes(app);
    registerTokenRoutes(app);
    registerRiskAnalysisRoutes(app);
    registerSimulationRoutes(app);
    registerReviewHistoryRoutes(app);
    registerEvidenceRoutes(app);
    registerEvidenceBundleRoutes(app, deps);
    registerRemediationRoutes(app);
    registerSettingsRoutes(app);
    registerAiRoutes(app);
    registerPurgeRoutes(app);
    registerAiBulkRoutes(app);
    registerAccessRoutes(app);
    registerAuditRoutes(app);
    registerReviewSettingsRoutes(app);
    app.get(
      '/api/openapi.json',
      { config: { access: 'public' }, schema: routeSchema({ summary: 'This document (OpenAPI 3.1)', reply: OpenApiJson }) },
      async () => openApiDocument(routes),
    );
  },
  { name: 'rest' },
);
