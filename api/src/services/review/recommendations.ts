// Help deciding: beside each risk row, the facts that
// bear on it and a recommendation derived from them, with its reason in words.
// Never applied on its own: it only informs the reviewer (and the approver,
// services/review/approval-review.ts).
//
// The facts: usage from the export (execution count, last executed), the
// decision on the same user and role in the period before the current one,
// whether the rule is high-risk, and the other reviewers who share the row
// (holding it by the visibility rule, or having decided it in the period) with
// what they decided. The rule is one ordered list (RULES): the first that
// holds gives the recommendation. SQL evaluates it (filters and sorting work
// over every row, not only a page); the words are written here from the same
// facts, which the lists read with their rows (no query per row).
import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import { rowHoldersSql } from '../holds.js';
import { HIGH_RISK_RULE_SQL, MITIGATED, REMOVE, isHighRiskRule, orList } from '../risk-rules.js';
import { ValidationError } from '../../core/errors.js';

/** The recommendation values, in the order 'sort by recommendation' lists them. */
export const RECOMMENDATIONS = ['remove', 'review', 'retain'] as const;
export type RecommendationValue = (typeof RECOMMENDATIONS)[number];

/** Unused for this long (by the export's last-executed date) counts as not used. */
export const STALE_DAYS = 180;

/** The page orders of the risk lists: by row (the default) or by recommendation (remove, review, retain). */
export const RISK_SORTS = ['row', 'recommendation'] as const;
export type RiskSort = (typeof RISK_SORTS)[number];

/** The facts of help deciding that are not columns of the row, as the lists' rows carry them (visibility.RiskRowWithDecision). */
export type HelpDecidingFacts = {
  recommendationRule?: string | null;
  lastPeriodDecision?: string | null;
  lastPeriodName?: string | null;
  sharedReviewers?: number | bigint | null;
  sharedRemoved?: number | bigint | null;
  sharedRetained?: number | bigint | null;
};

/** The facts of one row, as the lists read them (raw columns camel-cased by visibility.fromRaw). */
export interface RecommendationFacts extends HelpDecidingFacts {
  ruleId: string;
  executionCount: number | null;
  lastExecutedOn: Date | string | null;
}

/** The SQL expressions of the facts that are not columns of the row (alias r). */
interface FactSql {
  lastDecision: Prisma.Sql;
  sharedRemoved: Prisma.Sql;
}

const day = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString().slice(0, 10) : '');
const n = (v: number | bigint | null | undefined) => Number(v ?? 0);
const plural = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
const lastPeriod = (f: RecommendationFacts) => (f.lastPeriodName ? ` (${f.lastPeriodName})` : '');

interface Rule {
  key: string;
  value: RecommendationValue;
  when: (s: FactSql) => Prisma.Sql;
  reason: (f: RecommendationFacts) => string;
}

/** What the usage columns say, in words ('' when the export has none). */
function usageWords(f: RecommendationFacts): string {
  const parts: string[] = [];
  if (f.executionCount != null) parts.push(plural(f.executionCount, 'execution'));
  if (f.lastExecutedOn) parts.push(`last on ${day(f.lastExecutedOn)}`);
  return parts.join(', ');
}

/** The rule, first match wins. */
const RULES: Rule[] = [
  {
    key: 'shared_removed',
    value: 'review',
    when: (s) => Prisma.sql`${s.sharedRemoved} > 0`,
    reason: (f) =>
      `${plural(n(f.sharedReviewers), 'other reviewer')} share${n(f.sharedReviewers) === 1 ? 's' : ''} it and ${n(f.sharedRemoved)} decided remove: agree before deciding`,
  },
  {
    key: 'unused',
    value: 'remove',
    when: () => Prisma.sql`r.execution_count = 0`,
    reason: (f) => `Not used: the export shows 0 executions${isHighRiskRule(f.ruleId) ? ' of a high-risk rule' : ''}`,
  },
  {
    key: 'stale',
    value: 'remove',
    when: () => Prisma.sql`r.last_executed_on < (now() - ${Prisma.raw(`interval '${STALE_DAYS} days'`)})::date`,
    reason: (f) => `Not used since ${day(f.lastExecutedOn)} (over ${STALE_DAYS} days)`,
  },
  {
    key: 'removed_last_period',
    value: 'review',
    when: (s) => Prisma.sql`${s.lastDecision} = ${REMOVE}`,
    reason: (f) => `Removed in the last period${lastPeriod(f)}, yet still granted`,
  },
  {
    key: 'high_risk_no_usage',
    value: 'review',
    when: () => Prisma.sql`${HIGH_RISK_RULE_SQL} AND r.execution_count IS NULL AND r.last_executed_on IS NULL`,
    reason: () => 'High-risk rule with no usage in the export',
  },
  {
    key: 'used',
    value: 'retain',
    when: () => Prisma.sql`(r.execution_count > 0 OR r.last_executed_on IS NOT NULL)`,
    reason: (f) =>
      [
        `Used: ${usageWords(f)}`,
        isHighRiskRule(f.ruleId) ? 'high-risk rule' : '',
        f.lastPeriodDecision && f.lastPeriodDecision !== REMOVE ? `retained in the last period${lastPeriod(f)}` : '',
      ]
        .filter(Boolean)
        .join('; '),
  },
  {
    key: 'retained_last_period',
    value: 'retain',
    when: (s) => Prisma.sql`${s.lastDecision} IN ('retain', ${Prisma.raw(`'${MITIGATED}'`)})`,
    reason: (f) => `Retained in the last period${lastPeriod(f)}; no usage in the export`,
  },
  { key: 'no_facts', value: 'review', when: () => Prisma.sql`TRUE`, reason: () => 'No usage in the export and no earlier decision: look at it' },
];
const RULE_BY_KEY = new Map(RULES.map((r) => [r.key, r]));

