import { startTransition, useEffect, useState } from 'react';

/** The rows a list's first render commits; the others follow at once in a second, interruptible render. */
export const FIRST_ROWS = 6;

/**
 * Issue 15, 'Fast first load': committing a page of 25 rows (Fluent cells, a
 * checkbox, a switch and a badge each) was one long task on a phone, since
 * React commits a render in one go. The list's first render shows the first
 * rows (a phone's screen holds two to four), and the rest come in a
 * transition right after, a second, shorter commit. Later pages render whole.
 */
export function useRowsInSteps<T>(rows: readonly T[]): readonly T[] {
  const [all, setAll] = useState(rows.length <= FIRST_ROWS);
  useEffect(() => {
    if (!all) startTransition(() => setAll(true));
  }, [all]);
  return all ? rows : rows.slice(0, FIRST_ROWS);
}
