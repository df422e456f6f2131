// An upload's load, from its stored file to live data: started (with a
// heartbeat), read and checked (ingest/open-file.ts), duplicates skipped
// (ingest/duplicates.ts), written with COPY in batches (ingest/copy-loader.ts)
// with a progress event per batch, and then made live in one short
// transaction (for 'replace', the earlier data stops being live and its
// decisions move to equal rows; what is new to an active review period, and
// what left it, is recorded, and the new rows' reviewers told after the
// commit: services/mid-period/). The rows stay invisible until then, so a
// failure leaves no row visible: the upload is failed, its rows removed. The
// uploader is mailed either way when they asked for it. The reaper fails
// loads whose worker died.
import { Prisma, type PrismaClient, type Upload, type User } from '../../generated/prisma/client.js';
import type { AppDeps } from '../deps.js';
import type { Actor } from '../../core/types.js';
import { recordAudit } from '../../core/audit.js';
import { IngestError } from '../../ingest/csv.js';
import { emptyColumnWarnings, expectedRows, listedUnknownColumns, openUploadFile, type OpenedFile } from '../../ingest/open-file.js';
import { duplicateSet } from '../../ingest/duplicates.js';
import { CopyLoader } from '../../ingest/copy-loader.js';
import { RowProblems, USED_FIELDS, rowNormalizer } from '../../ingest/rows.js';
import { LIVE_ROWS, liveRowCount } from '../live-rows.js';
import { carryOverDecisions } from '../review/decisions.js';
import { checkRemediation, notifyReopened } from '../review/remediation.js';
import { dispatch } from '../kept/dispatcher.js';
import { COMPLETED_WITH_WARNINGS, CONNECTION_LOST, DISK_FULL, failInterrupted, progressEvent, publishProgress, uploadKey } from './uploads.js';
import { isConnectionLost, isDiskFull } from '../../core/errors.js';
import { deleteUploadRows, purgeDeadRows, removeRowsOf } from './upload-purge.js';
import { ingestRows } from '../../core/metrics.js';
import { withSlot } from '../../db/slots.js';
import { onceReconnected } from '../../db/retry.js';
import { mappingChoice } from './mapping-profiles.js';
import { recordPeriodChanges, type PeriodBatch } from '../mid-period/arrivals.js';
import { notifyNewConflicts } from '../mid-period/new-conflicts.js';

export type LoadDeps = Pick<AppDeps, 'prisma' | 'db' | 'pubsub' | 'mailer' | 'config' | 'log' | 'storage'>;

type LoadingUpload = Upload & { uploadedBy: User | null };

/** Uploads this process is loading right now (the reaper leaves them alone). */
export const loadingHere = new Set<string>();

/** The advisory lock class of ingestion slots (db/slots.ts). */
const INGEST_SLOT_KEY = 72707371;

/**
 * Loads a queued upload (one in 'processing') once one of the
 * INGEST_CONCURRENCY slots shared by all instances is free; until then it
 * stays queued ('processing', not started) with a heartbeat, so the reaper
 * leaves it alone. Anything else is left alone.
 */
export async function loadUpload(deps: LoadDeps, uploadId: string): Promise<void> {
  await withSlot(
    deps.db,
    {
      key: INGEST_SLOT_KEY,
      slots: deps.config.INGEST_CONCURRENCY,
      pollMs: Math.max(500, deps.config.JOB_POLL_SECONDS * 1000),
      onWait: async () => (await deps.prisma.upload.updateMany({ where: { id: uploadId, status: 'processing' }, data: { heartbeatAt: new Date() } })).count > 0,
    },
    (lost) => loadNow(deps, uploadId, lost),
  );
}

