// REST: the access risk analysis engine's routes, administrators only.
import type { FastifyInstance } from 'fastify';
import { registerRuleSetRoutes } from './rule-sets.js';
import { registerExtractRoutes } from './extracts.js';
import { registerAnalysisRoutes } from './analyses.js';

/** After registerUploadRoutes, which registers the multipart parser these uploads use. */
export function registerAccessRoutes(app: FastifyInstance) {
  registerRuleSetRoutes(app);
  registerExtractRoutes(app);
  registerAnalysisRoutes(app);
}
