// Paging of the risk lists (the risk queue and My Assigned Risks). Next and
// Previous send the edge row of the current page, so the server seeks instead
// of skipping rows (fast however deep the page); other page buttons send the
// page number alone (the first pages and the last one are cheap for the
// server either way).

/** SPEC §9: Risk Review page size. */
export const RISK_PAGE_SIZE = 25;

/** The edges of the page on screen: its number and its first and last cursors. */
export type PageEdges = { page: number; startCursor?: string | null; endCursor?: string | null };

/** The page on screen, read from a risk list's connection (RiskRowConnection). */
export function pageEdgesOf(c: { pageNumber: number; pageInfo: { startCursor?: string | null; endCursor?: string | null } }): PageEdges {
  return { page: c.pageNumber, startCursor: c.pageInfo.startCursor, endCursor: c.pageInfo.endCursor };
}

export type CursorPaging = { page: number; after: string | null; before: string | null };

export const FIRST_PAGE: CursorPaging = { page: 1, after: null, before: null };

/** The paging variables that load `page`, seen from the page on screen. */
export function pageRequest(page: number, current: PageEdges): CursorPaging {
  if (page === current.page + 1 && current.endCursor) return { page, after: current.endCursor, before: null };
  if (page === current.page - 1 && page > 1 && current.startCursor) return { page, after: null, before: current.startCursor };
  return { page, after: null, before: null };
}
