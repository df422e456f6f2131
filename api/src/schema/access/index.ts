// The access risk analysis engine in GraphQL, administrators only.
import './rule-sets.js';
import './extracts.js';
import './analyses.js';
import './rule-set-browse.js';
