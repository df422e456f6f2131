// REST: risk simulation (SPEC §7 /api/simulation/run) and the role-wide what-if.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as simulation from '../../services/reports/simulation.js';
import { roleWhatIf } from '../../services/reports/role-what-if.js';
import { isoDate, routeSchema, text, wholeNumber } from '../edge.js';

const AccessItemJson = z.strictObject({
  id: z.string(),
  roleProfile: z.string(),
  compositeBusinessRole: z.string(),
  function: z.string(),
  functionDescription: z.string(),
  ruleId: z.string(),
  authObject: z.string(),
  field: z.string(),
  valueFrom: z.string(),
  valueTo: z.string(),
  system: z.string(),
  removed: z.boolean().describe('Gone in the simulation'),
});
const PathJson = z.strictObject({
  riskId: z.string(),
  ruleId: z.string(),
  functionId: z.string(),
  system: z.string(),
  action: z.string(),
  role: z.string().describe('The single role granting the action'),
  composite: z.string().describe('The composite role it is held through; empty when held directly'),
  resource: z.string(),
  resourceExtn: z.string(),
  valueFrom: z.string(),
  valueTo: z.string(),
});
const ConflictJson = z.strictObject({ riskId: z.string(), riskDescription: z.string(), riskLevel: z.string(), paths: z.array(PathJson) });
const EngineJson = z
  .strictObject({
    ruleSetId: z.uuid(),
    ruleSetName: z.string(),
    ruleSetVersion: z.number().int(),
    asOf: z.iso.date(),
    systems: z.array(z.string()).describe('The systems whose current extract holds the user'),
    appear: z.array(ConflictJson).describe('Conflicts that would appear, with their paths after the changes'),
    go: z.array(ConflictJson).describe('Conflicts that would go, with their paths as the roles are now'),
    remain: z.array(ConflictJson).describe('Conflicts held either way, with their paths after the changes'),
  })
  .nullable()
  .describe("The access-analysis engine's answer when a loaded system extract holds the user (the items are then its rows of the risk); null on imported rows");
const ResultJson = z.strictObject({
  simulationId: z.uuid(),
  userId: z.string(),
  riskId: z.string(),
  compositeRolesOnly: z.boolean(),
  match: z.boolean(),
  originalCount: z.number().int(),
  simulatedCount: z.number().int(),
  riskResolved: z.boolean().describe('A needed function is granted by no kept role'),
  neededFunctions: z.array(z.string()),
  missingFunctions: z.array(z.string()),
  removedRoles: z.array(z.string()),
  tableComparison: z.strictObject({ originalData: z.array(AccessItemJson), simulationData: z.array(AccessItemJson) }),
  createdAt: isoDate(),
  engine: EngineJson,
});
const RunJson = z.strictObject({
  id: z.uuid(),
  userId: z.string(),
  riskId: z.string(),
  compositeRolesOnly: z.boolean(),
  match: z.boolean().nullable(),
  scenarioCount: z.number().int(),
  runBy: z.string(),
  createdAt: isoDate(),
});
const WhatIfJson = z.strictObject({
  compositeBusinessRole: z.string(),
  usersAffected: z.number().int(),
  risksLost: z.number().int(),
  usersLosingRisks: z.number().int(),
  usersTurningGreen: z.number().int(),
  users: z.array(
    z.strictObject({
      userId: z.string(),
      userName: z.string(),
      risksHeld: z.number().int(),
      risksLost: z.number().int(),
      redBefore: z.boolean(),
      redAfter: z.boolean(),
    }),
  ),
});

const RunsQuery = z.object({ limit: wholeNumber('limit', 1, 100).optional() });
const WhatIfQuery = z.object({ compositeBusinessRole: text('compositeBusinessRole', 500).optional() });

export function registerSimulationRoutes(app: FastifyInstance) {
  app.post(
    '/api/simulation/run',
    { config: { access: 'admin' }, schema: routeSchema({ body: simulation.simulationInputSchema, reply: ResultJson }) },
    async (req) => simulation.runSimulation(req.ctx.caller!, req.body),
  );

  app.get<{ Querystring: z.infer<typeof RunsQuery> }>(
    '/api/simulation/runs',
    { config: { access: 'admin' }, schema: routeSchema({ querystring: RunsQuery, reply: z.array(RunJson).describe('Newest first') }) },
    async (req) => simulation.recentSimulations(req.ctx.caller!, req.query.limit ?? 20),
  );

  app.get<{ Querystring: z.infer<typeof WhatIfQuery> }>(
    '/api/simulation/role-what-if',
    { config: { access: 'admin' }, schema: routeSchema({ querystring: WhatIfQuery, reply: WhatIfJson }) },
    async (req) => roleWhatIf(req.ctx.caller!, req.query.compositeBusinessRole ?? ''),
  );
}
