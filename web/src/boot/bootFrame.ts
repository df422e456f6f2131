// The signed-in page's frame painted before the app's script has arrived, so the
// first load shows the page at once: on slow 4G the entry takes over a second to download,
// and until React renders nothing is on screen. scripts/build-web.mjs writes this
// frame, for each path, into the build (boot-frames.json); the server puts it into
// index.html's #root when the request carries a session cookie (api/src/web-delivery.ts),
// so a visitor without one (the landing and sign-in pages) gets the plain index.html.
// React's first render shows the same markup (shell/BootFrame.tsx) until the session
// is known and the shell's code is in, so the frame is replaced by itself, never
// flashed away, and nothing moves: the sizes below are the shell's and PageHeader's
// (Fluent's tokens: AppShell.tsx, PageHeader.tsx), the phone layout under 768 px
// (SPEC §9) by a media query. One source for the three: this module.
//
// No inline script and no style attribute (the CSP): the styles are a <style> element
// carrying the response's nonce. The frame is a picture of the page to come, with no
// controls (menu button and bell are shapes): it is aria-hidden, so a screen reader
// meets the page once, when the app has rendered it, not a heading that is replaced
// (and announced) a second time.

import { RISK_REVIEW_TABS } from '../routes/risk-review/riskQueueAddress';

/** The dashboard's heading (DashboardRoute's PageHeader and the frame's). */
export const DASHBOARD_HEADING = { title: 'Risk Management Dashboard', subtitle: 'Access-risk conflicts, review progress and reports at a glance.' };

/** Headings of the pages whose title does not depend on the viewer's role. */
const HEADINGS: Record<string, { title: string; subtitle: string }> = {
  '/': DASHBOARD_HEADING,
};

/** Risk Review's heading for administrators (RiskReviewRoute's PageHeader and the frame's). */
export const RISK_REVIEW_HEADING = { title: 'Risk Review', subtitle: 'Review access-risk conflicts, assign them to reviewers and follow their progress.' };
/** Risk Review's heading for reviewers, whose screen there is My Assigned Risks (AssignedRisks.tsx's PageHeader and the frame's). */
export const ASSIGNED_RISKS_HEADING = {
  title: 'My Assigned Risks',
  subtitle: 'Decide whether each user keeps the access behind a risk, then submit your decisions for approval.',
};
/** Risk Review's tabs other than the queue's: an address asking for one (`?tab=`) gets the frame without a screen. */
export const OTHER_TAB_VALUES: readonly string[] = RISK_REVIEW_TABS.filter((t) => t.value !== 'overview').map((t) => t.value);
/** ReviewPeriodClosed's title and default text (domain/risks/ReviewPeriodClosed.tsx and the frame's). */
export const PERIOD_CLOSED_NOTICE = {
  title: 'Review Period Closed',
  text: 'No review period is active. Decisions are locked until a review period is opened from the dashboard.',
};

/**
 * Paths whose page depends on the viewer (SPEC §2: on Risk Review reviewers get My Assigned Risks,
 * everyone else the administrators' tabs, whose queue shows the period notice while no period is
 * active). The server looks the session up for these and paints the frame of the viewer's variant:
 * `<role>-<period>` (api/src/web-delivery.ts writes the same keys).
 */
export const VIEWER_FRAMED_PATHS: readonly string[] = ['/risk-review', '/risks'];
export const VIEWER_VARIANTS = ['admin-open', 'admin-closed', 'reviewer-open', 'reviewer-closed'] as const;
export type BootVariant = (typeof VIEWER_VARIANTS)[number] | '';

