// Reading a period's evidence bundles (administrators: the list of versions in
// GraphQL, the download at GET /api/reports/evidence-bundle), the public key
// that verifies them (/.well-known/grc-evidence-key, without signing in), and
// their retention: a bundle is kept `evidence.retentionYears` (Admin Settings,
// default 7) after it was made, then the daily job deletes its file and marks
// it expired, one audited (hash-chained) event each. A purge of risk data
// never touches bundles nor the audit trail (services/uploads/purge.ts).
import type { EvidenceBundle } from '../../generated/prisma/client.js';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { isUuid } from '../../core/types.js';
import type { Caller } from '../caller.js';
import type { AppDeps } from '../deps.js';
import { evidenceRetentionYears } from '../identity/settings.js';
import { bundleKey, type BundleStatus } from './evidence-bundle.js';
import type { ByteSource } from '../../db/storage/index.js';
import { evidenceKey } from './evidence-key.js';

export interface BundleView {
  periodId: string;
  version: number;
  status: BundleStatus;
  createdAt: Date;
  writtenAt: Date | null;
  sizeBytes: number | null;
  sha256: string | null;
  manifestSha256: string | null;
  timestamped: boolean;
  errorMessage: string | null;
  expiredAt: Date | null;
  /** When the retention setting lets it go (as the setting stands now). */
  expiresAt: Date;
}

const addYears = (d: Date, years: number) => {
  const x = new Date(d);
  x.setUTCFullYear(x.getUTCFullYear() + years);
  return x;
};

function viewOf(b: EvidenceBundle, years: number): BundleView {
  return {
    periodId: b.periodId,
    version: b.version,
    status: b.status as BundleStatus,
    createdAt: b.createdAt,
    writtenAt: b.writtenAt,
    sizeBytes: b.sizeBytes == null ? null : Number(b.sizeBytes),
    sha256: b.sha256,
    manifestSha256: b.manifestSha256,
    timestamped: b.timestamped,
    errorMessage: b.errorMessage,
    expiredAt: b.expiredAt,
    expiresAt: addYears(b.createdAt, years),
  };
}

async function periodOf(caller: Caller, periodId: string) {
  const period = isUuid(periodId) ? await caller.deps.prisma.reviewPeriod.findUnique({ where: { id: periodId } }) : null;
  if (!period) throw new NotFoundError('Review period not found');
  return period;
}

/** Every bundle of a period, newest version first. */
export async function listBundles(caller: Caller, periodId: string): Promise<BundleView[]> {
  await periodOf(caller, periodId);
  const { prisma } = caller.deps;
  const years = await evidenceRetentionYears(prisma);
  const rows = await prisma.evidenceBundle.findMany({ where: { periodId }, orderBy: { version: 'desc' } });
  return rows.map((b) => viewOf(b, years));
}

/** A bundle to download: `version`, or the latest when it is left out; a clear refusal otherwise. */
export async function bundleForDownload(
  caller: Caller,
  periodId: string,
  version?: number,
): Promise<{ view: BundleView; file: ByteSource; downloadName: string }> {
  const period = await periodOf(caller, periodId);
  const { prisma, storage } = caller.deps;
  const latest = await prisma.evidenceBundle.findFirst({ where: { periodId }, orderBy: { version: 'desc' } });
  if (!latest) {
    throw new NotFoundError(
      period.status === 'closed'
        ? 'This review period has no evidence bundle: it was closed before bundles were written. Download its evidence once to freeze it and write one.'
        : 'This review period has no evidence bundle yet: a bundle is written when the period closes.',
    );
  }
  const b = version === undefined ? latest : await prisma.evidenceBundle.findUnique({ where: { periodId_version: { periodId, version } } });
  if (!b) throw new NotFoundError(`Version ${version} of this period's evidence bundle does not exist: the latest is version ${latest.version}`);
  const view = viewOf(b, await evidenceRetentionYears(prisma));
  if (b.status === 'writing')
    throw new ConflictError(
      `Version ${b.version} of this period's evidence bundle is being written: it can be downloaded within a minute of the close. Try again shortly.`,
    );
  if (b.status === 'failed')
    throw new ConflictError(`Version ${b.version} of this period's evidence bundle could not be written: ${b.errorMessage ?? 'unknown error'}`);
  if (b.status === 'expired' || !b.fileName) {
    throw new NotFoundError(
      `Version ${b.version} of this period's evidence bundle was deleted on ${b.expiredAt?.toISOString().slice(0, 10)}: its retention period ended`,
    );
  }
  const key = bundleKey(periodId, b.fileName);
  if (!(await storage.head(key))) throw new NotFoundError(`Version ${b.version} of this period's evidence bundle is missing from the server's file store`);
  const file = storage.source(key);
  const name =
    period.name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'period';
  return { view, file, downloadName: `evidence-bundle-${name}-v${b.version}.zip` };
}

/** The public key (PEM, SPKI) that verifies this installation's bundles; generated on first use. */
export async function publicEvidenceKey(deps: Pick<AppDeps, 'prisma' | 'config'>): Promise<string> {
  return (await evidenceKey(deps.prisma, deps.config)).publicKeyPem;
}

/**
 * Deletes the bundles older than the retention (as of `now`): for each, in
 * one transaction, the row marked expired and an 'evidence_bundle.expired'
 * audit event; the file after the commit. Returns how many went.
 */
export async function expireBundles(deps: Pick<AppDeps, 'prisma' | 'config' | 'log' | 'storage'>, now: Date): Promise<number> {
  const { prisma, storage } = deps;
  const years = await evidenceRetentionYears(prisma);
  const cutoff = addYears(now, -years);
  const due = await prisma.evidenceBundle.findMany({ where: { status: { in: ['ready', 'failed'] }, createdAt: { lt: cutoff } } });
  let expired = 0;
  for (const b of due) {
    const done = await prisma.$transaction(async (tx) => {
      const { count } = await tx.evidenceBundle.updateMany({
        where: { periodId: b.periodId, version: b.version, status: b.status },
        data: { status: 'expired', expiredAt: now, fileName: null },
      });
      if (!count) return false;
      await recordAudit(tx, null, {
        action: 'evidence_bundle.expired',
        entityType: 'EvidenceBundle',
        entityId: `${b.periodId}/v${b.version}`,
        periodId: b.periodId,
        before: { status: b.status, sha256: b.sha256, sizeBytes: b.sizeBytes, manifestSha256: b.manifestSha256, createdAt: b.createdAt },
        after: { status: 'expired', retentionYears: years },
      });
      return true;
    });
    if (!done) continue;
    if (b.fileName) await storage.delete(bundleKey(b.periodId, b.fileName));
    expired++;
  }
  if (expired) deps.log(`evidence retention: ${expired} bundle(s) older than ${years} years deleted`);
  return expired;
}
