// Queries sent before the entry has run (boot/signedInPreload.ts): the answer of each
// kept on window under this name by persisted id, taken once by relay/network.ts.

/** The window property holding the early answers. */
export const EARLY_QUERIES = '__grcEarlyQueries';

/** An answer as fetch gave it: status and body text. */
export type EarlyAnswer = { status: number; statusText: string; text: string };

/** The early answer to an operation without variables, once (the next request for it goes to the server). */
export function takeEarlyAnswer(id: string, variables: Record<string, unknown>): Promise<EarlyAnswer> | null {
  if (Object.keys(variables).length > 0 || typeof window === 'undefined') return null;
  const early = (window as unknown as { [EARLY_QUERIES]?: Record<string, Promise<EarlyAnswer> | undefined> })[EARLY_QUERIES];
  const answer = early?.[id];
  if (answer == null) return null;
  delete early![id];
  return answer;
}
