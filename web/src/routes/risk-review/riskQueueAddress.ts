// Which Risk Review tab an address asks for, and the risk queue's first query for it: one home
// for the loader (riskReviewLoader.ts) and the preload script (boot/signedInPreload.ts, which
// sends that query before the entry has run). Kept free of React and Relay: the preload
// script bundles it.
import { FIRST_PAGE, RISK_PAGE_SIZE } from '../../domain/risks/riskPaging';

export const RISK_REVIEW_TABS = [
  { value: 'overview', label: 'Risk Overview' },
  { value: 'detailed', label: 'Detailed Review' },
  { value: 'assignments', label: 'Manage Assignments' },
  { value: 'status', label: 'Reviewer Status' },
] as const;
export type RiskReviewTab = (typeof RISK_REVIEW_TABS)[number]['value'];

/** The tab the address asks for (`?tab=`), 'overview' by default. */
export function riskReviewTab(params: URLSearchParams): RiskReviewTab {
  const requested = params.get('tab');
  return RISK_REVIEW_TABS.find((t) => t.value === requested)?.value ?? 'overview';
}

/** The risk queue's variables on first load: no filter, the first page. */
export function firstRiskQueueVariables(): { filter: Record<string, string>; page: number; after: string | null; before: string | null; first: number } {
  return { filter: {}, ...FIRST_PAGE, first: RISK_PAGE_SIZE };
}

/** The queue query's variables an administrator's address loads first, or null when its tab shows no queue. */
export function riskQueueVariablesForAddress(params: URLSearchParams): ReturnType<typeof firstRiskQueueVariables> | null {
  return riskReviewTab(params) === 'overview' ? firstRiskQueueVariables() : null;
}
