// Loads one stored upload into risk_rows with COPY, in batches (the upload's
// batch size is the commit and progress granularity). The rows stay invisible
// until the whole file has loaded: then, in one short transaction, the upload
// becomes live (and, for 'replace', the earlier data stops being live, its
// decisions carried over to equal rows). A failure leaves no row visible.
import fs from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../context.js';
import { openCsv, IngestError } from './csv.js';
import { openXls, openXlsx } from './tables.js';
import { looksLikeHeader, mapHeaders } from './headers.js';
import { COPY_COLUMNS, rowNormalizer } from './rows.js';
import { recordAudit } from '../services/audit.js';
import { LIVE_ROWS } from '../services/live-rows.js';
import { Prisma } from '../generated/prisma/client.js';

export type IngestDeps = Pick<AppDeps, 'prisma' | 'db' | 'pubsub' | 'mailer' | 'config' | 'log'>;

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** Uploads this process is loading right now (the reaper leaves them alone). */
export const loadingHere = new Set<string>();

async function deleteUploadRows(deps: IngestDeps, uploadId: string) {
  // In slices, so other requests are answered in between.
  for (;;) {
    const n = await deps.prisma.$executeRaw`
      DELETE FROM risk_rows WHERE id IN (SELECT id FROM risk_rows WHERE upload_id = ${uploadId}::uuid LIMIT 20000)`;
    if (n === 0) return;
  }
}

/** Deletes the rows of uploads that are no longer live (superseded or failed). */
export async function purgeDeadRows(deps: IngestDeps) {
  const dead = await deps.prisma.upload.findMany({
    where: { live: false, status: { not: 'processing' } },
    select: { id: true },
  });
  for (const u of dead) await deleteUploadRows(deps, u.id);
}

async function existingHashes(deps: IngestDeps, into: Set<string>) {
  let after = 0n;
  for (;;) {
    const rows = await deps.prisma.$queryRaw<{ id: bigint; row_hash: string | null }[]>`
      SELECT r.id, r.row_hash FROM risk_rows r WHERE r.id > ${after} AND ${LIVE_ROWS} ORDER BY r.id LIMIT 100000`;
    if (!rows.length) return;
    for (const r of rows) if (r.row_hash) into.add(r.row_hash);
    after = BigInt(rows[rows.length - 1]!.id);
  }
}

