// The preview of a review period before it is created (administrators): the
// rows in scope, who would review how many of them in each stage, and how
// many go to the fallback reviewers and why (their own reviewer may not
// review them: self-review; or no criterion, user or process owner gives
// them to anyone). It reads the same rules the period then applies (who
// holds a row: services/holds.ts; coverage and independence: review/coverage.ts)
// and writes nothing, not even an audit event.
//
// Counted over up to every live row without a query per reviewer: the
// assignment criteria's reviewers as Reviewer Status counts them (grouped,
// review/risks.ts assignedCounts), a fixed list of users and the process owners from
// the live rows grouped by business process and, for the few rows of the
// people's own access, by user id (found by the user id index).
import { Prisma, type User } from '../../generated/prisma/client.js';
import { ForbiddenError } from '../../core/errors.js';
import type { DbClient } from '../../core/types.js';
import { HOLDS_WORK, ownIdVariants, unheldRowsCondition } from '../holds.js';
import { LIVE_ROWS, liveRowCount } from '../live-rows.js';
import { HIGH_LEVEL_SQL } from '../risk-rules.js';
import { cached } from '../kept/index.js';
import type { Caller } from '../caller.js';
import { countUnassigned, countUnheld, coverageState, readReviewSettings, type CoverageState } from '../review/coverage.js';
import { checkedPeriodInput, type CreatePeriodInput } from '../review/periods.js';
import { checkedStages } from './stages.js';
import { assignedCounts } from '../review/risks.js';
import { DEFAULT_STAGES, type StagePlan, type StageReviewerType } from './stage-plan.js';

export interface PreviewReviewer {
  user: User;
  /**
   * Stage 1: the rows they would get (their queue's total), fallback rows
   * included. A later stage: the rows that could reach them at most, if
   * every earlier decision passed on.
   */
  rows: number;
  /** Of `rows`, those they get as a fallback reviewer (stage 1 only). */
  fallbackRows: number;
}

export interface PreviewStage {
  name: string;
  reviewerType: StageReviewerType;
  reviewers: PreviewReviewer[];
}

export interface PreviewFallback {
  /** Rows of stage 1 that nobody but the fallback reviewers gets: selfReview + unassigned. */
  rows: number;
  /** Of those, rows routed away from the reviewers whose own access they are. */
  selfReview: number;
  /** Of those, rows no criterion (user, process owner) gives to anyone. */
  unassigned: number;
  /** Of those, rows nobody can review: all of them without an active fallback reviewer, else those that are every fallback reviewer's own access. */
  nobody: number;
  /** The active fallback reviewers. */
  reviewers: User[];
}

export interface PeriodPreview {
  scope: { rows: number; highRows: number };
  stages: PreviewStage[];
  fallback: PreviewFallback;
}

/** One stage's load: its own reviewers' rows, and the rows that go to the fallback reviewers. */
interface StageLoad {
  members: Map<string, number>;
  fallbackRows: Map<string, number>;
  fallback: Omit<PreviewFallback, 'reviewers'>;
}

/** What the preview of every stage reads once. */
interface Context {
  db: DbClient;
  fallbacks: User[];
  people: Map<string, User>;
}

/**
 * The preview of a period created with this body (the same body, and the
 * same refusals, as creating it), written nowhere.
 */
