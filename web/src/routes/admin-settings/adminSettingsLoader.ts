import type { PreloadedQuery } from 'react-relay';
import adminSettingsRouteQuery, { type AdminSettingsRouteQuery } from '../../__generated__/AdminSettingsRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

export type AdminSettingsPrepared = { query: PreloadedQuery<AdminSettingsRouteQuery> };

/** The key's status and the usage of the last 30 days (administrators only; others are sent away). */
export function prepareAdminSettings(session: RouteSession): AdminSettingsPrepared | null {
  if (session.viewer.role !== 'ADMIN') return null;
  return { query: prepareQuery<AdminSettingsRouteQuery>(session, adminSettingsRouteQuery, {}) };
}
