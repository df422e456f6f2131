import type { PreloadedQuery } from 'react-relay';
import riskSimulationRouteQuery, { type RiskSimulationRouteQuery } from '../../__generated__/RiskSimulationRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** Recent runs shown under the setup. */
export const RECENT_RUNS = 5;

export type RiskSimulationPrepared = { query: PreloadedQuery<RiskSimulationRouteQuery> };

/** The recent runs; administrators only (nothing is asked for anyone else). */
export function prepareRiskSimulation(session: RouteSession): RiskSimulationPrepared | null {
  if (session.viewer.role !== 'ADMIN') return null;
  return { query: prepareQuery<RiskSimulationRouteQuery>(session, riskSimulationRouteQuery, { runs: RECENT_RUNS }) };
}