const CSS = [
  'html,body,#root{margin:0;padding:0;min-height:100%}',
  ".bf{font-family:'Segoe UI','Segoe UI Web (West European)',-apple-system,BlinkMacSystemFont,Roboto,'Helvetica Neue',sans-serif;font-size:14px;line-height:20px;font-weight:400;color:#242424;background:#fff;text-align:left}",
  '.bf-shell{display:flex;min-height:100vh;background:#fafafa}',
  '.bf-aside{display:none;position:sticky;top:0;height:100vh;flex-shrink:0;width:264px;border-right:1px solid #e0e0e0;overflow:hidden}',
  '.bf-aside.bf-collapsed{width:72px}',
  '.bf-main{display:flex;flex-direction:column;flex-grow:1;min-width:0}',
  '.bf-top{position:sticky;top:0;z-index:1;display:flex;align-items:center;column-gap:8px;padding:8px 16px 8px 8px;background:#fff;border-bottom:1px solid #e0e0e0}',
  '.bf-icon{display:flex;align-items:center;justify-content:center;width:32px;height:32px;color:#424242}',
  '.bf-ham{height:30px}',
  '.bf-logo{border-radius:6px;background:#0f6cbd;color:#fff}',
  '.bf-brand{display:flex;flex-direction:column}',
  '.bf-name{font-weight:600}',
  '.bf-caption{font-size:12px;line-height:16px;color:#616161}',
  '.bf-end{margin-left:auto;display:flex;align-items:center}',
  '.bf-content{flex-grow:1;box-sizing:border-box;width:100%;max-width:1440px;margin:0 auto;padding:16px 16px 24px}',
  '.bf-head{display:flex;flex-wrap:wrap;align-items:flex-end;justify-content:space-between;column-gap:16px;row-gap:8px;margin-bottom:20px}',
  '.bf-text{display:flex;flex-direction:column;row-gap:4px;min-width:0}',
  '.bf-h1{margin:0;font-size:28px;line-height:36px;font-weight:600;color:#242424}',
  '.bf-sub{color:#616161}',
  // Inside the real shell (while a screen's code arrives): the content alone, on the shell's background.
  '.bf.bf-part{background:transparent}',
  // Risk Review: Fluent's TabList (medium tabs, the selected one bold with the brand bar), the queue's
  // Card with its toolbar's boxes (SearchToolbar, the level Select, the System combobox, the two
  // buttons), the loading bar's room, and the period notice (MessageBar, warning, multiline).
  '.bf-tabs{display:flex;overflow:hidden;margin-bottom:16px;border-bottom:1px solid #e0e0e0}',
  '.bf-tab{position:relative;flex-shrink:0;padding:12px 10px;color:#424242;white-space:nowrap}',
  '.bf-tt{display:grid;justify-items:center;padding:0 2px}.bf-tt>span{grid-area:1/1}.bf-tt>span+span{visibility:hidden;font-weight:600}',
  '.bf-tab.bf-on{color:#242424;font-weight:600}',
  '.bf-tab.bf-on::after{content:"";position:absolute;left:12px;right:12px;bottom:0;height:3px;border-radius:10000px;background:#0f6cbd}',
  '.bf-card{background:#fff;border-radius:4px;box-shadow:0 0 2px rgba(0,0,0,.12),0 2px 4px rgba(0,0,0,.14)}',
  '.bf-bar{display:flex;flex-wrap:wrap;align-items:center;gap:12px;padding:16px}',
  '.bf-in{box-sizing:border-box;height:32px;border:1px solid #d1d1d1;border-bottom-color:#616161;border-radius:4px;background:#fff}',
  '.bf-search{flex-grow:1;min-width:220px;max-width:420px}.bf-w150{width:150px}.bf-w250{width:250px}',
  '.bf-acts{margin-left:auto;width:324px;height:32px}',
  '.bf-prog{height:2px}.bf-div{border-top:1px solid #e0e0e0}',
  '.bf-mb{display:grid;grid-template-columns:auto 1fr;align-items:start;min-height:36px;box-sizing:border-box;margin-bottom:16px;padding:10px 0 0 12px;border:1px solid #fdcfb4;border-radius:4px;background:#fff9f5}',
  '.bf-mbi{display:flex;margin-right:8px;font-size:20px;line-height:20px;color:#bc4b09}',
  '.bf-mbb{padding-right:12px}.bf-mbt{font-weight:600}.bf-mbt::after{content:" "}.bf-mbs{grid-column:1/-1;margin-bottom:8px}',
  // The wide layout (AppShell's, 768 px and up): the sidebar, a top bar with the bell alone.
  '@media (min-width:768px){.bf-aside{display:block}.bf-narrow{display:none}' +
    '.bf-top{justify-content:flex-end;min-height:56px;box-sizing:border-box;padding-left:32px;padding-right:24px}' +
    '.bf-content{padding:24px 32px}}',
].join('');

