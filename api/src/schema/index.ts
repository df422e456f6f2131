// Imports every domain file for its side effects, then builds the schema.
// Only the server and the print script import this module.
import { builder } from './builder.js';
import { describeSchema } from './descriptions.js';
import './users.js';
import './notifications.js';
import './periods.js';
import './assignments.js';
import './reassignments.js';
import './risks.js';
import './decisions.js';
import './recommendations.js';
import './approval-review.js';
import './dashboard.js';
import './reviewer-status.js';
import './composite-view.js';
import './uploads.js';
import './upload-preview.js';
import './tokens.js';
import './risk-analysis.js';
import './simulation.js';
import './review-history.js';
import './evidence.js';
import './remediation.js';
import './exports.js';
import './settings.js';
import './ai.js';
import './purge.js';
import './ai-bulk.js';
import './access/index.js';

// Descriptions the definitions leave out (descriptions.ts), filled in before anyone reads the schema.
export const schema = describeSchema(builder.toSchema({ sortSchema: true }));