const caseOf = (s: FactSql, out: (r: Rule) => string) =>
  Prisma.sql`(CASE ${Prisma.join(
    RULES.map((r) => Prisma.sql`WHEN ${r.when(s)} THEN ${Prisma.raw(`'${out(r)}'`)}`),
    ' ',
  )} END)`;

/**
 * Who asks, in which period: the facts 'shared' and 'last period' depend on
 * them. `viewerId` is an id, or SQL naming a column (the evidence file asks
 * as each decision's own reviewer: what that reviewer was shown).
 */
export interface RecommendationContext {
  periodId: string | null;
  viewerId: string | Prisma.Sql;
}

/** The period before `periodId` (by creation), whose decisions are 'last period's. */
const previousPeriodSql = (periodId: string | null) => Prisma.sql`(SELECT lp.id FROM review_periods lp
   WHERE lp.id IS DISTINCT FROM ${periodId}::uuid
     AND lp.created_at < coalesce((SELECT cp.created_at FROM review_periods cp WHERE cp.id = ${periodId}::uuid), 'infinity')
   ORDER BY lp.created_at DESC, lp.id DESC LIMIT 1)`;

/** The other reviewers of row r: holding it by the visibility rule (criteria and moved items), or having decided it in the period. */
const otherReviewersSql = (c: RecommendationContext) => Prisma.sql`(
  SELECT holder.reviewer_id FROM ${rowHoldersSql} holder
  UNION SELECT sd.reviewer_id FROM decisions sd WHERE sd.risk_row_id = r.id AND sd.period_id = ${c.periodId}::uuid
)`;

/** Row r's decision of the period before (alias lp): the same user and role, the same risk first. */
const lastPeriodJoin = (c: RecommendationContext) => Prisma.sql`
    LEFT JOIN LATERAL (
      SELECT pd.decision::text AS decision, pp.name AS period_name
        FROM decisions pd JOIN risk_rows pr ON pr.id = pd.risk_row_id JOIN review_periods pp ON pp.id = pd.period_id
       WHERE pd.period_id = ${previousPeriodSql(c.periodId)} AND pr.user_id = r.user_id AND pr.role_profile = r.role_profile
       ORDER BY (pr.access_risk_id = r.access_risk_id) DESC, pd.updated_at DESC, pd.id DESC LIMIT 1
    ) lp ON TRUE`;

/**
 * How many other reviewers removed row r in the period. Whoever decided a row is one of its other
 * reviewers (otherReviewersSql takes in every decider), so this needs no look-up of its holders:
 * the recommendation's value depends on the removals alone, and a long export or a close asks it per row.
 */
const sharedRemovedSql = (c: RecommendationContext) => Prisma.sql`(SELECT count(*) FROM decisions od
   WHERE od.risk_row_id = r.id AND od.period_id = ${c.periodId}::uuid AND od.reviewer_id <> ${c.viewerId}::uuid AND od.decision = ${REMOVE}::"DecisionValue")`;

/**
 * The joins that give a list's rows their facts (aliases lp, sh): put after
 * `FROM risk_rows r`, and select RECOMMENDATION_COLUMNS.
 */
export function recommendationJoins(c: RecommendationContext): Prisma.Sql {
  return Prisma.sql`
    ${lastPeriodJoin(c)}
    LEFT JOIN LATERAL (
      SELECT count(*) AS reviewers,
             count(*) FILTER (WHERE od.decision = ${REMOVE}::"DecisionValue") AS removed,
             count(*) FILTER (WHERE od.decision <> ${REMOVE}::"DecisionValue") AS retained
        FROM ${otherReviewersSql(c)} x
        LEFT JOIN decisions od ON od.risk_row_id = r.id AND od.period_id = ${c.periodId}::uuid AND od.reviewer_id = x.reviewer_id
       WHERE x.reviewer_id <> ${c.viewerId}::uuid
    ) sh ON TRUE`;
}

const JOINED: FactSql = { lastDecision: Prisma.sql`lp.decision`, sharedRemoved: Prisma.sql`sh.removed` };

