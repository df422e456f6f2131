// Risk analysis (SPEC §4 'User analysis status', §7 /api/risk-analysis/*):
// whether a user stays red once the given role decisions apply over the
// viewer's saved ones. The rule itself is risk-rules.ts's (redRowSql): a
// row is red when its role is kept and it carries a high-risk rule. The
// analysis runs over the rows the viewer may see (visibility.ts), with the
// viewer's decisions of the active period (as the composite-role view shows
// them), in one grouped query; each result is stored, and the latest per user
// is read back per viewer.
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { parseOrThrow } from '../../core/validation.js';
import { isUuid } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { decisionJoin, viewScope } from '../composite-view/scope.js';
import { DECISION_VALUES, allRedMitigatedSql, orList, redRowSql, type AnalysisStatus } from '../risk-rules.js';

export const MAX_ID_LENGTH = 500;
export const MAX_ROLE_DECISIONS = 10_000;
/** Users read back by latestResults at most. */
export const MAX_LATEST = 1000;

const text = (label: string) =>
  z
    .string({ error: `${label} must be a string` })
    .trim()
    .max(MAX_ID_LENGTH, `${label} is too long (${MAX_ID_LENGTH} characters at most)`);

export const analysisInputSchema = z.object({
  userId: text('userId').min(1, 'userId is required'),
  roleDecisions: z
    .array(
      z.object({
        userId: text('userId').optional(),
        compositeBusinessRole: z.string({ error: 'compositeBusinessRole must be a string' }).max(MAX_ID_LENGTH),
        decision: z.enum(DECISION_VALUES, { error: `Decision must be ${orList(DECISION_VALUES)}` }),
      }),
      { error: 'roleDecisions must be a list' },
    )
    .max(MAX_ROLE_DECISIONS, `At most ${MAX_ROLE_DECISIONS} role decisions`)
    .nullish(),
});
export type AnalysisInput = z.input<typeof analysisInputSchema>;

export interface RiskBreakdownEntry {
  riskId: string;
  status: AnalysisStatus;
  /** Red, but every red row under it is kept under a mitigating control (risk-rules.ts allRedMitigatedSql). */
  mitigated?: boolean;
}

export interface AnalysisResult {
  id: string;
  userId: string;
  userStatus: AnalysisStatus;
  riskBreakdown: RiskBreakdownEntry[];
  redCount: number;
  /** Of the red risks, those mitigated. */
  mitigatedCount: number;
  totalRisks: number;
  timestamp: Date;
}

/**
 * Runs the analysis of one user: per access risk, red when a kept role under
 * it carries a high-risk rule (the given decisions of that user override the
 * saved ones, per composite role); the user is red when any risk is. Stores
 * the result. A user with no row the viewer may see is not found.
 */
export async function analyseUser(caller: Caller, raw: unknown): Promise<AnalysisResult> {
  const { actor, viewer } = caller;
  const { prisma } = caller.deps;
  const input = parseOrThrow(analysisInputSchema, raw);
  const given = new Map<string, string>();
  for (const d of input.roleDecisions ?? []) {
    if (d.userId && d.userId !== input.userId) throw new ValidationError('Every role decision must be for the analysed user', 'roleDecisions');
    given.set(d.compositeBusinessRole, d.decision);
  }
  const scope = await viewScope(viewer);
  const effective = Prisma.sql`coalesce(g.decision, d.decision::text)`;
  const rows = await prisma.$queryRaw<{ risk_id: string; red: boolean; mitigated: boolean }[]>`
    WITH g(role, decision) AS (SELECT * FROM unnest(${[...given.keys()]}::text[], ${[...given.values()]}::text[]))
    SELECT r.access_risk_id AS risk_id, bool_or(${redRowSql(effective)}) AS red, ${allRedMitigatedSql(effective)} AS mitigated
      FROM risk_rows r ${decisionJoin(scope)}
      LEFT JOIN g ON g.role = r.composite_business_role
     WHERE r.user_id = ${input.userId} AND ${scope.visible}
     GROUP BY r.access_risk_id
     ORDER BY r.access_risk_id`;
  if (!rows.length) throw new NotFoundError('No risk data found for this user');
  const riskBreakdown = rows.map((r): RiskBreakdownEntry => ({ riskId: r.risk_id, status: r.red ? 'red' : 'green', mitigated: r.red && r.mitigated }));
  const redCount = riskBreakdown.filter((r) => r.status === 'red').length;
  const mitigatedCount = riskBreakdown.filter((r) => r.mitigated).length;
  const userStatus: AnalysisStatus = redCount > 0 ? 'red' : 'green';
  const stored = await prisma.analysisResult.create({
    data: { subjectUserId: input.userId, status: userStatus, riskBreakdown: riskBreakdown as unknown as Prisma.InputJsonValue, createdById: actor.user.id },
  });
  return {
    id: stored.id,
    userId: input.userId,
    userStatus,
    riskBreakdown,
    redCount,
    mitigatedCount,
    totalRisks: riskBreakdown.length,
    timestamp: stored.createdAt,
  };
}

