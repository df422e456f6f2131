import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

// axe-core (the WCAG 2.x A/AA rules) on every screen and the
// main dialogs; any serious or critical violation fails the test.
// Excepted, by name: Fluent's focus-trap placeholders (the invisible
// `<i data-tabster-dummy tabindex="0" aria-hidden>` that tabster puts around
// dialogs and focus zones, reported as aria-hidden-focus), which are not ours.
export const FLUENT_FOCUS_TRAP = '[data-tabster-dummy]';

/**
 * The serious and critical violations in `scope` (a CSS selector; the whole page
 * when omitted). The shell (sidebar, header) is checked in full once; after that
 * only the screen's <main> or the open dialog, which keeps the run short.
 */
export async function seriousViolations(page: Page, where: string, scope?: string): Promise<string[]> {
  await expect(page.locator('.fui-Spinner')).toHaveCount(0, { timeout: 30_000 });
  // A dialog fades in (Fluent's motion, Web Animations): measured mid-fade, its colours are
  // blends that fail contrast. Let the dialogs' animations finish first (only theirs: a
  // toast's timer is an animation too, and waiting for it would outlive the toast).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => {
          const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
          const ofDialog =
            target?.closest('.fui-DialogSurface') || target?.querySelector('.fui-DialogSurface') || target?.matches('.fui-DialogSurface__backdrop');
          return ofDialog && a.effect?.getComputedTiming().iterations !== Infinity;
        })
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  let axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).exclude(FLUENT_FOCUS_TRAP);
  if (scope) {
    // A screen may show its heading before the signed-in layout (and its <main>) has mounted.
    await expect(page.locator(scope).first()).toBeAttached();
    axe = axe.include(scope);
  }
  const result = await axe.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
          .map((n) => n.html.slice(0, 160))
          .slice(0, 3)
          .join(' | ')}`,
    )
    .concat(await headingsOutOfOrder(page, where, scope));
}

/**
 * Headings in order (axe's heading-order is a best practice, outside the WCAG
 * tags): no level skipped going down, and a whole page or <main> starts at h1.
 */
async function headingsOutOfOrder(page: Page, where: string, scope?: string): Promise<string[]> {
  return page.evaluate(
    ([w, sel]) => {
      const root = sel ? document.querySelector(sel) : document.body;
      if (!root) return [];
      const levels = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')]
        .filter((h) => h.getClientRects().length > 0 && !h.closest('[aria-hidden="true"]'))
        .map((h) => ({ level: Number(h.getAttribute('aria-level') ?? h.tagName.slice(1)), text: (h.textContent ?? '').trim().slice(0, 60) }));
      const found: string[] = [];
      if ((!sel || sel === 'main') && levels.length && levels[0].level !== 1)
        found.push(`${w}: the first heading '${levels[0].text}' is h${levels[0].level}, not h1`);
      levels.forEach((h, i) => {
        if (i > 0 && h.level > levels[i - 1].level + 1) found.push(`${w}: heading '${h.text}' (h${h.level}) follows h${levels[i - 1].level}`);
      });
      return found;
    },
    [where, scope] as const,
  );
}

/**
 * The serious and critical violations of the open dialog named `name` (its surface
 * only); for the specs that reach a dialog in the course of their own story.
 */
export async function dialogViolations(page: Page, name: string): Promise<string[]> {
  await expect(page.getByRole('dialog', { name })).toBeVisible();
  return seriousViolations(page, `'${name}' dialog`, '.fui-DialogSurface');
}
