// The rules about risk rows that several layers need, each defined once: in
// JavaScript, and where SQL needs the same rule, as one SQL fragment built
// from the same definition (rows alias r, the viewer's decision alias d).
import { Prisma } from '../generated/prisma/client.js';

/** Risk levels, highest first (the order of the RiskLevel enum in the database). */
export const RISK_LEVELS = ['high', 'medium', 'low'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** Medium counts as high: the levels shown as RISK and counted as high (low is NO RISK). */
export const HIGH_LEVELS: readonly RiskLevel[] = ['high', 'medium'];
export const isHighLevel = (level: string): boolean => (HIGH_LEVELS as readonly string[]).includes(level);

/** A fixed list of known values as SQL literals (constants of this file only, never input). */
const literals = (values: readonly string[]) => Prisma.raw(values.map((v) => `'${v}'`).join(', '));

/** `r.risk_level` counts as high (high or medium). */
export const HIGH_LEVEL_SQL = Prisma.sql`r.risk_level IN (${literals(HIGH_LEVELS)})`;

/**
 * High-risk rules (ARCHITECTURE.md): rule ids 02NN and 03NN. One pattern, read
 * the same by JavaScript and by PostgreSQL's `~`.
 */
const HIGH_RISK_RULE_PATTERN = '^0[23][0-9][0-9]$';
const HIGH_RISK_RULE = new RegExp(HIGH_RISK_RULE_PATTERN);
export const isHighRiskRule = (ruleId: string): boolean => HIGH_RISK_RULE.test(ruleId);
/** `r.rule_id` is a high-risk rule. */
export const HIGH_RISK_RULE_SQL = Prisma.sql`r.rule_id ~ ${Prisma.raw(`'${HIGH_RISK_RULE_PATTERN}'`)}`;

/**
 * The HIGH badge of a composite role: a high-risk rule or a row of the top
 * level (high only; here medium does not count) under the role, as a SQL
 * aggregate over its rows.
 */
export const HIGH_BADGE_SQL = Prisma.sql`bool_or(${HIGH_RISK_RULE_SQL} OR r.risk_level = ${literals([RISK_LEVELS[0]])})`;

/** A reviewer's decision on a risk row (the DecisionValue enum). */
export const DECISION_VALUES = ['retain', 'remove', 'retain_mitigated'] as const;
export type DecisionValue = (typeof DECISION_VALUES)[number];
/** The decision that keeps a risk under a mitigating control (needs the control, an expiry and a comment). */
export const MITIGATED: DecisionValue = 'retain_mitigated';
/** A row's decision state in filters: undecided ('pending') or a decision. */
export const PENDING = 'pending';
export const DECISION_STATES = [PENDING, ...DECISION_VALUES] as const;

/** How many rows carry each decision value, in DECISION_VALUES order, as one SQL array aggregate (decisions alias d). */
export const DECISION_COUNTS_SQL = Prisma.sql`ARRAY[${Prisma.join(
  DECISION_VALUES.map((v) => Prisma.sql`count(*) FILTER (WHERE d.decision = ${literals([v])})`),
  ', ',
)}]`;

/** The decision every one of `total` rows carries, given DECISION_COUNTS_SQL's counts; null when undecided or mixed. */
export function uniformDecision(counts: readonly (number | bigint | string)[] | null, total: number): DecisionValue | null {
  if (total === 0 || !counts) return null;
  const i = counts.findIndex((n) => Number(n) === total);
  return i < 0 ? null : DECISION_VALUES[i]!;
}

/** The states of a submitted decision set (the SubmissionStatus enum). */
export const SUBMISSION_STATUSES = ['submitted', 'recalled', 'approved', 'returned'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** 'a, b or c', for messages and descriptions naming the allowed values. */
export function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/** `text` as a LIKE / ILIKE pattern matching itself anywhere: its %, _ and \ escaped (PostgreSQL's default escape). */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
}

/** The decision that takes a role away; every other decision (or none) keeps it. */
export const REMOVE: DecisionValue = 'remove';

/**
 * User analysis status (SPEC §4): a row makes its user red when its role is
 * kept (not decided 'remove') and it carries a high-risk rule; a user with no
 * such row is green.
 */
export const ANALYSIS_STATUSES = ['red', 'green'] as const;
export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];
export const isRedRow = (ruleId: string, decision: string | null | undefined): boolean => decision !== REMOVE && isHighRiskRule(ruleId);
/** The same rule in SQL over rows alias r, given the SQL expression of the row's effective decision (text or null). */
export const redRowSql = (decision: Prisma.Sql): Prisma.Sql => Prisma.sql`(${HIGH_RISK_RULE_SQL} AND coalesce(${decision}, '') <> ${literals([REMOVE])})`;

/**
 * Red but mitigated: a red row kept under a mitigating control (decision
 * 'retain_mitigated'). It stays red (the risk is still there); the analysis
 * shows it as mitigated, and a risk as mitigated when every red row under it is.
 */
export const isMitigatedRedRow = (ruleId: string, decision: string | null | undefined): boolean => decision === MITIGATED && isRedRow(ruleId, decision);
/** Over a group of rows alias r: every red row is mitigated (true when there is no red row). */
export const allRedMitigatedSql = (decision: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`bool_and(NOT ${redRowSql(decision)} OR coalesce(${decision}, '') = ${literals([MITIGATED])})`;

/** The fields that name a conflict row to a person, as the lists of rows outside a queue give them (unassigned conflicts, resolved ones in the evidence). */
export interface ConflictRowFields {
  userId: string;
  userName: string;
  accessRiskId: string;
  riskDescription: string;
  riskLevel: string;
  system: string;
  roleProfile: string;
}