export async function ingestUpload(deps: IngestDeps, uploadId: string): Promise<void> {
  const { prisma } = deps;
  const up = await prisma.upload.findUnique({ where: { id: uploadId }, include: { uploadedBy: true } });
  if (!up || up.status !== 'processing') return;
  const actor = { user: up.uploadedBy };
  const started = Date.now();
  await prisma.upload.update({
    where: { id: uploadId },
    data: { startedAt: new Date(), heartbeatAt: new Date(), rowsProcessed: 0, bytesProcessed: 0n, duplicatesSkipped: 0, errorMessage: null },
  });
  // An earlier, interrupted attempt may have left rows.
  await deleteUploadRows(deps, uploadId);
  loadingHere.add(uploadId);
  // Well inside the staleness limit, so a live load is never taken for a dead one.
  const heartbeat = setInterval(() => {
    prisma.upload.update({ where: { id: uploadId }, data: { heartbeatAt: new Date() } }).catch(() => {});
  }, Math.min(10_000, (deps.config.UPLOAD_STALE_SECONDS * 1000) / 3));

  let rows = 0;
  let dups = 0;
  let inFlight: Promise<void> = Promise.resolve();
  try {
    const file = path.join(uploadsDir(deps.config.dataDir), up.fileName);
    if (!fs.existsSync(file)) throw new IngestError('The stored file is missing; upload it again.');
    const ext = path.extname(up.originalName).toLowerCase();
    // The reader hands over small groups of records, so only the COPY text of a
    // batch is held, not every parsed field of it.
    const group = Math.min(up.batchSize, 2000);
    const reader = ext === '.xlsx' ? await openXlsx(file, group) : ext === '.xls' ? await openXls(file, group) : await openCsv(file, group);
    if (!looksLikeHeader(reader.header)) {
      throw new IngestError(
        'The first row is not a recognisable header. An Access Risk Analysis export starts with column names such as User ID, Access Risk ID, Role/Profile and System.',
      );
    }
    const map = mapHeaders(reader.header);
    if (map.missing.length) {
      throw new IngestError(
        `Missing required column${map.missing.length > 1 ? 's' : ''}: ${map.missing.join(', ')}. No rows were loaded.` +
          (map.unknown.length ? ` Columns not recognised: ${map.unknown.slice(0, 10).join(', ')}.` : ''),
      );
    }
    await prisma.upload.update({ where: { id: uploadId }, data: { columnMapping: map.mapping, unknownColumns: map.unknown } });
    const normalize = rowNormalizer(map, reader.header);
    const seen = new Set<string>();
    if (up.skipDuplicates && up.mode === 'append') await existingHashes(deps, seen);

    // One COPY in flight while the next batch is parsed (the database and
    // the parser work at the same time on PostgreSQL).
    let csv = '';
    let pending = 0;
    let bytesRead = 0;
    const flush = async () => {
      await inFlight;
      const text = csv;
      const progress = { rowsProcessed: rows, bytesProcessed: bytesRead, duplicatesSkipped: dups };
      csv = '';
      pending = 0;
      inFlight = (async () => {
        if (text) await deps.db.sql.copyCsv('risk_rows', COPY_COLUMNS, text);
        await prisma.upload.update({
          where: { id: uploadId },
          data: { rowsProcessed: progress.rowsProcessed, bytesProcessed: BigInt(progress.bytesProcessed), duplicatesSkipped: progress.duplicatesSkipped, heartbeatAt: new Date() },
        });
        deps.pubsub.publish('upload:progress', uploadId, {
          uploadId,
          status: 'processing',
          ...progress,
          sizeBytes: Number(up.sizeBytes),
          errorMessage: null,
        });
      })();
      // Do not leave a rejected promise unobserved while the next batch parses.
      inFlight.catch(() => {});
    };
    for await (const batch of reader.batches) {
      for (const rec of batch.records) {
        const n = normalize(rec.row, rec.fields, uploadId);
        if (up.skipDuplicates) {
          if (seen.has(n.hash)) {
            dups++;
            continue;
          }
          seen.add(n.hash);
        }
        csv += n.line;
        rows++;
        pending++;
      }
      bytesRead = batch.bytesRead;
      if (pending >= up.batchSize) await flush();
    }
    await flush();
    await inFlight;
    if (rows === 0 && dups === 0) throw new IngestError('The file has a header row but no data rows.');

    await prisma.$transaction(
      async (tx) => {
        if (up.mode === 'replace') {
          // Decisions on rows the new file keeps (same export columns) move to the new rows.
          await tx.$executeRaw`
            INSERT INTO decisions (period_id, reviewer_id, risk_row_id, decision, via_composite_role, comments,
                                   mitigation_control, mitigation_expires_at, submission_id, created_at, updated_at)
            SELECT d.period_id, d.reviewer_id, n.id, d.decision, d.via_composite_role, d.comments,
                   d.mitigation_control, d.mitigation_expires_at, d.submission_id, d.created_at, d.updated_at
              FROM decisions d
              JOIN risk_rows o ON o.id = d.risk_row_id AND (o.upload_id IS NULL OR o.upload_id <> ${uploadId}::uuid)
              JOIN risk_rows n ON n.row_hash = o.row_hash AND n.upload_id = ${uploadId}::uuid
            ON CONFLICT (period_id, reviewer_id, risk_row_id) DO NOTHING`;
          await tx.upload.updateMany({ where: { live: true, id: { not: uploadId } }, data: { live: false, supersededAt: new Date() } });
          // Rows loaded without an upload are part of the data being replaced.
          await tx.$executeRaw`DELETE FROM risk_rows WHERE upload_id IS NULL`;
        }
        await tx.upload.update({
          where: { id: uploadId },
          data: { status: 'completed', live: true, recordCount: rows, duplicatesSkipped: dups, completedAt: new Date(), heartbeatAt: new Date() },
        });
        await recordAudit(tx, actor, {
          action: 'upload.completed',
          entityType: 'Upload',
          entityId: uploadId,
          after: { originalName: up.originalName, mode: up.mode, records: rows, duplicatesSkipped: dups },
        });
      },
      { timeout: 600_000, maxWait: 60_000 },
    );
    deps.log(`upload ${up.originalName}: ${rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s (${dups} duplicates skipped)`);
    deps.pubsub.publish('upload:progress', uploadId, {
      uploadId,
      status: 'completed',
      rowsProcessed: rows,
      bytesProcessed: Number(up.sizeBytes),
      sizeBytes: Number(up.sizeBytes),
      duplicatesSkipped: dups,
      errorMessage: null,
    });
    if (up.emailNotification && up.uploadedBy) {
      await deps.mailer.send({
        to: up.uploadedBy.email,
        subject: `Upload complete: ${up.originalName}`,
        text: `Your file ${up.originalName} was processed successfully: ${rows.toLocaleString('en-US')} records imported` +
          (dups ? `, ${dups.toLocaleString('en-US')} duplicate records skipped` : '') + '.\n',
      });
    }
    if (up.mode === 'replace') await purgeDeadRows(deps);
  } catch (err) {
    // A COPY may still be running: let it finish before its rows are removed.
    await inFlight.catch(() => {});
    const message =
      err instanceof IngestError
        ? err.message
        : err instanceof Prisma.PrismaClientKnownRequestError || err instanceof Error
          ? `The file could not be loaded: ${(err as Error).message.split('\n').slice(-1)[0]}`
          : 'The file could not be loaded.';
    if (!(err instanceof IngestError)) deps.log(`upload ${uploadId} failed: ${(err as Error)?.stack ?? err}`);
    await prisma.upload.update({ where: { id: uploadId }, data: { status: 'failed', live: false, errorMessage: message, completedAt: new Date() } });
    await recordAudit(prisma, actor, { action: 'upload.failed', entityType: 'Upload', entityId: uploadId, after: { originalName: up.originalName, error: message } });
    deps.pubsub.publish('upload:progress', uploadId, {
      uploadId,
      status: 'failed',
      rowsProcessed: rows,
      bytesProcessed: 0,
      sizeBytes: Number(up.sizeBytes),
      duplicatesSkipped: dups,
      errorMessage: message,
    });
    await deleteUploadRows(deps, uploadId);
    if (up.emailNotification && up.uploadedBy) {
      await deps.mailer.send({ to: up.uploadedBy.email, subject: `Upload failed: ${up.originalName}`, text: `Your file ${up.originalName} could not be loaded.\n\n${message}\n` });
    }
  } finally {
    clearInterval(heartbeat);
    loadingHere.delete(uploadId);
  }
}
