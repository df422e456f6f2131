// Queries sent before the entry has run (boot/signedInPreload.ts): the answer of each
// kept on window under this name by persisted id and variables, taken by relay/network.ts.

/** The window property holding the early answers. */
export const EARLY_QUERIES = '__grcEarlyQueries';

/** An answer as fetch gave it: status and body text. */
export type EarlyAnswer = { status: number; statusText: string; text: string };

/** The key of an operation with its variables (object keys sorted: Relay orders them by the operation's arguments). */
export function earlyKey(id: string, variables: unknown): string {
  const sorted = (v: unknown): unknown =>
    v != null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;
  return `${id}:${JSON.stringify(sorted(variables))}`;
}

type Holder = { [EARLY_QUERIES]?: Record<string, Promise<EarlyAnswer> | undefined> };

/** Keeps an early answer for the first request of the same operation and variables. */
export function putEarlyAnswer(id: string, variables: unknown, answer: Promise<EarlyAnswer>): void {
  const holder = window as unknown as Holder;
  (holder[EARLY_QUERIES] ??= {})[earlyKey(id, variables)] = answer;
}

/**
 * The early answer to this operation with these variables, once. A mutation drops them all:
 * after a write (a sign-in after a stored user the app found corrupt, a decision) an answer
 * fetched before it may be stale.
 */
export function takeEarlyAnswer(id: string, variables: Record<string, unknown>, kind: string): Promise<EarlyAnswer> | null {
  if (typeof window === 'undefined') return null;
  const holder = window as unknown as Holder;
  const early = holder[EARLY_QUERIES];
  if (early == null) return null;
  if (kind === 'mutation') {
    delete holder[EARLY_QUERIES];
    return null;
  }
  const key = earlyKey(id, variables);
  const answer = early[key] ?? null;
  delete early[key];
  return answer;
}
