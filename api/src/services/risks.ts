// The risk queue: risk rows with filters, search and paging, each with the
// viewer's decision in the active period. Administrators see every row;
// reviewers only the rows assigned to them, whichever way they ask.
import { Prisma, type PrismaClient, type RiskRow, type User } from '../generated/prisma/client.js';
import { ValidationError } from './errors.js';
import { assignedRowsCondition, criteriaSetsFor } from './assignments.js';
import { getActivePeriod } from './periods.js';
import { LIVE_ROWS } from './live-rows.js';
import { csvLine } from './csv.js';
import { EXPORT_FIELDS } from '../ingest/columns.js';
import type { DbClient } from './types.js';

export const RISK_LEVELS = ['high', 'medium', 'low'] as const;
export const DECISION_STATES = ['pending', 'retain', 'remove', 'retain_mitigated'] as const;
export const MAX_PAGE_SIZE = 500;

export interface RiskFilter {
  search?: string | null;
  riskLevel?: string | null;
  system?: string | null;
  userGroup?: string | null;
  roleProfile?: string | null;
  compositeRole?: string | null;
  ruleId?: string | null;
  accessRiskId?: string | null;
  userId?: string | null;
  decision?: string | null;
}

export interface RiskPage {
  page?: number | null;
  limit?: number | null;
}

export type RiskRowWithDecision = RiskRow & { decision: string | null; decisionComments: string | null; decidedAt: Date | null };

const ALL = new Set(['', 'all', 'All', 'All Systems']);
const present = (v: string | null | undefined): v is string => typeof v === 'string' && !ALL.has(v.trim());

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

/** Which rows a user may see at all (the rule, in one place). */
export async function visibleRowsCondition(db: DbClient, user: User): Promise<Prisma.Sql> {
  if (user.role === 'admin') return LIVE_ROWS;
  return Prisma.sql`${LIVE_ROWS} AND ${assignedRowsCondition(await criteriaSetsFor(db, user.id))}`;
}

export function filterCondition(f: RiskFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (present(f.search)) {
    const s = `%${escapeLike(f.search.trim())}%`;
    parts.push(Prisma.sql`(r.user_name ILIKE ${s} OR r.user_id ILIKE ${s} OR r.role_profile ILIKE ${s} OR r.access_risk_id ILIKE ${s} OR r.risk_description ILIKE ${s})`);
  }
  if (present(f.riskLevel)) {
    const level = f.riskLevel.toLowerCase();
    if (!(RISK_LEVELS as readonly string[]).includes(level)) throw new ValidationError(`Unknown risk level '${f.riskLevel}': use high, medium or low`, 'riskLevel');
    parts.push(Prisma.sql`r.risk_level = ${level}::"RiskLevel"`);
  }
  const eq: [keyof RiskFilter, string][] = [
    ['system', 'system'],
    ['userGroup', 'user_group'],
    ['roleProfile', 'role_profile'],
    ['compositeRole', 'composite_business_role'],
    ['ruleId', 'rule_id'],
    ['accessRiskId', 'access_risk_id'],
    ['userId', 'user_id'],
  ];
  for (const [key, col] of eq) {
    const v = f[key];
    if (present(v)) parts.push(Prisma.sql`r.${Prisma.raw(col)} = ${v}`);
  }
  if (present(f.decision)) {
    if (!(DECISION_STATES as readonly string[]).includes(f.decision)) {
      throw new ValidationError(`Unknown decision state '${f.decision}': use pending, retain, remove or retain_mitigated`, 'decision');
    }
    parts.push(f.decision === 'pending' ? Prisma.sql`d.decision IS NULL` : Prisma.sql`d.decision = ${f.decision}::"DecisionValue"`);
  }
  return parts.length ? Prisma.join(parts, ' AND ') : Prisma.sql`TRUE`;
}

export function pageOf(p: RiskPage, defaultLimit = 25): { limit: number; offset: number; page: number } {
  const limit = Math.min(Math.max(Math.trunc(Number(p.limit) || defaultLimit), 1), MAX_PAGE_SIZE);
  const page = Math.max(Math.trunc(Number(p.page) || 1), 1);
  return { limit, page, offset: (page - 1) * limit };
}