async function loadNow(deps: LoadDeps, uploadId: string, slotLost: AbortSignal): Promise<void> {
  const { prisma } = deps;
  const up = await prisma.upload.findUnique({ where: { id: uploadId }, include: { uploadedBy: true } });
  if (!up || up.status !== 'processing') return;
  const actor = { user: up.uploadedBy };
  const started = Date.now();
  await prisma.upload.update({
    where: { id: uploadId },
    data: { startedAt: new Date(), heartbeatAt: new Date(), rowsProcessed: 0, bytesProcessed: 0n, duplicatesSkipped: 0, errorMessage: null, warnings: [] },
  });
  // An earlier, interrupted attempt may have left rows.
  await deleteUploadRows(prisma, uploadId);
  loadingHere.add(uploadId);
  // Well inside the staleness limit, so a live load is never taken for a dead one.
  const heartbeat = setInterval(
    () => {
      prisma.upload.update({ where: { id: uploadId }, data: { heartbeatAt: new Date() } }).catch(() => {});
    },
    Math.min(10_000, (deps.config.UPLOAD_STALE_SECONDS * 1000) / 3),
  );

  let rowsCounted = 0;
  const loader = new CopyLoader({
    sql: deps.db.sql,
    batchSize: up.batchSize,
    async onBatch(progress) {
      // Without its slot's connection the load no longer counts against the limit: it stops here.
      slotLost.throwIfAborted();
      ingestRows.inc(progress.rowsProcessed - rowsCounted);
      rowsCounted = progress.rowsProcessed;
      await prisma.upload.update({
        where: { id: uploadId },
        data: {
          rowsProcessed: progress.rowsProcessed,
          bytesProcessed: BigInt(progress.bytesProcessed),
          duplicatesSkipped: progress.duplicatesSkipped,
          heartbeatAt: new Date(),
        },
      });
      publishProgress(deps.pubsub, progressEvent(up, { status: 'processing', ...progress, errorMessage: null }));
    },
  });
  let file: OpenedFile | undefined;
  try {
    // The reader hands over small groups of records, so only one group's
    // parsed fields are held at a time, beside a few MB of COPY text.
    // The mapping confirmed in the preview, else a saved profile the file matches, else the dictionary.
    file = await openUploadFile(deps.storage.source(uploadKey(up.fileName)), up.originalName, Math.min(up.batchSize, 2000), await mappingChoice(prisma, up));
    const { reader, map, layout } = file;
    await prisma.upload.update({
      where: { id: uploadId },
      data: { columnMapping: map.mapping, unknownColumns: listedUnknownColumns(map), sourceLayout: { ...layout }, warnings: file.columnWarnings },
    });
    const problems = new RowProblems();
    const existing = up.skipDuplicates && up.mode === 'append' ? await liveRowCount(prisma) : 0;
    const seen = up.skipDuplicates
      ? await duplicateSet(prisma, { existing, expected: expectedRows(Number(up.sizeBytes), up.originalName), existingRows: LIVE_ROWS })
      : undefined;
    await loader.load(reader, rowNormalizer(map, reader.header, uploadId, { decimalComma: layout.decimalSeparator === ',', problems }), seen);
    const warnings = [...file.columnWarnings, ...emptyColumnWarnings(map, USED_FIELDS, problems.filled), ...problems.warnings()];
    await completeUpload(deps, up, actor, { rows: loader.rows, duplicates: loader.duplicates, warnings }, started);
  } catch (err) {
    await loader.abort();
    await failUpload(deps, up, actor, err, loader.rows, loader.duplicates);
  } finally {
    // The file is closed also when the load stopped before reading every batch.
    await file?.reader.batches.return(undefined).catch(() => {});
    clearInterval(heartbeat);
    loadingHere.delete(uploadId);
  }
}

/**
 * Makes a fully loaded upload live, in one transaction: for 'replace', the
 * decisions on equal rows move to its rows and the earlier data stops being
 * live (rows loaded without an upload are deleted); the kept aggregates follow
 * (what they do after the commit, returned); the remediation list's 'done'
 * items are checked against its rows (returned).
 */
type Outcome = { rows: number; duplicates: number; warnings: string[] };

