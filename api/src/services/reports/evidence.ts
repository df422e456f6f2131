// Auditor evidence of a review period (ARCHITECTURE.md 'Evidence'): the final
// decisions with who decided, who approved and when; the period's audit trail
// (every decision change, submission, recall, approval, return, period change,
// upload, purge, refused sign-in and lockout); its scope (the uploads with their row counts and file
// checksums); and a summary.
//
// Evidence of a closed period never changes: when a period closes, its scope,
// summary and final decisions are frozen (period_evidence), in the same
// transaction as the close, and its audit trail ends at the close (the trail
// is append-only). A later upload that replaces the rows, a purge, or a change
// of names changes nothing in it. Each close freezes a new version (1, 2,
// ...): reopening keeps the versions frozen before (the downloads show the
// live state again while it is open), and closing again freezes the next one
// beside them, with its reconciliation of the population
// (services/evidence/reconciliation.ts); every version gets its signed bundle
// (services/evidence/evidence-bundle.ts). A period closed before this existed
// is frozen at its first download. An active period's evidence is built live,
// as of the download.
import crypto from 'node:crypto';
import type { ObjectStore } from '../../db/storage/index.js';
import { uploadKey } from '../uploads/uploads.js';
import { Prisma, type ReviewPeriod } from '../../generated/prisma/client.js';
import { personLabel } from '../../core/people.js';
import type { DbClient } from '../../core/types.js';
import { holdersOf } from '../holds.js';
import { decisionRecordsSql } from './decision-records.js';
import { reconcile, type Reconciliation } from '../evidence/reconciliation.js';
import { evidenceCoverage, type EvidenceCoverage } from '../review/coverage.js';
import { resolvedBeforeDecision, type ResolvedConflict } from '../mid-period/arrivals.js';

export interface EvidenceUpload {
  id: string;
  originalName: string;
  status: string;
  mode: string;
  recordCount: number;
  duplicatesSkipped: number;
  uploadedBy: string | null;
  createdAt: string;
  completedAt: string | null;
  liveAtClose: boolean;
  /** SHA-256 of the stored file (hex); null when the file is no longer stored. */
  sha256: string | null;
  /** The stored file's size in bytes (absent in evidence frozen before it was recorded). */
  sizeBytes?: number;
  /** When a later 'replace' upload took its place (absent in evidence frozen before it was recorded). */
  supersededAt?: string | null;
}

export interface EvidenceScope {
  period: { id: string; name: string; description: string | null; startDate: string; endDate: string | null; closedAt: string | null; status: string };
  /** When the evidence was taken: the close (frozen), or the download (an active period). */
  asOf: string;
  frozen: boolean;
  /** The last audit event the evidence holds (the close's own, for a frozen period); null: up to the download. */
  lastAuditId: string | null;
  /** The frozen version (1 for the first close, n + 1 for each close after a reopen); absent while live. */
  version?: number;
  /** The close's own audit event (period.closed), whose hash is the bundle's chain head; absent while live. */
  closeEventId?: string | null;
  /** The population reconciled per source upload, as of the close (absent in evidence frozen before it existed). */
  reconciliation?: Reconciliation;
  uploads: EvidenceUpload[];
  summary: {
    decisions: number;
    retained: number;
    retainedMitigated: number;
    removed: number;
    reviewers: number;
    approvedDecisions: number;
    submissions: {
      reviewer: string;
      status: string;
      decisionCount: number;
      submittedAt: string;
      reviewedBy: string | null;
      reviewedAt: string | null;
      comment: string | null;
    }[];
    /** Work moved between reviewers during the period (absent in evidence frozen before reassignments were recorded). */
    reassignments?: { at: string; what: string; from: string; to: string; by: string; note: string | null }[];
    /** Coverage and independence: rows nobody could review, the close's reason, the fallback reviewers, each self-review routing (absent in evidence frozen before they were recorded). */
    coverage?: EvidenceCoverage;
    /**
     * Conflicts pending in the period that a later 'replace' upload no longer contained: resolved
     * before decision, not pending, listed with when they went (the first RESOLVED_LISTED; the count
     * is whole). Absent in evidence frozen before they were recorded.
     */
    resolvedBeforeDecision?: { count: number; rows: ResolvedConflict[] };
  };
}

