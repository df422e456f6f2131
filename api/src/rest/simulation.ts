// REST: risk simulation (SPEC §7 /api/simulation/run) and the role-wide what-if.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as simulation from '../services/simulation.js';
import { roleWhatIf } from '../services/role-what-if.js';
import { routeSchema, text, wholeNumber } from './edge.js';

const RunsQuery = z.object({ limit: wholeNumber('limit', 1, 100).optional() });
const WhatIfQuery = z.object({ compositeBusinessRole: text('compositeBusinessRole', 500).optional() });

export function registerSimulationRoutes(app: FastifyInstance) {
  app.post('/api/simulation/run', { config: { access: 'admin' }, schema: routeSchema({ body: simulation.simulationInputSchema }) }, async (req) =>
    simulation.runSimulation(req.ctx.prisma, req.ctx.actor, req.ctx.viewer!, req.body),
  );

  app.get<{ Querystring: z.infer<typeof RunsQuery> }>('/api/simulation/runs', { config: { access: 'admin' }, schema: routeSchema({ querystring: RunsQuery }) }, async (req) =>
    simulation.recentSimulations(req.ctx.prisma, req.query.limit ?? 20),
  );

  app.get<{ Querystring: z.infer<typeof WhatIfQuery> }>(
    '/api/simulation/role-what-if',
    { config: { access: 'admin' }, schema: routeSchema({ querystring: WhatIfQuery }) },
    async (req) => roleWhatIf(req.ctx.prisma, req.ctx.viewer!, req.query.compositeBusinessRole ?? ''),
  );
}