/** The facts' columns and the rule that holds, over recommendationJoins. */
export const RECOMMENDATION_COLUMNS = Prisma.sql`lp.decision AS last_period_decision, lp.period_name AS last_period_name,
  sh.reviewers AS shared_reviewers, sh.removed AS shared_removed, sh.retained AS shared_retained,
  ${caseOf(JOINED, (r) => r.key)} AS recommendation_rule`;

/**
 * The joins that give row r its recommendation as `rec.value` (remove, review
 * or retain): recommendationJoins and the rule that holds. For the CSV export,
 * where the database writes every cell; the reason in words needs the facts
 * read back (recommendationOf), so the export carries the value only.
 */
export function recommendationValueJoins(c: RecommendationContext): Prisma.Sql {
  return Prisma.sql`${lastPeriodJoin(c)} CROSS JOIN LATERAL (SELECT ${sharedRemovedSql(c)} AS removed) sh
    CROSS JOIN LATERAL (SELECT ${caseOf(JOINED, (r) => r.value)} AS value) rec`;
}

/** The order 'by recommendation' over recommendationJoins: remove, review, retain. */
export const RECOMMENDATION_RANK = caseOf(JOINED, (r) => String(RECOMMENDATIONS.indexOf(r.value)));

/**
 * The recommendation of row r as one SQL expression of its own (correlated
 * subqueries, no joins needed): for filters anywhere a row alias r is.
 */
export function recommendationValueSql(c: RecommendationContext): Prisma.Sql {
  const facts: FactSql = {
    lastDecision: Prisma.sql`(SELECT pd.decision::text FROM decisions pd JOIN risk_rows pr ON pr.id = pd.risk_row_id
       WHERE pd.period_id = ${previousPeriodSql(c.periodId)} AND pr.user_id = r.user_id AND pr.role_profile = r.role_profile
       ORDER BY (pr.access_risk_id = r.access_risk_id) DESC, pd.updated_at DESC, pd.id DESC LIMIT 1)`,
    sharedRemoved: sharedRemovedSql(c),
  };
  return caseOf(facts, (r) => r.value);
}

/** Checks a recommendation filter value. */
export function checkRecommendation(v: string): RecommendationValue {
  if (!(RECOMMENDATIONS as readonly string[]).includes(v))
    throw new ValidationError(`Unknown recommendation '${v}': use ${orList(RECOMMENDATIONS)}`, 'recommendation');
  return v as RecommendationValue;
}

/** Checks a sort value (null: the default order). */
export function checkSort(v: string | null | undefined): RiskSort {
  if (v == null || v === '') return 'row';
  if (!(RISK_SORTS as readonly string[]).includes(v)) throw new ValidationError(`Unknown sort '${v}': use ${orList(RISK_SORTS)}`, 'sort');
  return v as RiskSort;
}

export interface Recommendation {
  value: RecommendationValue;
  reason: string;
}

/** The recommendation and its reason in words, from a row read with RECOMMENDATION_COLUMNS. */
export function recommendationOf(f: RecommendationFacts): Recommendation {
  const rule = RULE_BY_KEY.get(f.recommendationRule ?? '') ?? RULES[RULES.length - 1]!;
  return { value: rule.value, reason: rule.reason(f) };
}

/** The other reviewers sharing the row and what they decided. */
export function sharedOf(f: RecommendationFacts): { reviewers: number; removed: number; retained: number } {
  return { reviewers: n(f.sharedReviewers), removed: n(f.sharedRemoved), retained: n(f.sharedRetained) };
}

/** The facts of rows read one by one (by id): one query for all of them. */
export async function factsOf(db: DbClient, c: RecommendationContext, ids: readonly bigint[]): Promise<Map<string, RecommendationFacts>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<(Record<string, unknown> & { id: bigint })[]>`
    SELECT r.id, r.rule_id, r.execution_count, r.last_executed_on, ${RECOMMENDATION_COLUMNS}
      FROM risk_rows r ${recommendationJoins(c)} WHERE r.id = ANY(${[...ids]}::bigint[])`;
  return new Map(rows.map((x) => [String(x.id), factsFromRaw(x)]));
}

/** A row's facts from a raw row read with rule_id, execution_count, last_executed_on and RECOMMENDATION_COLUMNS. */
export function factsFromRaw(x: Record<string, unknown>): RecommendationFacts {
  return {
    ruleId: x.rule_id as string,
    executionCount: (x.execution_count as number | null) ?? null,
    lastExecutedOn: (x.last_executed_on as Date | null) ?? null,
    recommendationRule: x.recommendation_rule as string,
    lastPeriodDecision: x.last_period_decision as string | null,
    lastPeriodName: x.last_period_name as string | null,
    sharedReviewers: x.shared_reviewers as bigint,
    sharedRemoved: x.shared_removed as bigint,
    sharedRetained: x.shared_retained as bigint,
  };
}