async function goLive(prisma: PrismaClient, up: LoadingUpload, actor: Actor, counts: Outcome) {
  const uploadId = up.id;
  return prisma.$transaction(
    async (tx) => {
      const completedAt = new Date();
      let batch: PeriodBatch | null;
      if (up.mode === 'replace') {
        await carryOverDecisions(tx, actor, uploadId);
        // While the replaced data is still the live one: what is new to the active period, what left it.
        batch = await recordPeriodChanges(tx, up, completedAt);
        await tx.upload.updateMany({ where: { live: true, id: { not: uploadId } }, data: { live: false, supersededAt: new Date() } });
        // Rows loaded without an upload are part of the data being replaced.
        await tx.$executeRaw`DELETE FROM risk_rows WHERE upload_id IS NULL`;
        await dispatch(tx, { kind: 'upload-rows-deleted', uploadId: null });
      } else batch = await recordPeriodChanges(tx, up, completedAt);
      // Readers bound their scans by this (see LIVE_ROWS).
      await tx.$executeRaw`UPDATE uploads SET max_row_id = (SELECT max(id) FROM risk_rows WHERE upload_id = ${uploadId}::uuid) WHERE id = ${uploadId}::uuid`;
      await tx.upload.update({
        where: { id: uploadId },
        data: {
          status: 'completed',
          live: true,
          recordCount: counts.rows,
          duplicatesSkipped: counts.duplicates,
          warnings: counts.warnings,
          completedAt,
          heartbeatAt: new Date(),
        },
      });
      await recordAudit(tx, actor, {
        action: 'upload.completed',
        entityType: 'Upload',
        entityId: uploadId,
        after: { originalName: up.originalName, mode: up.mode, records: counts.rows, duplicatesSkipped: counts.duplicates, warnings: counts.warnings.length },
      });
      // The kept aggregates follow the new live rows before the upload is done.
      const kept = await dispatch(tx, { kind: 'upload-live' });
      // The remediation list's 'done' items are checked against the new data (verified, or reopened).
      return { checked: await checkRemediation(tx, actor, uploadId), kept, batch };
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
}

/** The load has written every row: live, announced, mailed; a 'replace' then purges what it replaced. */
async function completeUpload(deps: LoadDeps, up: LoadingUpload, actor: Actor, counts: Outcome, started: number) {
  const { rows, duplicates: dups } = counts;
  const { checked, kept, batch } = await goLive(deps.prisma, up, actor, counts);
  await notifyReopened(deps, actor, checked).catch((err: Error) => deps.log(`upload ${up.id}: remediation notification failed: ${err.stack ?? err}`));
  deps.log(`upload ${up.originalName}: ${rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s (${dups} duplicates skipped)`);
  // What the kept aggregates do after the commit (the dashboard's figures worked out), before the
  // completion is announced (open dashboards refetch on it): the first read after an upload is not a cold one.
  await kept({ ...deps, log: (message) => deps.log(`upload ${up.id}: ${message}`) });
  publishProgress(
    deps.pubsub,
    progressEvent(up, {
      status: 'completed',
      rowsProcessed: rows,
      bytesProcessed: up.sizeBytes,
      duplicatesSkipped: dups,
      errorMessage: null,
      warnings: counts.warnings,
    }),
  );
  if (up.emailNotification && up.uploadedBy) {
    const warned = counts.warnings.length > 0;
    await deps.mailer.send({
      to: up.uploadedBy.email,
      subject: `${warned ? COMPLETED_WITH_WARNINGS : 'Upload complete'}: ${up.originalName}`,
      text:
        `Your file ${up.originalName} was processed${warned ? ' with warnings' : ' successfully'}: ${rows.toLocaleString('en-US')} records imported` +
        (dups ? `, ${dups.toLocaleString('en-US')} duplicate records skipped` : '') +
        '.\n' +
        (warned ? `\nWarnings:\n${counts.warnings.map((w) => `- ${w}`).join('\n')}\n` : ''),
    });
  }
  // The reviewers of conflicts new to the active period are told, once for the batch.
  if (batch) await notifyNewConflicts(deps, batch).catch((err: Error) => deps.log(`upload ${up.id}: new conflicts notification failed: ${err.stack ?? err}`));
  if (up.mode === 'replace') await purgeDeadRows(deps.prisma);
}

/** The load failed: the upload is failed with a message, announced, its rows removed, the uploader mailed. */
async function failUpload(deps: LoadDeps, up: LoadingUpload, actor: Actor, err: unknown, rows: number, dups: number) {
  const { prisma } = deps;
  const uploadId = up.id;
  const message =
    err instanceof IngestError
      ? err.message
      : isConnectionLost(err)
        ? CONNECTION_LOST
        : isDiskFull(err)
          ? DISK_FULL
          : err instanceof Prisma.PrismaClientKnownRequestError || err instanceof Error
            ? `The file could not be loaded: ${(err as Error).message.split('\n').slice(-1)[0]}`
            : 'The file could not be loaded.';
  if (!(err instanceof IngestError)) deps.log(`upload ${uploadId} failed: ${(err as Error)?.stack ?? err}`);
  // The failure is recorded also when it was the connection that failed: the pool opens a new one.
  await onceReconnected(() =>
    prisma.$transaction(async (tx) => {
      await tx.upload.update({ where: { id: uploadId }, data: { status: 'failed', live: false, errorMessage: message, completedAt: new Date() } });
      await recordAudit(tx, actor, {
        action: 'upload.failed',
        entityType: 'Upload',
        entityId: uploadId,
        after: { originalName: up.originalName, error: message },
      });
    }),
  );
  publishProgress(deps.pubsub, progressEvent(up, { status: 'failed', rowsProcessed: rows, bytesProcessed: 0, duplicatesSkipped: dups, errorMessage: message }));
  await onceReconnected(() => removeRowsOf(prisma, [uploadId]));
  if (up.emailNotification && up.uploadedBy) {
    await deps.mailer.send({
      to: up.uploadedBy.email,
      subject: `Upload failed: ${up.originalName}`,
      text: `Your file ${up.originalName} could not be loaded.\n\n${message}\n`,
    });
  }
}

/**
 * The reaper: fails the uploads whose worker stopped sending heartbeats (the
 * server died mid-load; not those loading here), then removes their rows.
 */
export async function reapInterrupted(deps: Pick<LoadDeps, 'prisma' | 'log'>, staleSeconds: number): Promise<void> {
  const failed = await failInterrupted(deps.prisma, staleSeconds, loadingHere);
  if (failed.length) {
    deps.log(`marked ${failed.length} interrupted upload(s) failed`);
    await purgeDeadRows(deps.prisma);
  }
}
