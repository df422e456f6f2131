import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';

/**
 * `fn`, called once its arguments have stopped changing for `delayMs`: each
 * call restarts the wait, and only the last call's arguments are used.
 */
export function useDebouncedCallback<A extends unknown[]>(fn: (...args: A) => void, delayMs = 300): (...args: A) => void {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback(
    (...args: A) => {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => latest.current(...args), delayMs);
    },
    [delayMs],
  );
}