const svg = (size: number, box: number, d: string) =>
  `<svg fill="currentColor" aria-hidden="true" width="${size}" height="${size}" viewBox="0 0 ${box} ${box}" xmlns="http://www.w3.org/2000/svg"><path d="${d}"/></svg>`;
// Fluent's Navigation20Regular (the Hamburger's), ShieldCheckmark24Filled (the logo) and Alert24Regular (the bell, at a button's 20 px).
const MENU = svg(
  20,
  20,
  'M2 4.75c0-.41.34-.75.75-.75h14.5a.75.75 0 0 1 0 1.5H2.75A.75.75 0 0 1 2 4.75m0 5c0-.41.34-.75.75-.75h14.5a.75.75 0 0 1 0 1.5H2.75A.75.75 0 0 1 2 9.75M2.75 14a.75.75 0 0 0 0 1.5h14.5a.75.75 0 0 0 0-1.5z',
);
const SHIELD = svg(
  24,
  24,
  'M3 5.75c0-.41.34-.75.75-.75q3.99 0 7.8-2.85c.27-.2.63-.2.9 0Q16.26 5 20.25 5c.41 0 .75.34.75.75V11q0 .5-.04 1a6.5 6.5 0 0 0-8.33 9.8l-.36.15a.8.8 0 0 1-.54 0C5.96 19.68 3 16 3 11zM23 17.5a5.5 5.5 0 1 0-11 0 5.5 5.5 0 0 0 11 0m-2.15-2.35c.2.2.2.5 0 .7l-4 4a.5.5 0 0 1-.7 0l-2-2a.5.5 0 0 1 .7-.7l1.65 1.64 3.65-3.64c.2-.2.5-.2.7 0',
);
// Fluent's Warning20Filled (the MessageBar's warning icon, 1em).
const WARNING =
  '<svg fill="currentColor" aria-hidden="true" width="1em" height="1em" viewBox="0 0 20 20" xmlns="http://www.w3.org/2000/svg"><path d="M7.37 3.56a3 3 0 0 1 5.26 0l5.5 10A3 3 0 0 1 15.5 18h-11a3 3 0 0 1-2.63-4.44zM10 12.75a.75.75 0 1 0 0 1.5.75.75 0 0 0 0-1.5m0-6.25a.5.5 0 0 0-.5.5v4a.5.5 0 0 0 1 0V7a.5.5 0 0 0-.5-.5"/></svg>';
const BELL = svg(
  20,
  24,
  'M12 2a7.5 7.5 0 0 1 7.5 7.25v4.35l1.38 3.15a1.25 1.25 0 0 1-1.15 1.75H15a3 3 0 0 1-6 .18v-.18H4.27a1.25 1.25 0 0 1-1.14-1.75L4.5 13.6V9.5C4.5 5.35 7.85 2 12 2m1.5 16.5h-3a1.5 1.5 0 0 0 3 .15zM12 3.5c-3.32 0-6 2.67-6 6v4.4L4.66 17h14.7L18 13.9V9.29a6 6 0 0 0-6-5.78',
);

/** Paths whose screens are outside the signed-in layout: never framed. */
export const UNFRAMED_PATHS: readonly string[] = ['/internal-login', '/sign-in-refused'];

/** The paths with a frame of their own (a heading); every other framed path gets the frame without one. */
export const FRAMED_HEADINGS: readonly string[] = Object.keys(HEADINGS);

/** The nonce placeholder the server fills in index.html (the build writes the frames with it). */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

function headingHtml(heading: { title: string; subtitle: string }): string {
  return `<div class="bf-head"><div class="bf-text"><h1 class="bf-h1">${heading.title}</h1><span class="bf-sub">${heading.subtitle}</span></div></div>`;
}

