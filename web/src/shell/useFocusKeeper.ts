// Keyboard focus is never dropped on the page body. A
// decision replaces the row's buttons (a spinner, then 'Change'), a batch
// action disables its button, Submit turns into 'Submitted', a dialog that
// closes may have lost its trigger, a row may leave the list: the browser then
// puts focus on <body> and a keyboard or screen-reader user starts again from
// the top. One watcher for the whole screen puts it back where it was:
// - the element itself, if it is still there and can take focus;
// - else the nearest control still on screen: in the same cell or row (the
//   one after the lost control first), or in the row that took its place;
// - a cell with nothing to focus yet (a spinner while saving) holds focus
//   itself until its new control appears, which then gets it;
// - a whole screen replaced (a route change) focuses <main>, as 'Skip to
//   content' does.
// Focus outside <main> (a dialog, a menu, the header) is only put back on an
// element still there; Fluent's own restore runs first and wins.
import { useEffect } from 'react';

const TABBABLE = 'a[href], button, input, select, textarea, [tabindex]';

/** One level of where focus was: a node, and its siblings then. */
type Step = { node: Element; next: Element | null; prev: Element | null };
/** The focused element (first step) and its ancestors up to <main> or the document. */
type Trail = Step[];

const HISTORY = 6;

function canTakeFocus(el: Element): el is HTMLElement {
  if (!(el instanceof HTMLElement) || !el.isConnected) return false;
  if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') return false;
  if (el.closest('[aria-hidden="true"], [inert], [data-tabster-dummy]')) return false;
  return el.getClientRects().length > 0;
}

function tabbablesIn(root: Element): HTMLElement[] {
  return [...root.querySelectorAll(TABBABLE)].filter((el): el is HTMLElement => el.getAttribute('tabindex') !== '-1' && canTakeFocus(el));
}

const follows = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);

function trailOf(el: Element, main: Element | null): Trail {
  const trail: Trail = [];
  for (let node: Element | null = el; node && node !== document.body; node = node.parentElement) {
    trail.push({ node, next: node.nextElementSibling, prev: node.previousElementSibling });
    if (node === main) break;
  }
  return trail;
}

export function useFocusKeeper(mainId: string) {
  useEffect(() => {
    const main = () => document.getElementById(mainId);
    let history: Trail[] = [];
    // A cell focused while it had nothing to focus, and whether we made it focusable.
    let holder: { el: HTMLElement; addedTabIndex: boolean } | null = null;

    const releaseHolder = () => {
      if (holder?.addedTabIndex) holder.el.removeAttribute('tabindex');
      holder = null;
    };
    const focus = (el: HTMLElement) => {
      el.focus({ preventScroll: false });
      return document.activeElement === el;
    };
    const hold = (el: HTMLElement) => {
      const addedTabIndex = !el.hasAttribute('tabindex');
      if (addedTabIndex) el.setAttribute('tabindex', '-1');
      if (!focus(el)) {
        if (addedTabIndex) el.removeAttribute('tabindex');
        return false;
      }
      holder = { el, addedTabIndex };
      return true;
    };

    /** Puts focus back near where `trail` was; false when nothing of it is left. */
    const restore = (trail: Trail): boolean => {
      const m = main();
      const inMain = m != null && trail.some((s) => s.node === m);
      const [first] = trail;
      if (first && canTakeFocus(first.node)) return focus(first.node);
      if (!inMain) return false;
      for (let i = 1; i < trail.length; i++) {
        const { node } = trail[i];
        if (!node.isConnected) continue;
        if (node === m) return focus(m as HTMLElement);
        const found = tabbablesIn(node);
        // Where the lost element stood: itself (still there but disabled), else the sibling that followed it.
        const child = trail[i - 1];
        const anchor = child.node.isConnected ? child.node : child.next?.isConnected && child.next.parentElement === node ? child.next : null;
        const after = anchor ? found.find((el) => el === anchor || anchor.contains(el) || follows(anchor, el)) : undefined;
        const pick = after ?? found[found.length - 1] ?? found[0];
        if (pick) return focus(pick);
        if (node instanceof HTMLElement) return hold(node);
      }
      return false;
    };

    const check = () => {
      const active = document.activeElement;
      if (holder && active === holder.el) {
        // The held cell's new control has come: it gets focus.
        const [control] = tabbablesIn(holder.el);
        if (control) {
          const el = holder.el;
          releaseHolder();
          if (!focus(control)) focus(el);
        }
        return;
      }
      if (active && active !== document.body && active.isConnected && !(active as HTMLButtonElement).disabled) return;
      for (const trail of history) if (restore(trail)) return;
    };
    let timer: number | undefined;
    const checkSoon = () => {
      check();
      // A control disabled under focus is left by the browser at its next rendering step.
      window.clearTimeout(timer);
      timer = window.setTimeout(check, 60);
    };

    const onFocusIn = (e: FocusEvent) => {
      const el = e.target;
      if (!(el instanceof Element) || el === document.body) return;
      if (holder && el !== holder.el) releaseHolder();
      history = [trailOf(el, main()), ...history.filter((t) => t[0]?.node !== el)].slice(0, HISTORY);
    };
    // A click on something that cannot take focus is the user leaving focus on purpose.
    const onPointerDown = (e: PointerEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      if (!target?.closest(TABBABLE)) history = [];
    };
    const onFocusOut = (e: FocusEvent) => {
      if (!e.relatedTarget) checkSoon();
    };

    const observer = new MutationObserver(() => {
      if (history.length || holder) checkSoon();
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled', 'hidden', 'aria-disabled'] });
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
      document.removeEventListener('pointerdown', onPointerDown, true);
      releaseHolder();
    };
  }, [mainId]);
}
