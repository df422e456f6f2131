import { startTransition, useEffect, useState } from 'react';

/** The rows each step of a list's first render commits. */
export const ROWS_STEP = 6;

/**
 * Committing a page of 25 rows (Fluent cells, a
 * checkbox, a switch and a badge each) was one long task on a phone, since
 * React commits a render in one go. The list's first render shows the first
 * rows (a phone's screen holds two to four), and the others follow, a step of
 * rows at a time, each in a transition after the previous one committed: short
 * commits (the rows left over, committed in one go, would be the queue's
 * longest task after the first). Once whole, later pages render whole.
 */
export function useRowsInSteps<T>(rows: readonly T[]): readonly T[] {
  // How many rows are shown; Infinity once the list has been shown whole.
  const [shown, setShown] = useState(() => (rows.length <= ROWS_STEP ? Infinity : ROWS_STEP));
  const length = rows.length;
  useEffect(() => {
    if (shown < length) startTransition(() => setShown((n) => (n + ROWS_STEP >= length ? Infinity : n + ROWS_STEP)));
  }, [shown, length]);
  return shown >= length ? rows : rows.slice(0, shown);
}
