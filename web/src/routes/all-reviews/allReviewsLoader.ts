import type { PreloadedQuery } from 'react-relay';
import allReviewsRouteQuery, { type AllReviewsRouteQuery } from '../../__generated__/AllReviewsRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';
import { readListAddress } from '../../router/listAddress';

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

/** The list's filters as the address names them (`size` the page size). */
export const REVIEW_ADDRESS_KEYS = ['search', 'decision', 'shared', 'size'] as const;

/** The filters and page in the address (a value it does not know is no filter). */
export function reviewAddress(params: URLSearchParams): { filters: ReviewFilters; page: number } {
  const { values, page } = readListAddress(params, REVIEW_ADDRESS_KEYS);
  const size = Number(values.size);
  return {
    filters: {
      search: values.search,
      decision: values.decision === 'RETAIN' || values.decision === 'REMOVE' ? values.decision : '',
      shared: values.shared === 'SHARED' || values.shared === 'UNIQUE' ? values.shared : '',
      pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    },
    page,
  };
}

/** The address's values of the filters (the default page size left out). */
export function reviewAddressValues(f: ReviewFilters): Record<(typeof REVIEW_ADDRESS_KEYS)[number], string> {
  return { search: f.search, decision: f.decision, shared: f.shared, size: f.pageSize === DEFAULT_PAGE_SIZE ? '' : String(f.pageSize) };
}

/** The address's page and filters: administrators everyone's decisions, reviewers their own (the server decides). */
export function prepareAllReviews(session: RouteSession, url: URL): AllReviewsPrepared {
  const { filters, page } = reviewAddress(url.searchParams);
  return { query: prepareQuery<AllReviewsRouteQuery>(session, allReviewsRouteQuery, allReviewsVariables(filters, page)) };
}
