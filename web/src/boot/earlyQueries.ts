// Queries sent before the entry has run (boot/signedInPreload.ts): the answer of each
// kept on window under this name by persisted id, taken by relay/network.ts's first request.

/** The window property holding the early answers. */
export const EARLY_QUERIES = '__grcEarlyQueries';

/** An answer as fetch gave it: status and body text. */
export type EarlyAnswer = { status: number; statusText: string; text: string };

/**
 * The early answer to an operation without variables, if this is the page's first request: the
 * early answers are kept for the first one only (the session query, sent first at boot), so an
 * answer never consumed (a stored user the app finds corrupt) is not taken for a later request.
 */
export function takeEarlyAnswer(id: string, variables: Record<string, unknown>): Promise<EarlyAnswer> | null {
  if (typeof window === 'undefined') return null;
  const holder = window as unknown as { [EARLY_QUERIES]?: Record<string, Promise<EarlyAnswer> | undefined> };
  const early = holder[EARLY_QUERIES];
  delete holder[EARLY_QUERIES];
  if (early == null || Object.keys(variables).length > 0) return null;
  return early[id] ?? null;
}
