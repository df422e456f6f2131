// The remediation list (ARCHITECTURE.md 'Fulfilment'):
// approved removals, for the people who revoke access. One item is one access
// to revoke: a user's role/profile in a system, directly or under a composite
// role (every risk row of that access whose removal was approved in the
// period counts towards it: its risk ids and highest level). Administrators
// set an item open, done or failed (who and when are kept, and audited); the
// next upload checks every 'done' item: absent from the live data after it, the item
// is verified; still there, it is reopened and whoever marked it done is
// notified.
//
// Items come from approved submissions. The list is brought up to date before
// it is read or checked (listApprovedRemovals): approvals not yet listed
// (remediation_sources) add their removals, so approving stays the decisions
// service's business and approvals made before this list existed count too.
import { Prisma, type RemediationItem, type RemediationStatus } from '../../generated/prisma/client.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { actorLabel, recordAudit } from '../../core/audit.js';
import { csvLine } from '../../core/csv.js';
import { personLabelFragment } from '../../core/people.js';
import type { Actor, DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { isUuid } from '../../core/types.js';
import { sendNotificationAs, type NotificationDeps } from '../identity/notifications.js';
import { LIVE_ROWS } from '../live-rows.js';

/** What a person may set; 'verified' comes only from an upload's check. */
export const SETTABLE_STATUSES = ['open', 'done', 'failed'] as const;
export const REMEDIATION_STATUSES = ['open', 'done', 'failed', 'verified'] as const;
export const MAX_NOTE_LENGTH = 2000;

const person = personLabelFragment;

/** Adds the removals of approved submissions not yet listed (idempotent; safe to run concurrently). */
export async function listApprovedRemovals(db: DbClient): Promise<number> {
  const fresh = await db.$queryRaw<{ id: string }[]>`
    SELECT s.id::text AS id FROM submissions s
     WHERE s.status = 'approved' AND NOT EXISTS (SELECT 1 FROM remediation_sources x WHERE x.submission_id = s.id)`;
  if (!fresh.length) return 0;
  const ids = fresh.map((f) => f.id);
  const added = await db.$executeRaw`
    INSERT INTO remediation_items (period_id, user_id, user_name, system, role_profile, composite_role, risk_ids, risk_level,
                                   decided_by, approved_by, approved_at)
    SELECT d.period_id, r.user_id, max(r.user_name), r.system, r.role_profile, r.composite_business_role,
           string_agg(DISTINCT r.access_risk_id, '; '), min(r.risk_level),
           coalesce(string_agg(DISTINCT ${person('u')}, '; '), ''), coalesce(string_agg(DISTINCT ${person('a')}, '; '), ''), max(s.reviewed_at)
      FROM decisions d
      JOIN submissions s ON s.id = d.submission_id
      JOIN risk_rows r ON r.id = d.risk_row_id
      JOIN users u ON u.id = d.reviewer_id
      LEFT JOIN users a ON a.id = s.reviewed_by_id
     WHERE d.decision = 'remove' AND d.submission_id = ANY(${ids}::uuid[])
     GROUP BY d.period_id, r.user_id, r.system, r.role_profile, r.composite_business_role
    ON CONFLICT (period_id, user_id, system, role_profile, composite_role) DO NOTHING`;
  await db.$executeRaw`INSERT INTO remediation_sources (submission_id) SELECT unnest(${ids}::uuid[]) ON CONFLICT DO NOTHING`;
  return added;
}

export interface RemediationFilter {
  periodId?: string | null;
  status?: string | null;
}

/** The Prisma condition of a filter (bad input: a 4xx naming it). */
export function remediationWhere(f: RemediationFilter): Prisma.RemediationItemWhereInput {
  const where: Prisma.RemediationItemWhereInput = {};
  if (f.periodId) {
    if (!isUuid(f.periodId)) throw new NotFoundError('Review period not found');
    where.periodId = f.periodId;
  }
  if (f.status) {
    if (!(REMEDIATION_STATUSES as readonly string[]).includes(f.status)) throw new ValidationError('status must be open, done, failed or verified', 'status');
    where.status = f.status as RemediationStatus;
  }
  return where;
}

/** The list's order: oldest approval first, then by access (stable: ends with the id). */
export const REMEDIATION_ORDER: Prisma.RemediationItemOrderByWithRelationInput[] = [
  { approvedAt: 'asc' },
  { userId: 'asc' },
  { system: 'asc' },
  { roleProfile: 'asc' },
  { id: 'asc' },
];

export type RemediationRecord = RemediationItem & { period: { name: string } };

/**
 * Brings the list up to date and answers the condition of the filter: every
 * read of the list (REST pages, the CSV, GraphQL's connection) starts here.
 */
export async function remediationScope(caller: Caller, filter: RemediationFilter): Promise<Prisma.RemediationItemWhereInput> {
  const where = remediationWhere(filter);
  await listApprovedRemovals(caller.deps.prisma);
  return where;
}

/** The list (up to date), filtered by period and status, in a stable order. */
export async function listRemediation(caller: Caller, filter: RemediationFilter, paging: { limit?: number; offset?: number } = {}) {
  const { prisma } = caller.deps;
  const where = await remediationScope(caller, filter);
  const [items, total] = await Promise.all([
    prisma.remediationItem.findMany({
      where,
      include: { period: { select: { name: true } } },
      orderBy: REMEDIATION_ORDER,
      take: paging.limit ?? 500,
      skip: paging.offset ?? 0,
    }),
    prisma.remediationItem.count({ where }),
  ]);
  return { items: items as RemediationRecord[], total };
}

export function remediationJson(i: RemediationRecord) {
  return {
    id: i.id,
    periodId: i.periodId,
    periodName: i.period.name,
    userId: i.userId,
    userName: i.userName,
    system: i.system,
    roleProfile: i.roleProfile,
    compositeRole: i.compositeRole,
    riskIds: i.riskIds,
    riskLevel: i.riskLevel,
    decidedBy: i.decidedBy,
    approvedBy: i.approvedBy,
    approvedAt: i.approvedAt?.toISOString() ?? null,
    status: i.status,
    statusNote: i.statusNote,
    statusSetBy: i.statusSetBy,
    statusSetAt: i.statusSetAt?.toISOString() ?? null,
    verifiedAt: i.verifiedAt?.toISOString() ?? null,
    reopenedCount: i.reopenedCount,
  };
}

export const CSV_COLUMNS: [string, keyof ReturnType<typeof remediationJson>][] = [
  ['Review Period', 'periodName'],
  ['User ID', 'userId'],
  ['User Name', 'userName'],
  ['System', 'system'],
  ['Role/Profile', 'roleProfile'],
  ['Composite Role', 'compositeRole'],
  ['Access Risk IDs', 'riskIds'],
  ['Risk Level', 'riskLevel'],
  ['Decided By', 'decidedBy'],
  ['Approved By', 'approvedBy'],
  ['Approved At', 'approvedAt'],
  ['Status', 'status'],
  ['Status Note', 'statusNote'],
  ['Status Set By', 'statusSetBy'],
  ['Status Set At', 'statusSetAt'],
  ['Verified At', 'verifiedAt'],
  ['Times Reopened', 'reopenedCount'],
  ['Item ID', 'id'],
];

/**
 * The list as CSV (cells neutralised), read in pages so memory stays flat, and
 * how many items it lists: a bad filter fails here, before the first byte.
 */
export async function remediationExport(caller: Caller, filter: RemediationFilter): Promise<{ totalRows: number; lines: AsyncGenerator<string> }> {
  const { prisma } = caller.deps;
  const where = await remediationScope(caller, filter);
  const totalRows = await prisma.remediationItem.count({ where });
  async function* lines() {
    yield csvLine(CSV_COLUMNS.map(([h]) => h));
    for (let offset = 0; ; offset += 2000) {
      const page = await prisma.remediationItem.findMany({
        where,
        include: { period: { select: { name: true } } },
        orderBy: REMEDIATION_ORDER,
        take: 2000,
        skip: offset,
      });
      if (!page.length) return;
      yield page.map((i) => csvLine(CSV_COLUMNS.map(([, k]) => remediationJson(i as RemediationRecord)[k]))).join('');
    }
  }
  return { totalRows, lines: lines() };
}

/** An administrator sets an item open, done or failed, with an optional note (audited). */
export async function setRemediationStatus(caller: Caller, id: string, status: string, note?: string | null) {
  const {
    deps: { prisma },
    actor,
  } = caller;
  if (!(SETTABLE_STATUSES as readonly string[]).includes(status)) throw new ValidationError('status must be open, done or failed', 'status');
  const text = note?.trim() || null;
  if (text && text.length > MAX_NOTE_LENGTH)
    throw new ValidationError(`note is too long (${MAX_NOTE_LENGTH.toLocaleString('en-US')} characters at most)`, 'note');
  if (!isUuid(id)) throw new NotFoundError('Remediation item not found');
  return prisma.$transaction(async (tx) => {
    const before = await tx.remediationItem.findUnique({ where: { id } });
    if (!before) throw new NotFoundError('Remediation item not found');
    const updated = await tx.remediationItem.update({
      where: { id },
      data: {
        status: status as RemediationStatus,
        statusNote: text,
        statusSetById: actor.user.id,
        statusSetBy: actorLabel(actor),
        statusSetAt: new Date(),
        verifiedAt: null,
      },
      include: { period: { select: { name: true } } },
    });
    await recordAudit(tx, actor, {
      action: 'remediation.status',
      entityType: 'RemediationItem',
      entityId: id,
      periodId: before.periodId,
      before: { status: before.status, note: before.statusNote },
      after: { status, note: text },
    });
    return updated as RemediationRecord;
  });
}

export type RemediationCheck = {
  id: string;
  status: RemediationStatus;
  user_id: string;
  system: string;
  role_profile: string;
  set_by: string | null;
  period_id: string;
}[];

/**
 * In the transaction that makes an upload live (after it went live): every
 * 'done' item is checked against the live rows, i.e. the access present after
 * the upload. Not the upload's own rows alone: an append skips the rows
 * already there as duplicates, which stay in earlier data. Absent: verified. Still there: open again
 * (counted). One audit event per upload names what changed. The caller tells
 * the people concerned after the commit (notifyReopened).
 */
export async function checkRemediation(tx: DbClient, actor: Actor, uploadId: string): Promise<RemediationCheck> {
  await listApprovedRemovals(tx);
  const rows = await tx.$queryRaw<RemediationCheck>`
    UPDATE remediation_items i
       SET status = CASE WHEN x.present THEN 'open' ELSE 'verified' END::"RemediationStatus",
           verified_at = CASE WHEN x.present THEN NULL ELSE now() END,
           reopened_count = i.reopened_count + CASE WHEN x.present THEN 1 ELSE 0 END,
           status_set_by = 'system (upload check)', status_set_at = now(), checked_upload_id = ${uploadId}::uuid
      FROM (SELECT j.id, EXISTS (SELECT 1 FROM risk_rows r
                                   WHERE ${LIVE_ROWS} AND r.user_id = j.user_id AND r.system = j.system
                                     AND r.role_profile = j.role_profile AND r.composite_business_role = j.composite_role) AS present
              FROM remediation_items j WHERE j.status = 'done') x
     WHERE i.id = x.id
    RETURNING i.id::text AS id, i.status, i.user_id, i.system, i.role_profile, i.status_set_by_id::text AS set_by, i.period_id::text AS period_id`;
  if (rows.length) {
    await recordAudit(tx, actor, {
      action: 'remediation.checked',
      entityType: 'Upload',
      entityId: uploadId,
      after: { verified: rows.filter((r) => r.status === 'verified').map((r) => r.id), reopened: rows.filter((r) => r.status === 'open').map((r) => r.id) },
    });
  }
  return rows;
}

/** After the commit: whoever marked a reopened item done is told (everyone, if that person is gone). */
export async function notifyReopened(deps: NotificationDeps, actor: Actor, checked: RemediationCheck): Promise<void> {
  const reopened = checked.filter((r) => r.status === 'open');
  const bySetter = new Map<string | null, typeof reopened>();
  for (const r of reopened) bySetter.set(r.set_by, [...(bySetter.get(r.set_by) ?? []), r]);
  for (const [setter, items] of bySetter) {
    const list = items
      .slice(0, 20)
      .map((r) => `${r.user_id} / ${r.role_profile || '(no role)'} in ${r.system}`)
      .join('; ');
    const more = items.length > 20 ? ` and ${items.length - 20} more` : '';
    await sendNotificationAs(deps, actor, {
      title: 'Removed access is still there',
      message: `The latest upload still holds ${items.length} access${items.length === 1 ? '' : 'es'} marked done on the remediation list, now open again: ${list}${more}.`,
      type: 'warning',
      ...(setter ? { targetType: 'specific' as const, targetUserId: setter } : { targetType: 'all' as const }),
    });
  }
}
