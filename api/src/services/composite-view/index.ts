// The composite-role risk view (SPEC §2 'Risk Review'): scope.ts (who is
// looking, paging), users.ts, risk-groups.ts, roles.ts (the three levels and
// the Authorization Details), decisions.ts (deciding per user and role).
export * from './scope.js';
export * from './users.js';
export * from './risk-groups.js';
export * from './roles.js';
export * from './decisions.js';