type StoredRaw = { id: string; subject_user_id: string; status: AnalysisStatus; risk_breakdown: unknown; created_at: Date };

function fromStored(r: StoredRaw): AnalysisResult {
  const raw = typeof r.risk_breakdown === 'string' ? JSON.parse(r.risk_breakdown) : r.risk_breakdown;
  const riskBreakdown = Array.isArray(raw) ? (raw as RiskBreakdownEntry[]) : [];
  return {
    id: r.id,
    userId: r.subject_user_id,
    userStatus: r.status,
    riskBreakdown,
    redCount: riskBreakdown.filter((b) => b.status === 'red').length,
    mitigatedCount: riskBreakdown.filter((b) => b.mitigated).length,
    totalRisks: riskBreakdown.length,
    timestamp: r.created_at,
  };
}

/**
 * The viewer's latest stored result per user (the results depend on the
 * viewer's decisions and rows), for users the viewer still sees; only the
 * given users when `userIds` is set; at most MAX_LATEST users.
 */
export async function latestResults(caller: Caller, userIds?: readonly string[] | null): Promise<AnalysisResult[]> {
  if (userIds && userIds.length > MAX_LATEST) throw new ValidationError(`At most ${MAX_LATEST} users at once`, 'userIds');
  const only = userIds ? Prisma.sql`AND a.subject_user_id = ANY(${[...userIds]}::text[])` : Prisma.empty;
  return storedResults(
    caller,
    Prisma.sql`SELECT DISTINCT ON (a.subject_user_id) a.id, a.subject_user_id, a.status::text AS status, a.risk_breakdown, a.created_at
        FROM analysis_results a
       WHERE a.created_by_id = ${caller.viewer.user.id}::uuid ${only}
       ORDER BY a.subject_user_id, a.created_at DESC`,
  );
}

/**
 * Stored results as node(id:) reads them, in the same order: null for an id of
 * nothing, of another user's analysis, or of a user the viewer no longer sees
 * (the same rule as latestResults).
 */
export async function resultsById(caller: Caller, ids: readonly string[]): Promise<(AnalysisResult | null)[]> {
  const wanted = ids.filter(isUuid);
  if (!wanted.length) return ids.map(() => null);
  const found = await storedResults(
    caller,
    Prisma.sql`SELECT a.id, a.subject_user_id, a.status::text AS status, a.risk_breakdown, a.created_at
        FROM analysis_results a WHERE a.id = ANY(${wanted}::uuid[]) AND a.created_by_id = ${caller.viewer.user.id}::uuid`,
  );
  const byId = new Map(found.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** The results `from` selects (alias a) of users the viewer still sees, newest first, at most MAX_LATEST. */
async function storedResults(caller: Caller, from: Prisma.Sql): Promise<AnalysisResult[]> {
  const { visible } = await caller.viewer.scope();
  const rows = await caller.deps.prisma.$queryRaw<StoredRaw[]>`
    SELECT * FROM (${from}) a
     WHERE EXISTS (SELECT 1 FROM risk_rows r WHERE r.user_id = a.subject_user_id AND ${visible})
     ORDER BY a.created_at DESC
     LIMIT ${MAX_LATEST}`;
  return rows.map(fromStored);
}
