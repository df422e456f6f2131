// A list's page, search and filters live in the address (`?search=…&page=2`),
// so a reload, a shared link and Back show the same rows. Each list names its
// keys; other parameters of the address (a tab, say) are left as they are.
// Kept free of React: the preload script bundles it.

export type ListAddress<K extends string> = { values: Record<K, string>; page: number };

/** The list's values (blank when absent) and page (1 when absent or not a page number) in `params`. */
export function readListAddress<K extends string>(params: URLSearchParams, keys: readonly K[]): ListAddress<K> {
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>;
  const page = Number(params.get('page'));
  return { values, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

/** `params` with the list's keys set to `state` (blank values and page 1 left out). */
export function writeListAddress<K extends string>(params: URLSearchParams, keys: readonly K[], state: ListAddress<K>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const k of [...keys, 'page']) next.delete(k);
  for (const k of keys) {
    const v = state.values[k].trim();
    if (v) next.set(k, v);
  }
  if (state.page > 1) next.set('page', String(state.page));
  return next;
}

/** A comparable text of a list's state: two states with the same key show the same rows. */
export function listAddressKey<K extends string>(keys: readonly K[], state: ListAddress<K>): string {
  return writeListAddress(new URLSearchParams(), keys, state).toString();
}
