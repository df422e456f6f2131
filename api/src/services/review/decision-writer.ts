// The one writer of decisions. Every way a decision comes to be goes through
// writeDecisions and names its origin:
//   'user'               a reviewer's (or administrator's) save of named rows;
//   'by-filter'          their save of every row matching a filter;
//   'carry-over'         a replacing upload copying decisions to its equal rows;
//   'mitigation-carried' a new period taking the still-valid mitigations of the one before;
//   'default-at-close'   a period's default decision on items still pending at its close.
// The origin decides what happens to a decision already on the row and how
// the write is audited, and the audit records it. Writes are set-based: the
// rows come as one SELECT per statement (up to millions of rows), never row
// by row. The triggers on decisions keep the figures that follow them.
import { Prisma } from '../../generated/prisma/client.js';
import { ValidationError } from '../../core/errors.js';
import { auditRowsSql, recordAudit, type AuditEntry } from '../../core/audit.js';
import type { Actor, DbClient } from '../../core/types.js';
import { lockDecisionWrites } from './decision-locks.js';
import { MITIGATED } from '../risk-rules.js';

export const MITIGATION_CONTROL_REQUIRED = 'A mitigated decision must name the mitigating control (the row has none in the export)';

export type DecisionOrigin = 'user' | 'by-filter' | 'carry-over' | 'mitigation-carried' | 'default-at-close';

interface OriginRule {
  /**
   * A reviewer's own decision: it replaces theirs on the row, a mitigation
   * without a typed control takes the row's Control column, and each changed
   * row is audited ('decision.changed'). Otherwise a decision already on the
   * row is kept and the write is audited as one event (DecisionWrite.summary).
   */
  own: boolean;
  /** The copy keeps the original's submission and times. */
  keepsHistory?: boolean;
  /** Written by the period's default at close, not by the reviewer (reopening takes it back). */
  appliedAtClose?: boolean;
}

const ORIGINS: Record<DecisionOrigin, OriginRule> = {
  user: { own: true },
  'by-filter': { own: true },
  'carry-over': { own: false, keepsHistory: true },
  'mitigation-carried': { own: false },
  'default-at-close': { own: false, appliedAtClose: true },
};

/**
 * The rows of one statement: a SELECT yielding period_id, reviewer_id,
 * risk_row_id, decision (text or "DecisionValue"), via (decided on the
 * user's composite role), comments, mc and mexp (mitigating control and
 * expiry); for 'carry-over' also submission_id, created_at and updated_at.
 */
export type DecisionRows = Prisma.Sql;

export interface DecisionWrite {
  origin: DecisionOrigin;
  /**
   * The period written: its decision writers are taken (lockDecisionWrites)
   * before the first write; null where rows of several periods are copied
   * and none is active. A reviewer's own write is to this period only.
   */
  period: string | null;
  /** One statement's rows, or several statements' (e.g. one per reviewer). */
  rows: DecisionRows | DecisionRows[];
  /** For the origins audited as one event: that event given each statement's count, or null for none. */
  summary?: (counts: number[]) => AuditEntry | null;
}

/**
 * Writes decisions in the caller's transaction, audited with their origin.
 * A reviewer's own write refuses a mitigation with no control (typed, or the
 * row's Control column) before anything is written. Returns how many rows
 * the write covered.
 */
export async function writeDecisions(tx: DbClient, actor: Actor, write: DecisionWrite): Promise<number> {
  const rule = ORIGINS[write.origin];
  let locked = false;
  const lock = async () => {
    if (!locked && write.period) await lockDecisionWrites(tx, write.period);
    locked = true;
  };
  const counts: number[] = [];
  for (const rows of Array.isArray(write.rows) ? write.rows : [write.rows]) {
    counts.push(rule.own ? await writeOwn(tx, actor, write, rule, rows, lock) : await writeKeeping(tx, rule, rows, lock));
  }
  const summary = write.summary?.(counts);
  if (summary) await recordAudit(tx, actor, { ...summary, after: { ...(summary.after as object), origin: write.origin } });
  return counts.reduce((a, b) => a + b, 0);
}

