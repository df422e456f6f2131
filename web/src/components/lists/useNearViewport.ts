import { useEffect, useState, type RefCallback } from 'react';

/**
 * Whether the element given to the returned ref is, or has once been, within
 * `margin` of the viewport (so a chart below the fold loads its code when the
 * user scrolls toward it, not with the page, and the first load stays fast). True
 * at once where IntersectionObserver is missing.
 */
export function useNearViewport<T extends Element>(margin = '300px'): [RefCallback<T>, boolean] {
  const [element, setElement] = useState<T | null>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near || element == null) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, near, margin]);
  return [setElement, near];
}
