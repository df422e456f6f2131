// Which Risk Review tab an address asks for, and the risk queue's filters, page and first query
// for it: one home
// for the loader (riskReviewLoader.ts) and the preload script (boot/signedInPreload.ts, which
// sends that query before the entry has run). Kept free of React and Relay: the preload
// script bundles it.
import { FIRST_PAGE, RISK_PAGE_SIZE } from '../../domain/risks/riskPaging';
import { readListAddress } from '../../router/listAddress';

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

export type QueueFilters = {
  search: string;
  riskLevel: '' | 'high' | 'medium' | 'low';
  system: string;
  userGroup: string;
  roleProfile: string;
  compositeRole: string;
  ruleId: string;
  decision: string;
};

/** The queue's filters, as the address names them. */
export const QUEUE_FILTER_KEYS = ['search', 'riskLevel', 'system', 'userGroup', 'roleProfile', 'compositeRole', 'ruleId', 'decision'] as const;

export const EMPTY_FILTERS: QueueFilters = {
  search: '',
  riskLevel: '',
  system: '',
  userGroup: '',
  roleProfile: '',
  compositeRole: '',
  ruleId: '',
  decision: '',
};

const RISK_LEVELS = ['high', 'medium', 'low'] as const;

/** The queue's filters and page in the address (a risk level it does not know is no filter). */
export function queueAddress(params: URLSearchParams): { filters: QueueFilters; page: number } {
  const { values, page } = readListAddress(params, QUEUE_FILTER_KEYS);
  const riskLevel = RISK_LEVELS.find((l) => l === values.riskLevel) ?? '';
  return { filters: { ...values, riskLevel }, page };
}

/**
 * The filter fields that are GraphQL enums: the screen keeps the SPEC's
 * lower-case values (as REST takes them), GraphQL names them in UPPER_CASE.
 */
export const ENUM_FILTER_FIELDS: ReadonlySet<string> = new Set(['riskLevel', 'decision', 'recommendation']);

/** The filter as the API takes it (empty fields left out, enum values in GraphQL's UPPER_CASE). */
export function filterInputOf(f: QueueFilters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(f)) if (v.trim()) out[k] = ENUM_FILTER_FIELDS.has(k) ? v.trim().toUpperCase() : v.trim();
  return out;
}

/** The queue query's variables an administrator's address loads first (its filters and page), or null when its tab shows no queue. */
export function riskQueueVariablesForAddress(
  params: URLSearchParams,
): { filter: Record<string, string>; page: number; after: string | null; before: string | null; first: number } | null {
  if (riskReviewTab(params) !== 'overview') return null;
  const { filters, page } = queueAddress(params);
  return { filter: filterInputOf(filters), ...FIRST_PAGE, page, first: RISK_PAGE_SIZE };
}