/** The columns of the Decisions sheet: [header, key of the frozen record]. */
export const DECISION_COLUMNS: [string, string][] = [
  ['User ID', 'userId'],
  ['User Name', 'userName'],
  ['User Group', 'userGroup'],
  ['Access Risk ID', 'accessRiskId'],
  ['Risk Description', 'riskDescription'],
  ['Risk Level', 'riskLevel'],
  ['Rule ID', 'ruleId'],
  ['System', 'system'],
  ['Role/Profile', 'roleProfile'],
  ['Composite Role', 'compositeBusinessRole'],
  ['Decision', 'decision'],
  ['Comments', 'comments'],
  ['Mitigating Control', 'mitigationControl'],
  ['Mitigation Expires', 'mitigationExpiresAt'],
  ['Decided By', 'reviewer'],
  ['Decided At', 'decidedAt'],
  ['Assigned To', 'assignedTo'],
  ['Recommendation', 'recommendation'],
  ['Submission', 'submissionStatus'],
  ['Submitted At', 'submittedAt'],
  ['Approved By', 'approvedBy'],
  ['Approved At', 'approvedAt'],
  ['Approver Comment', 'approverComment'],
  // Last, so the columns before keep their places: the stage of the decision, and 'yes' on the one that stands.
  ['Stage', 'stage'],
  ['Final', 'final'],
];

export const AUDIT_COLUMNS: [string, string][] = [
  ['Event', 'id'],
  ['Occurred At', 'occurredAt'],
  ['Actor', 'actor'],
  ['Action', 'action'],
  ['Entity', 'entityType'],
  ['Entity ID', 'entityId'],
  ['Before', 'before'],
  ['After', 'after'],
  ['Address', 'ip'],
];

/** The SHA-256 of a stored upload's file, streamed from the store; null when it is gone. */
async function sha256Of(storage: ObjectStore, fileName: string): Promise<string | null> {
  try {
    const hash = crypto.createHash('sha256');
    for await (const chunk of storage.source(uploadKey(fileName)).read()) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return null;
  }
}

