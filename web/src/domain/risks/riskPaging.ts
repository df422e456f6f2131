import { useCallback, useState } from 'react';

/** The edges of the page on screen, as the server returns them (RiskPage). */
export type PageEdges = { page: number; startCursor?: string | null; endCursor?: string | null };

export type CursorPaging = { page: number; after: string | null; before: string | null };

const FIRST: CursorPaging = { page: 1, after: null, before: null };

/**
 * Page state for the risk lists. Next and Previous send the edge row of the
 * current page, so the server seeks instead of skipping rows (fast however
 * deep the page); other page buttons send the page number alone (the first
 * pages and the last one are cheap for the server either way).
 */
export function useCursorPaging() {
  const [paging, setPaging] = useState<CursorPaging>(FIRST);
  const goTo = useCallback((page: number, current: PageEdges) => {
    if (page === current.page + 1 && current.endCursor) setPaging({ page, after: current.endCursor, before: null });
    else if (page === current.page - 1 && page > 1 && current.startCursor) setPaging({ page, after: null, before: current.startCursor });
    else setPaging({ page, after: null, before: null });
  }, []);
  const reset = useCallback(() => setPaging(FIRST), []);
  return { paging, goTo, reset };
}
