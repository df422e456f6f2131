// Imports every domain file for its side effects, then builds the schema.
// Only the server and the print script import this module.
import { builder } from './builder.js';
import { describeSchema } from './descriptions.js';
import './identity/users.js';
import './identity/notifications.js';
import './review/periods.js';
import './review/period-preview.js';
import './review/period-templates.js';
import './review/assignments.js';
import './review/reassignments.js';
import './review/risks.js';
import './review/decisions.js';
import './review/stages.js';
import './review/questions.js';
import './review/recommendations.js';
import './review/approval-review.js';
import './review/review-settings.js';
import './reports/dashboard.js';
import './review/reviewer-status.js';
import './review/composite-view.js';
import './uploads/uploads.js';
import './uploads/upload-preview.js';
import './identity/tokens.js';
import './reports/risk-analysis.js';
import './reports/simulation.js';
import './reports/review-history.js';
import './reports/evidence.js';
import './reports/evidence-bundles.js';
import './reports/remediation.js';
import './reports/exports.js';
import './identity/settings.js';
import './ai/ai.js';
import './uploads/purge.js';
import './ai/ai-bulk.js';
import './access/index.js';
import './audit/chain.js';

// The generated structures' descriptions (descriptions.ts), filled in before anyone reads the schema.
export const schema = describeSchema(builder.toSchema({ sortSchema: true }));
