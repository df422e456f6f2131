import type { PreloadedQuery } from 'react-relay';
import assignmentManagerQuery, { type AssignmentManagerQuery } from '../../__generated__/AssignmentManagerQuery.graphql';
import type { CompositeViewQuery } from '../../__generated__/CompositeViewQuery.graphql';
import reviewerStatusQuery, { type ReviewerStatusQuery } from '../../__generated__/ReviewerStatusQuery.graphql';
import riskQueueQuery, { type RiskFilterInput, type RiskQueueQuery } from '../../__generated__/RiskQueueQuery.graphql';
import { RISK_PAGE_SIZE, type CursorPaging } from '../../domain/risks/riskPaging';
import { prepareQuery, type RouteSession } from '../../router/routeSession';
import { prepareCompositeView } from '../composite-view/compositeViewLoader';
import { filterInputOf, queueAddress, riskReviewTab, type QueueFilters, type RiskReviewTab } from './riskQueueAddress';

export { RISK_REVIEW_TABS, riskReviewTab, type RiskReviewTab } from './riskQueueAddress';

/**
 * The code of the tabs other than Risk Overview: chunks of their own (so
 * the queue's first load does not wait for the other tabs' dialogs and
 * comboboxes). The loader starts the one of the address's tab beside its query.
 */
export const RISK_REVIEW_TAB_CODE = {
  detailed: () => import('../composite-view/CompositeView'),
  assignments: () => import('../../domain/assignments/AssignmentManager'),
  status: () => import('./ReviewerStatus'),
};

export { EMPTY_FILTERS, type QueueFilters } from './riskQueueAddress';

/** The filter as the API takes it (empty fields left out, enum values in GraphQL's UPPER_CASE). */
export function toFilterInput(f: QueueFilters): RiskFilterInput {
  return filterInputOf(f) as RiskFilterInput;
}

/** The risk queue's variables for its filters and a page. */
export function riskQueueVariables(filters: QueueFilters, paging: CursorPaging): RiskQueueQuery['variables'] {
  return { filter: toFilterInput(filters), ...paging, first: RISK_PAGE_SIZE };
}

function addressVariables(params: URLSearchParams): RiskQueueQuery['variables'] {
  const { filters, page } = queueAddress(params);
  return riskQueueVariables(filters, { page, after: null, before: null });
}

/** The queries of the tab on screen; the others are prepared when their tab is chosen. */
export type RiskReviewPrepared = {
  tab: RiskReviewTab;
  riskQueue?: PreloadedQuery<RiskQueueQuery>;
  compositeView?: PreloadedQuery<CompositeViewQuery>;
  assignments?: PreloadedQuery<AssignmentManagerQuery>;
  reviewerStatus?: PreloadedQuery<ReviewerStatusQuery>;
};

/** Risk Review's administrator tabs (reviewers get My Assigned Risks at the same address instead). */
export function prepareRiskReview(session: RouteSession, url: URL): RiskReviewPrepared | null {
  if (session.viewer.role === 'REVIEWER') return null;
  const tab = riskReviewTab(url.searchParams);
  if (tab !== 'overview') {
    RISK_REVIEW_TAB_CODE[tab]().catch(() => {
      // React.lazy loads it again and shows the route's error state if it still fails.
    });
  }
  switch (tab) {
    case 'overview':
      return {
        tab,
        // The address's filters and page: the same variables the preload script sent early
        // (riskQueueAddress.ts), so relay/network.ts takes its answer.
        riskQueue: prepareQuery<RiskQueueQuery>(session, riskQueueQuery, addressVariables(url.searchParams)),
      };
    case 'detailed':
      return { tab, compositeView: prepareCompositeView(session) };
    case 'assignments':
      return { tab, assignments: prepareQuery<AssignmentManagerQuery>(session, assignmentManagerQuery, {}) };
    case 'status':
      return { tab, reviewerStatus: prepareQuery<ReviewerStatusQuery>(session, reviewerStatusQuery, {}) };
  }
}
