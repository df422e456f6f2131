import type { PreloadedQuery } from 'react-relay';
import uploadRouteQuery, { type UploadRouteQuery } from '../../__generated__/UploadRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** Uploads listed per page. */
export const HISTORY_PAGE = 20;

export type UploadPrepared = { query: PreloadedQuery<UploadRouteQuery> };

/** The upload history; administrators only (nothing is asked for anyone else). */
export function prepareUpload(session: RouteSession): UploadPrepared | null {
  if (session.viewer.role !== 'ADMIN') return null;
  return { query: prepareQuery<UploadRouteQuery>(session, uploadRouteQuery, { count: HISTORY_PAGE }) };
}