export async function previewPeriod(caller: Caller, input: CreatePeriodInput): Promise<PeriodPreview> {
  const db = caller.deps.prisma;
  if (caller.actor.user.role !== 'admin') throw new ForbiddenError('Only administrators can do this');
  const data = checkedPeriodInput(input);
  // The stages' own refusals, as creating the period gives them.
  await checkedStages(db, data.stages, data.endDate ?? null);
  const stages = data.stages ?? DEFAULT_STAGES;
  const people = await stagePeople(db, stages);
  const state = await coverageState(db);
  for (const u of state.active) people.set(u.id, u);
  const ctx: Context = { db, fallbacks: state.active, people };
  const [rows, highRows, loads] = await Promise.all([
    liveRowCount(db),
    cached(db, 'preview|highRows', async () => {
      const [r] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM risk_rows r WHERE ${LIVE_ROWS} AND ${HIGH_LEVEL_SQL}`;
      return Number(r?.n ?? 0);
    }),
    Promise.all(stages.map((s) => stageLoad(ctx, s, state))),
  ]);
  const first = loads[0]!;
  return {
    scope: { rows, highRows },
    stages: stages.map((s, i) => {
      const load = loads[i]!;
      // Stage 1 adds the fallback reviewers' rows; a later stage lists its own reviewers only.
      const fallbackIds = [...load.fallbackRows].filter(([, n]) => n > 0).map(([id]) => id);
      const ids = new Set(i === 0 ? [...load.members.keys(), ...fallbackIds] : load.members.keys());
      const reviewers = [...ids].map((id) => {
        const fallbackRows = i === 0 ? (load.fallbackRows.get(id) ?? 0) : 0;
        return { user: people.get(id)!, rows: (load.members.get(id) ?? 0) + fallbackRows, fallbackRows };
      });
      reviewers.sort((a, b) => b.rows - a.rows || a.user.email.localeCompare(b.user.email) || a.user.id.localeCompare(b.user.id));
      return { name: s.name, reviewerType: s.reviewers.type, reviewers };
    }),
    fallback: { ...first.fallback, reviewers: state.active },
  };
}

/** The users the stages name, by id (checkedStages has already refused a bad one). */
async function stagePeople(db: DbClient, stages: readonly StagePlan[]): Promise<Map<string, User>> {
  const named = stages.flatMap((s) => (s.reviewers.type === 'users' ? s.reviewers.userIds : []));
  return new Map((await db.user.findMany({ where: { id: { in: named } } })).map((u) => [u.id, u]));
}

function stageLoad(ctx: Context, stage: StagePlan, state: CoverageState): Promise<StageLoad> {
  switch (stage.reviewers.type) {
    case 'criteria':
      return criteriaLoad(ctx, state);
    case 'users':
      return ownersLoad(ctx, [{ key: null, owners: [...new Set(stage.reviewers.userIds)] }]);
    case 'processOwner':
      return processOwnersLoad(ctx);
  }
}

/**
 * Reviewers by the assignment criteria: what each active reviewer who holds
 * work would see (their queue's total, as Reviewer Status counts it), and
 * the rows nobody else holds, which the fallback reviewers get
 * (review/coverage.ts: self-review routings among them).
 */
async function criteriaLoad(ctx: Context, state: CoverageState): Promise<StageLoad> {
  const { db, fallbacks } = ctx;
  const holders = await db.user.findMany({ where: { role: 'reviewer', isActive: true, ...HOLDS_WORK } });
  for (const u of holders) ctx.people.set(u.id, u);
  const [assigned, unheld, nobody, fallbackOwn] = await Promise.all([
    assignedCounts(
      db,
      holders.map((u) => u.id),
    ),
    countUnheld(db, state),
    countUnassigned(db, state),
    ownRowsAmong(db, fallbacks, unheldRowsCondition(state.coverage)),
  ]);
  const selfReview = state.coverage.selfRouted.length;
  const fallbackRows = new Map(fallbacks.map((u, i) => [u.id, unheld - fallbackOwn[i]!]));
  // A fallback reviewer's queue total has their fallback rows in it: their own criteria's rows are the rest.
  const members = new Map(holders.map((u) => [u.id, (assigned.get(u.id) ?? 0) - (fallbackRows.get(u.id) ?? 0)]));
  return { members, fallbackRows, fallback: { rows: unheld, selfReview, unassigned: unheld - selfReview, nobody } };
}

/** How many live rows `where` selects that are each person's own access (one indexed lookup each, one query). */
async function ownRowsAmong(db: DbClient, people: readonly User[], where: Prisma.Sql): Promise<number[]> {
  const parts = people.flatMap((u, i) => {
    const own = ownIdVariants(u.accessUserIds);
    return own.length
      ? [Prisma.sql`SELECT ${i}::int AS k, count(*) AS n FROM risk_rows r WHERE r.user_id = ANY(${own}::text[]) AND ${LIVE_ROWS} AND ${where}`]
      : [];
  });
  const out = people.map(() => 0);
  if (!parts.length) return out;
  for (const r of await db.$queryRaw<{ k: number; n: bigint }[]>`${Prisma.join(parts, ' UNION ALL ')}`) out[r.k] = Number(r.n);
  return out;
}

/** The owners of each business process (Admin Settings) who are active users, as groups of rows by business process. */
async function processOwnersLoad(ctx: Context): Promise<StageLoad> {
  const { db, people } = ctx;
  const settings = await readReviewSettings(db);
  const ids = [...new Set(Object.values(settings.processOwners).flat())];
  const active = await db.user.findMany({ where: { id: { in: ids }, isActive: true } });
  for (const u of active) people.set(u.id, u);
  const ok = new Set(active.map((u) => u.id));
  const groups = Object.entries(settings.processOwners).map(([bp, owners]) => ({ key: bp, owners: [...new Set(owners)].filter((id) => ok.has(id)) }));
  return ownersLoad(ctx, groups);
}

/**
 * Rows given by groups (by business process, or every row: key null) to
 * their owners, each of them every row of the group but those of their own
 * access; a group's rows that are its every owner's own access go to the
 * fallback reviewers as self-review, the rows of no group or a group
 * without owners as unassigned. Counted from two grouped queries: the live
 * rows per business process, and of them the rows of the people's own user ids.
 */
async function ownersLoad(ctx: Context, groups: { key: string | null; owners: string[] }[]): Promise<StageLoad> {
  const { db, people, fallbacks } = ctx;
  const byProcess = groups.some((g) => g.key !== null);
  const involved = [...new Set([...groups.flatMap((g) => g.owners), ...fallbacks.map((u) => u.id)])].map((id) => people.get(id)!);
  const ownOf = new Map(involved.map((u) => [u.id, new Set(ownIdVariants(u.accessUserIds))]));
  const variants = [...new Set([...ownOf.values()].flatMap((s) => [...s]))];
  const [counts, ownRows] = await Promise.all([
    byProcess
      ? cached(db, 'preview|byProcess', async () =>
          (await db.$queryRaw<{ k: string; n: bigint }[]>`SELECT r.business_process AS k, count(*) AS n FROM risk_rows r WHERE ${LIVE_ROWS} GROUP BY 1`).map(
            (r) => ({ k: r.k as string | null, n: Number(r.n) }),
          ),
        )
      : liveRowCount(db).then((n) => [{ k: null as string | null, n }]),
    variants.length
      ? db.$queryRaw<{ k: string; uid: string; n: bigint }[]>`
          SELECT ${byProcess ? Prisma.sql`r.business_process` : Prisma.sql`NULL::text`} AS k, r.user_id AS uid, count(*) AS n
            FROM risk_rows r WHERE r.user_id = ANY(${variants}::text[]) AND ${LIVE_ROWS} GROUP BY 1, 2`
      : [],
  ]);
  const ownersOf = new Map(groups.map((g) => [g.key, g.owners]));
  const uidsOf = new Map<string | null, { uid: string; n: number }[]>();
  for (const r of ownRows) (uidsOf.get(r.k) ?? uidsOf.set(r.k, []).get(r.k)!).push({ uid: r.uid, n: Number(r.n) });
  const owns = (id: string, uid: string) => ownOf.get(id)!.has(uid);
  const members = new Map<string, number>(groups.flatMap((g) => g.owners.map((id) => [id, 0] as const)));
  const fallbackRows = new Map(fallbacks.map((u) => [u.id, 0]));
  const fallback = { rows: 0, selfReview: 0, unassigned: 0, nobody: 0 };
  for (const { k, n } of counts) {
    const owners = ownersOf.get(k) ?? [];
    const uids = uidsOf.get(k) ?? [];
    for (const id of owners) members.set(id, members.get(id)! + n - uids.reduce((s, u) => s + (owns(id, u.uid) ? u.n : 0), 0));
    // The rows of this group that go to the fallback reviewers: all (no owner), or those of every owner's own access.
    const routed = owners.length ? uids.filter((u) => owners.every((id) => owns(id, u.uid))) : uids;
    const routedRows = owners.length ? routed.reduce((s, u) => s + u.n, 0) : n;
    if (owners.length) fallback.selfReview += routedRows;
    else fallback.unassigned += routedRows;
    for (const f of fallbacks) fallbackRows.set(f.id, fallbackRows.get(f.id)! + routedRows - routed.reduce((s, u) => s + (owns(f.id, u.uid) ? u.n : 0), 0));
    fallback.nobody += fallbacks.length ? routed.reduce((s, u) => s + (fallbacks.every((f) => owns(f.id, u.uid)) ? u.n : 0), 0) : routedRows;
  }
  fallback.rows = fallback.selfReview + fallback.unassigned;
  return { members, fallbackRows, fallback };
}
