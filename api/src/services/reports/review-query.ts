// What a review-history request may ask for, checked before any SQL is built:
// the filters (search, Decision, Shared Roles), the page sizes of SPEC §9 and
// the seek keys of a decision in the newest-first order. A refusal names the
// field that was wrong.
import { ValidationError } from '../../core/errors.js';
import { isUuid } from '../../core/types.js';

export const REVIEW_PAGE_SIZES = [50, 100, 200, 500] as const;
export const DEFAULT_REVIEW_PAGE_SIZE = 100;
export const RECENT_REVIEWS = 10;
const MAX_PAGE = 1_000_000;
const MAX_SEARCH = 200;

/** The Decision filter (SPEC §7 decision=retain|remove; a retain under a mitigating control is a retain). */
export const REVIEW_DECISION_FILTERS = ['retain', 'remove'] as const;
/** The Shared Roles filter (SPEC §7 shared=shared|unique). */
export const REVIEW_SHARED_FILTERS = ['shared', 'unique'] as const;

export interface ReviewFilter {
  search?: string | null;
  decision?: string | null;
  shared?: string | null;
  /** Only these decisions (by id): node(id:) reads them back through the same rules. */
  ids?: readonly string[] | null;
}

export interface ReviewPaging {
  page?: number | string | null;
  limit?: number | string | null;
  /** Seek instead of a page: the decisions after this one in the newest-first order (older). */
  after?: ReviewKey | null;
  /** Seek instead of a page: the decisions before this one in the newest-first order (newer). */
  before?: ReviewKey | null;
  /** Read from the other end: the last `limit` decisions (those nearest `before`, or the oldest). */
  fromEnd?: boolean;
}

/**
 * Where a decision stands in the newest-first order, stable whatever is
 * decided meanwhile: its last change in epoch microseconds, as SQL gives it
 * (text: a JS Date holds milliseconds only), and its id.
 */
export interface ReviewKey {
  at: string;
  id: string;
}

export interface SharedWith {
  reviewerId: string;
  reviewerName: string;
  /** retain, remove, retain_mitigated; null while pending. */
  decision: string | null;
}

export interface ReviewRecord {
  id: string;
  periodId: string;
  periodName: string;
  riskRowId: bigint;
  userId: string;
  userName: string;
  riskLevel: string;
  roleProfile: string;
  decision: string;
  comments: string | null;
  reviewerId: string;
  reviewerName: string;
  isSharedRole: boolean;
  sharedWith: SharedWith[];
  /** When the decision was made (its last change). */
  createdAt: Date;
  /** Its place in the newest-first order (cursors). */
  key: ReviewKey;
}

const present = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function checkedFilter(f: ReviewFilter): {
  search: string | null;
  decision: (typeof REVIEW_DECISION_FILTERS)[number] | null;
  shared: (typeof REVIEW_SHARED_FILTERS)[number] | null;
  ids?: readonly string[] | null;
} {
  const pick = <T extends string>(v: unknown, allowed: readonly T[], name: string): T | null => {
    if (v === undefined || v === null || v === '' || v === 'all') return null;
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw new ValidationError(`${name} must be ${allowed.join(' or ')}`, name);
    return v as T;
  };
  if (f.search !== undefined && f.search !== null && typeof f.search !== 'string') throw new ValidationError('search must be text', 'search');
  const search = present(f.search) ? f.search.trim() : null;
  if (search && search.length > MAX_SEARCH) throw new ValidationError(`search is too long (${MAX_SEARCH} characters at most)`, 'search');
  return { search, decision: pick(f.decision, REVIEW_DECISION_FILTERS, 'decision'), shared: pick(f.shared, REVIEW_SHARED_FILTERS, 'shared'), ids: f.ids };
}

const KEY_AT = /^-?\d{1,20}$/;

export function checkedPaging(p: ReviewPaging, defaultLimit: number): { limit: number; offset: number; page: number } {
  const num = (v: unknown, name: string, fallback: number) => {
    if (v === undefined || v === null || v === '') return fallback;
    const n = typeof v === 'number' ? v : /^\d{1,9}$/.test(String(v)) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 1) throw new ValidationError(`${name} must be a whole number from 1`, name);
    return n;
  };
  const limit = num(p.limit, 'limit', defaultLimit);
  if (limit > REVIEW_PAGE_SIZES[REVIEW_PAGE_SIZES.length - 1]!) throw new ValidationError('limit must be at most 500', 'limit');
  for (const name of ['after', 'before'] as const) {
    const k = p[name];
    if (k && (!KEY_AT.test(k.at) || !isUuid(k.id))) throw new ValidationError(`${name} is not the place of a decision`, name);
  }
  // Seeking reads from a decision, not a page.
  if (p.after || p.before || p.fromEnd) return { limit, page: 1, offset: 0 };
  const page = num(p.page, 'page', 1);
  if (page > MAX_PAGE) throw new ValidationError(`page must be at most ${MAX_PAGE.toLocaleString('en-US')}`, 'page');
  return { limit, page, offset: (page - 1) * limit };
}