/** A reviewer's own decisions: replacing theirs, one 'decision.changed' event per changed row. */
async function writeOwn(tx: DbClient, actor: Actor, write: DecisionWrite, rule: OriginRule, rows: DecisionRows, lock: () => Promise<void>): Promise<number> {
  const user = actor.user;
  if (!user || !write.period) throw new Error(`A '${write.origin}' write needs a signed-in reviewer and the period`);
  const input = Prisma.sql`
    SELECT s.period_id, s.reviewer_id, s.risk_row_id, s.decision, s.comments, s.via,
           CASE WHEN s.decision = ${MITIGATED} THEN coalesce(nullif(s.mc, ''), nullif(r.mitigation_control, '')) END AS mc,
           CASE WHEN s.decision = ${MITIGATED} THEN s.mexp END AS mexp
      FROM (${rows}) s JOIN risk_rows r ON r.id = s.risk_row_id
     WHERE s.period_id = ${write.period}::uuid AND s.reviewer_id = ${user.id}::uuid`;
  const [missing] = await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM (${input}) i WHERE i.decision = ${MITIGATED} AND i.mc IS NULL`;
  if (Number(missing?.n ?? 0) > 0) throw new ValidationError(MITIGATION_CONTROL_REQUIRED, 'mitigationControl');
  await lock();
  const changed = auditRowsSql(
    actor,
    Prisma.sql`
      SELECT 'decision.changed' AS action, 'RiskRow' AS entity_type, up.risk_row_id::text AS entity_id, ${write.period}::uuid AS period_id,
             CASE WHEN prev.risk_row_id IS NULL THEN NULL ELSE jsonb_strip_nulls(jsonb_build_object('decision', prev.decision, 'comments', prev.comments,
               'mitigationControl', prev.mitigation_control, 'mitigationExpiresAt', prev.mitigation_expires_at)) END AS before,
             jsonb_strip_nulls(jsonb_build_object('decision', up.decision, 'comments', up.comments,
               'mitigationControl', up.mitigation_control, 'mitigationExpiresAt', up.mitigation_expires_at,
               'bulk', ${write.origin === 'by-filter' ? true : null}::boolean, 'origin', ${write.origin}::text)) AS after
        FROM up LEFT JOIN prev USING (risk_row_id)
       WHERE prev.decision IS DISTINCT FROM up.decision OR prev.comments IS DISTINCT FROM up.comments
          OR prev.mitigation_control IS DISTINCT FROM up.mitigation_control OR prev.mitigation_expires_at IS DISTINCT FROM up.mitigation_expires_at`,
  );
  const [written] = await tx.$queryRaw<{ n: bigint }[]>`
    WITH input AS (${input}), prev AS (
      SELECT d.risk_row_id, d.decision::text AS decision, d.comments, d.mitigation_control, d.mitigation_expires_at
        FROM decisions d
       WHERE d.period_id = ${write.period}::uuid AND d.reviewer_id = ${user.id}::uuid
         AND d.risk_row_id IN (SELECT risk_row_id FROM input)
    ), up AS (${insertSql(rule, Prisma.sql`SELECT * FROM input`)}
    ), audit AS (${changed} RETURNING 1)
    SELECT (SELECT count(*) FROM up) AS n, (SELECT count(*) FROM audit) AS audited`;
  return Number(written?.n ?? 0);
}

/** Decisions that do not replace one already on the row (copies, the default at close); returns how many were written. */
async function writeKeeping(tx: DbClient, rule: OriginRule, rows: DecisionRows, lock: () => Promise<void>): Promise<number> {
  await lock();
  return tx.$executeRaw(insertSql(rule, rows));
}

/**
 * The only statement inserting decisions, from `rows` (DecisionRows): a
 * reviewer's own decision replaces theirs on the row and returns what it
 * wrote (for its audit); any other keeps a decision already there.
 */
function insertSql(rule: OriginRule, rows: DecisionRows): Prisma.Sql {
  const history = rule.keepsHistory ? Prisma.sql`s.submission_id, s.created_at, s.updated_at` : Prisma.sql`NULL::uuid, now(), now()`;
  const onConflict = rule.own
    ? Prisma.sql`DO UPDATE
         SET decision = EXCLUDED.decision, via_composite_role = EXCLUDED.via_composite_role, comments = EXCLUDED.comments,
             mitigation_control = EXCLUDED.mitigation_control, mitigation_expires_at = EXCLUDED.mitigation_expires_at, updated_at = now()
      RETURNING risk_row_id, decision::text AS decision, comments, mitigation_control, mitigation_expires_at`
    : Prisma.sql`DO NOTHING`;
  return Prisma.sql`
    INSERT INTO decisions (period_id, reviewer_id, risk_row_id, decision, via_composite_role, comments, mitigation_control, mitigation_expires_at,
                           applied_at_close, submission_id, created_at, updated_at)
    SELECT s.period_id, s.reviewer_id, s.risk_row_id, s.decision::"DecisionValue", s.via, s.comments, s.mc, s.mexp,
           ${Boolean(rule.appliedAtClose)}::boolean, ${history}
      FROM (${rows}) s
    ON CONFLICT (period_id, reviewer_id, risk_row_id) ${onConflict}`;
}