/** The period notice as ReviewPeriodClosed draws it (in the queue's card, above the rows). */
const PERIOD_NOTICE_HTML =
  `<div class="bf-mb"><span class="bf-mbi">${WARNING}</span><div class="bf-mbb"><span class="bf-mbt">${PERIOD_CLOSED_NOTICE.title}</span>` +
  `${PERIOD_CLOSED_NOTICE.text}</div><div class="bf-mbs"></div></div>`;

/** The administrators' Risk Review on its first tab: heading, tabs, the queue's card up to its rows. */
function riskReviewHtml(periodClosed: boolean): string {
  const tabs = RISK_REVIEW_TABS.map(
    ({ label }, i) => `<span class="bf-tab${i === 0 ? ' bf-on' : ''}"><span class="bf-tt"><span>${label}</span><span>${label}</span></span></span>`,
  ).join('');
  return (
    headingHtml(RISK_REVIEW_HEADING) +
    `<div class="bf-tabs">${tabs}</div>` +
    '<div class="bf-card"><div class="bf-bar"><span class="bf-in bf-search"></span><span class="bf-in bf-w150"></span><span class="bf-in bf-w250"></span><span class="bf-acts"></span></div>' +
    `<div class="bf-prog"></div><div class="bf-div">${periodClosed ? PERIOD_NOTICE_HTML : ''}</div></div>`
  );
}

/** The page's content in the frame (under the top bar): its heading, and on Risk Review the viewer's screen. */
function contentHtml(pathname: string, variant: BootVariant): string {
  if (VIEWER_FRAMED_PATHS.includes(pathname) && variant) {
    // (The server paints a variant on the queue's tab only: another tab's address gets the frame without a heading.)
    return variant.startsWith('reviewer') ? headingHtml(ASSIGNED_RISKS_HEADING) : riskReviewHtml(variant === 'admin-closed');
  }
  const heading = HEADINGS[pathname];
  return heading ? headingHtml(heading) : '';
}

function styleHtml(nonce: string): string {
  const safeNonce = nonce.replace(/[^A-Za-z0-9+/=_-]/g, '');
  return `<style${safeNonce ? ` nonce="${safeNonce}"` : ''}>${CSS}</style>`;
}

/**
 * The frame's markup for a path (a <div class="bf"> with its <style>): the same string in the
 * server's HTML and in React's first render. `collapsed`: the wide layout's sidebar as AppShell
 * keeps it (its 'sidebar_collapsed' cookie, which the server reads too). `variant`: on the paths
 * whose page depends on the viewer, the viewer's (the server knows it from the session).
 */
export function bootFrameHtml(pathname: string, nonce: string, collapsed: boolean, variant: BootVariant = ''): string {
  return (
    `<div class="bf" aria-hidden="true"${variant ? ` data-variant="${variant}"` : ''}>${styleHtml(nonce)}` +
    `<div class="bf-shell"><div class="bf-aside${collapsed ? ' bf-collapsed' : ''}"></div><div class="bf-main">` +
    `<header class="bf-top"><span class="bf-icon bf-ham bf-narrow" aria-hidden="true">${MENU}</span>` +
    `<span class="bf-icon bf-logo bf-narrow" aria-hidden="true">${SHIELD}</span>` +
    `<span class="bf-brand bf-narrow"><span class="bf-name">GRC Platform</span><span class="bf-caption">Risk Management</span></span>` +
    `<span class="bf-end"><span class="bf-icon" aria-hidden="true">${BELL}</span></span></header>` +
    `<div class="bf-content">${contentHtml(pathname, variant)}</div></div></div></div>`
  );
}

/**
 * The frame's content alone (no top bar or sidebar), for the real shell while the screen's code
 * and first data arrive, so what the frame showed stays in place until the screen replaces it.
 */
export function bootFrameContentHtml(pathname: string, nonce: string, variant: BootVariant): string {
  return `<div class="bf bf-part" aria-hidden="true">${styleHtml(nonce)}${contentHtml(pathname, variant)}</div>`;
}

/** The cookie AppShell keeps the sidebar's state in (beside local storage), so the server's frame matches it. */
export const COLLAPSED_COOKIE = 'sidebar_collapsed';