/** The uploads in a period's scope: loaded while it ran, or live at its end. */
async function scopeUploads(db: DbClient, period: ReviewPeriod, until: Date, storage: ObjectStore | undefined): Promise<EvidenceUpload[]> {
  const ups = await db.upload.findMany({
    where: { OR: [{ createdAt: { gte: period.startDate, lte: until } }, { live: true, createdAt: { lte: until } }] },
    include: { uploadedBy: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const out: EvidenceUpload[] = [];
  for (const u of ups) {
    out.push({
      id: u.id,
      originalName: u.originalName,
      status: u.status,
      mode: u.mode,
      recordCount: u.recordCount,
      duplicatesSkipped: u.duplicatesSkipped,
      uploadedBy: u.uploadedBy ? personLabel(u.uploadedBy) : null,
      createdAt: u.createdAt.toISOString(),
      completedAt: u.completedAt?.toISOString() ?? null,
      liveAtClose: u.live,
      sizeBytes: Number(u.sizeBytes),
      supersededAt: u.supersededAt?.toISOString() ?? null,
      sha256: storage ? await sha256Of(storage, u.fileName) : null,
    });
  }
  return out;
}

/** A period's scope and summary as of `asOf` (frozen: as the close's evidence holds them). */
export async function buildScope(db: DbClient, period: ReviewPeriod, asOf: Date, frozen: boolean, uploads: EvidenceUpload[]): Promise<EvidenceScope> {
  const [counts] = await db.$queryRaw<{ n: bigint; retained: bigint; mitigated: bigint; removed: bigint; reviewers: bigint; approved: bigint }[]>`
    SELECT count(*) + (SELECT count(*) FROM stage_decisions sd WHERE sd.period_id = ${period.id}::uuid) AS n, count(*) FILTER (WHERE d.decision = 'retain') AS retained,
           count(*) FILTER (WHERE d.decision = 'retain_mitigated') AS mitigated, count(*) FILTER (WHERE d.decision = 'remove') AS removed,
           count(DISTINCT d.reviewer_id) AS reviewers, count(*) FILTER (WHERE s.status = 'approved') AS approved
      FROM decisions d LEFT JOIN submissions s ON s.id = d.submission_id
     WHERE d.period_id = ${period.id}::uuid`;
  const subs = await db.submission.findMany({
    where: { periodId: period.id },
    include: { reviewer: true, reviewedBy: true },
    orderBy: [{ submittedAt: 'asc' }, { id: 'asc' }],
  });
  const moves = await db.reassignment.findMany({
    where: { createdAt: { gte: period.startDate, lte: asOf } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const who = (u: { firstName: string; lastName: string; email: string } | null) => (u ? personLabel(u) : null);
  const coverage = await evidenceCoverage(db, period.id);
  const resolved = await resolvedBeforeDecision(db, period.id);
  // A reason is the close's: an open period (reopened) has none yet.
  if (period.status !== 'closed') coverage.closeReason = null;
  return {
    period: {
      id: period.id,
      name: period.name,
      description: period.description,
      startDate: period.startDate.toISOString(),
      endDate: period.endDate?.toISOString() ?? null,
      closedAt: period.closedAt?.toISOString() ?? null,
      status: period.status,
    },
    asOf: asOf.toISOString(),
    frozen,
    lastAuditId: frozen ? String((await db.auditEvent.aggregate({ _max: { id: true } }))._max.id ?? 0) : null,
    uploads,
    summary: {
      decisions: Number(counts?.n ?? 0),
      retained: Number(counts?.retained ?? 0),
      retainedMitigated: Number(counts?.mitigated ?? 0),
      removed: Number(counts?.removed ?? 0),
      reviewers: Number(counts?.reviewers ?? 0),
      approvedDecisions: Number(counts?.approved ?? 0),
      submissions: subs.map((s) => ({
        reviewer: who(s.reviewer)!,
        status: s.status,
        decisionCount: s.decisionCount,
        submittedAt: s.submittedAt.toISOString(),
        reviewedBy: who(s.reviewedBy),
        reviewedAt: s.reviewedAt?.toISOString() ?? null,
        comment: s.reviewComment,
      })),
      reassignments: moves.map((m) => ({
        at: m.createdAt.toISOString(),
        what: m.criteriaName ? `assignment '${m.criteriaName}'` : `items ${m.riskRowIds.join(', ')}`,
        from: m.fromLabel,
        to: m.toLabel,
        by: m.byLabel,
        note: m.note,
      })),
      coverage,
      resolvedBeforeDecision: resolved,
    },
  };
}

/**
 * Freezes a closed period's evidence as its next version (called in the
 * transaction that closes it, after the close's audit event; `uploads` with
 * their checksums read just before): the scope with the reconciliation of
 * the population, and every final decision. Earlier versions stay as they
 * were. Returns the version frozen.
 */
export async function freezeEvidence(tx: DbClient, period: ReviewPeriod, uploads: EvidenceUpload[]): Promise<number> {
  const [next] = await tx.$queryRaw<
    { v: number }[]
  >`SELECT (coalesce(max(version), 0) + 1)::int AS v FROM period_evidence WHERE period_id = ${period.id}::uuid`;
  const version = next!.v;
  const asOf = period.closedAt ?? new Date();
  const scope = await buildScope(tx, period, asOf, true, uploads);
  const [close] = await tx.$queryRaw<{ id: bigint | null }[]>`
    SELECT max(id) AS id FROM audit_events WHERE entity_type = 'ReviewPeriod' AND entity_id = ${period.id} AND action = 'period.closed'`;
  const frozen: EvidenceScope = {
    ...scope,
    version,
    closeEventId: close?.id == null ? null : String(close.id),
    reconciliation: await reconcile(tx, period, uploads),
  };
  await tx.periodEvidence.create({ data: { periodId: period.id, version, scope: frozen as unknown as Prisma.InputJsonValue, frozenAt: asOf } });
  await tx.$executeRaw`INSERT INTO period_evidence_decisions (period_id, version, seq, record)
    SELECT ${period.id}::uuid, ${version}::int, x.seq, x.record FROM (${decisionRecordsSql(period.id, await holdersOf(tx, null))}) x`;
  return version;
}

/**
 * The audit events a period's evidence holds: its own, and the uploads,
 * purges and sign-in events since it started; up to `lastAuditId` when frozen.
 */
export function periodAuditCondition(periodId: string, startDate: Date, lastAuditId: string | null): Prisma.Sql {
  const until = lastAuditId === null ? Prisma.sql`TRUE` : Prisma.sql`e.id <= ${BigInt(lastAuditId)}`;
  return Prisma.sql`${until}
           AND (e.period_id = ${periodId}::uuid
                OR (e.occurred_at >= ${startDate} AND (e.entity_type = 'Upload' OR e.action LIKE '%purge%' OR e.action LIKE 'auth.%')))`;
}

/** The uploads (with checksums) a period's evidence would hold if it closed at `until`: read before the close's transaction. */
export function evidenceUploads(db: DbClient, period: ReviewPeriod, until: Date, storage: ObjectStore | undefined): Promise<EvidenceUpload[]> {
  return scopeUploads(db, period, until, storage);
}

/** The Summary sheet as label / value pairs. */
export function summaryRows(s: EvidenceScope): [string, string | number][] {
  const rows: [string, string | number][] = [
    ['Review period', s.period.name],
    ['Description', s.period.description ?? ''],
    ['Status', s.period.status],
    ['Started', s.period.startDate],
    ['Ends', s.period.endDate ?? ''],
    ['Closed', s.period.closedAt ?? ''],
    ['Evidence as of', s.asOf],
    ['Frozen at close', s.frozen ? 'yes' : 'no (the period is open: this is the state at the time of download)'],
    ['Final decisions', s.summary.decisions],
    ['Retained', s.summary.retained],
    ['Retained with a mitigating control', s.summary.retainedMitigated],
    ['Removed', s.summary.removed],
    ['Reviewers who decided', s.summary.reviewers],
    ['Decisions approved', s.summary.approvedDecisions],
    ['Uploads in scope', s.uploads.length],
  ];
  for (const sub of s.summary.submissions) {
    rows.push([
      `Submission by ${sub.reviewer}`,
      `${sub.status}, ${sub.decisionCount} decisions, submitted ${sub.submittedAt}` +
        (sub.reviewedBy ? `, ${sub.status} by ${sub.reviewedBy} at ${sub.reviewedAt}` : '') +
        (sub.comment ? ` (${sub.comment})` : ''),
    ]);
  }
  for (const m of s.summary.reassignments ?? []) {
    rows.push([`Reassignment at ${m.at}`, `${m.what} from ${m.from} to ${m.to} by ${m.by}` + (m.note ? ` (${m.note})` : '')]);
  }
  const c = s.summary.coverage;
  if (c) {
    rows.push(['Unassigned conflicts', c.unassignedConflicts]);
    if (c.closeReason) rows.push(['Closed with unassigned conflicts because', c.closeReason]);
    rows.push(['Fallback reviewers', c.fallbackReviewers.join('; ') || 'none']);
    if (c.inactiveFallbackReviewers.length) rows.push(['Fallback reviewers who cannot review', c.inactiveFallbackReviewers.join('; ')]);
    for (const r of c.selfReviewRoutings) {
      rows.push([`Routed: self-review of ${r.reviewer}`, `${r.rows} row${r.rows === 1 ? '' : 's'} of user ${r.userId} went to the fallback reviewer`]);
    }
  }
  rows.push(...resolvedRows(s.summary.resolvedBeforeDecision));
  return rows;
}

/** The Summary sheet's lines of the conflicts resolved before decision: how many, then one line each. */
function resolvedRows(gone: EvidenceScope['summary']['resolvedBeforeDecision']): [string, string | number][] {
  if (!gone) return [];
  const rows: [string, string | number][] = [['Resolved before decision', gone.count]];
  for (const g of gone.rows) {
    const role = `role ${g.roleProfile || '-'}${g.compositeBusinessRole ? ` in ${g.compositeBusinessRole}` : ''}`;
    rows.push([
      `Resolved before decision: ${g.userId} / ${g.accessRiskId}`,
      `${g.userName ? `${g.userName}, ` : ''}${g.system}, ${role}: no longer in the data as of ${g.resolvedAt}`,
    ]);
  }
  if (gone.count > gone.rows.length) rows.push(['Resolved before decision (not listed)', gone.count - gone.rows.length]);
  return rows;
}

export const UPLOAD_COLUMNS: [string, keyof EvidenceUpload][] = [
  ['Upload ID', 'id'],
  ['File', 'originalName'],
  ['Status', 'status'],
  ['Mode', 'mode'],
  ['Rows Loaded', 'recordCount'],
  ['Duplicates Skipped', 'duplicatesSkipped'],
  ['Uploaded By', 'uploadedBy'],
  ['Uploaded At', 'createdAt'],
  ['Completed At', 'completedAt'],
  ['Live at Close', 'liveAtClose'],
  ['File SHA-256', 'sha256'],
];
