import type { PreloadedQuery } from 'react-relay';
import allReviewsRouteQuery, { type AllReviewsRouteQuery } from '../../__generated__/AllReviewsRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

/** SPEC §9: All Reviews page sizes; 100 by default, from page 1. */
export const PAGE_SIZES = [50, 100, 200, 500] as const;
export const DEFAULT_PAGE_SIZE = 100;

export type ReviewFilters = {
  search: string;
  decision: '' | 'RETAIN' | 'REMOVE';
  shared: '' | 'SHARED' | 'UNIQUE';
  pageSize: number;
};

export const EMPTY_REVIEW_FILTERS: ReviewFilters = { search: '', decision: '', shared: '', pageSize: DEFAULT_PAGE_SIZE };

/** The query's variables for the filters and a page. */
export function allReviewsVariables(f: ReviewFilters, page: number): AllReviewsRouteQuery['variables'] {
  return {
    first: f.pageSize,
    page,
    search: f.search.trim() || null,
    decision: f.decision || null,
    shared: f.shared || null,
  };
}

export type AllReviewsPrepared = { query: PreloadedQuery<AllReviewsRouteQuery> };

/** The first page, unfiltered: administrators everyone's decisions, reviewers their own (the server decides). */
export function prepareAllReviews(session: RouteSession): AllReviewsPrepared {
  return { query: prepareQuery<AllReviewsRouteQuery>(session, allReviewsRouteQuery, allReviewsVariables(EMPTY_REVIEW_FILTERS, 1)) };
}