/** Rows the viewer may see, filtered and paged, with the viewer's own decision in the active period. */
export async function listRisks(prisma: PrismaClient, user: User, filter: RiskFilter, paging: RiskPage) {
  const period = await getActivePeriod(prisma);
  const visible = await visibleRowsCondition(prisma, user);
  const where = filterCondition(filter);
  const { limit, offset, page } = pageOf(paging);
  const join = Prisma.sql`LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${period?.id ?? null}::uuid AND d.reviewer_id = ${user.id}::uuid`;
  const [rows, count] = await Promise.all([
    prisma.$queryRaw<RiskRowRaw[]>`
      SELECT r.*, d.decision::text AS decision, d.comments AS decision_comments, d.updated_at AS decided_at
        FROM risk_rows r ${join}
       WHERE ${visible} AND ${where}
       ORDER BY r.id
       LIMIT ${limit} OFFSET ${offset}`,
    prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM risk_rows r ${join} WHERE ${visible} AND ${where}`,
  ]);
  return { risks: rows.map(fromRaw), total: Number(count[0]?.n ?? 0), page, limit };
}

/** Every column of the export, in the order the CSV writes them (the level as exported). */
export const EXPORT_COLUMNS: [header: string, column: string][] = EXPORT_FIELDS.map((f) => [
  f.header,
  f.column === 'risk_level' ? 'risk_level_label' : f.column,
]);

/**
 * The filtered rows the viewer may see, as CSV, in batches (keyset on id) so
 * memory stays flat however many rows match. Adds the viewer's decision.
 */
export async function* exportRisksCsv(prisma: PrismaClient, user: User, filter: RiskFilter): AsyncGenerator<string> {
  const period = await getActivePeriod(prisma);
  const visible = await visibleRowsCondition(prisma, user);
  const where = filterCondition(filter);
  const cols = Prisma.raw(EXPORT_COLUMNS.map(([, c]) => `r.${c}`).join(', '));
  yield csvLine([...EXPORT_COLUMNS.map(([h]) => h), 'Decision', 'Decision Comments', 'Decided At']);
  let after = 0n;
  for (;;) {
    const batch = await prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT r.id, ${cols}, d.decision::text AS decision, d.comments AS decision_comments, d.updated_at AS decided_at
        FROM risk_rows r
        LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${period?.id ?? null}::uuid AND d.reviewer_id = ${user.id}::uuid
       WHERE r.id > ${after} AND ${visible} AND ${where}
       ORDER BY r.id LIMIT 5000`;
    if (!batch.length) return;
    let chunk = '';
    for (const row of batch) {
      const lastExecuted = row.last_executed_on instanceof Date ? row.last_executed_on.toISOString().slice(0, 10) : row.last_executed_on;
      chunk += csvLine([
        ...EXPORT_COLUMNS.map(([, c]) => (c === 'last_executed_on' ? lastExecuted : row[c])),
        row.decision ?? 'pending',
        row.decision_comments,
        row.decided_at,
      ]);
    }
    yield chunk;
    after = BigInt(batch[batch.length - 1]!.id as bigint);
  }
}

/** Summary tiles of a reviewer's assigned rows in the active period. */
export async function assignedSummary(prisma: PrismaClient, user: User) {
  const period = await getActivePeriod(prisma);
  const visible = await visibleRowsCondition(prisma, user);
  const r = await prisma.$queryRaw<{ total: bigint; high: bigint; reviewed: bigint }[]>`
    SELECT count(*) AS total,
           count(*) FILTER (WHERE r.risk_level IN ('high', 'medium')) AS high,
           count(d.id) AS reviewed
      FROM risk_rows r
      LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${period?.id ?? null}::uuid AND d.reviewer_id = ${user.id}::uuid
     WHERE ${visible}`;
  const total = Number(r[0]?.total ?? 0);
  const reviewed = Number(r[0]?.reviewed ?? 0);
  return { totalAssigned: total, highRisk: Number(r[0]?.high ?? 0), pendingReview: total - reviewed, reviewed };
}

/** The distinct systems in the data, for the system filter. */
export async function listSystems(prisma: PrismaClient, user: User): Promise<string[]> {
  const visible = await visibleRowsCondition(prisma, user);
  const rows = await prisma.$queryRaw<{ system: string }[]>`SELECT DISTINCT r.system FROM risk_rows r WHERE ${visible} AND r.system <> '' ORDER BY 1 LIMIT 1000`;
  return rows.map((r) => r.system);
}

// Raw rows come back with snake_case columns.
type RiskRowRaw = Record<string, unknown> & { id: bigint; decision: string | null; decision_comments: string | null; decided_at: Date | null };

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

function fromRaw(raw: RiskRowRaw): RiskRowWithDecision {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) out[camel(k)] = v;
  return out as RiskRowWithDecision;
}

/** The SPEC §3 risk row shape for REST. */
export function riskRowJson(r: RiskRowWithDecision) {
  return {
    id: Number(r.id),
    userId: r.userId,
    userName: r.userName,
    userGroup: r.userGroup,
    riskLevel: r.riskLevel,
    roleProfile: r.roleProfile,
    roleProfileDescription: r.roleProfileDescription,
    riskDescription: r.riskDescription,
    accessRiskId: r.accessRiskId,
    system: r.system,
    decision: r.decision ?? '',
    compositeBusinessRole: r.compositeBusinessRole,
    compositeRoleDescription: r.compositeRoleDescription,
    ruleId: r.ruleId,
    function: r.function,
    functionDescription: r.functionDescription,
    resource: r.resource,
    resourceDescription: r.resourceDescription,
    resourceExtn: r.resourceExtn,
    resourceExtnDesc: r.resourceExtnDesc,
    valueFrom: r.valueFrom,
    valueTo: r.valueTo,
    action: r.action,
    actionDescription: r.actionDescription,
    businessProcess: r.businessProcess,
    businessProcessDescription: r.businessProcessDescription,
    mitigationControl: r.mitigationControl,
    mitigationControlDescription: r.mitigationControlDescription,
    executionCount: r.executionCount,
    lastExecutedOn: r.lastExecutedOn,
    aiSuggestedCategory: r.aiSuggestedCategory,
    aiCategoryConfidence: r.aiCategoryConfidence,
    aiProcessedAt: r.aiProcessedAt,
    aiCategoryAccepted: r.aiCategoryAccepted,
  };
}
