// Loads one stored upload into risk_rows with COPY, in batches (the upload's
// batch size is the commit and progress granularity). The rows stay invisible
// until the whole file has loaded: then, in one short transaction, the upload
// becomes live (and, for 'replace', the earlier data stops being live, its
// decisions carried over to equal rows). A failure leaves no row visible.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../context.js';
import type { CopyWriter } from '../db/client.js';
import { openCsv, IngestError, type CsvReader } from './csv.js';
import { openXls, openXlsx } from './tables.js';
import { looksLikeHeader, mapHeaders } from './headers.js';
import { COPY_COLUMNS, CopyBuffer, rowNormalizer } from './rows.js';
import { DigestSet } from './hash-set.js';
import { liveRowCount } from '../services/risk-counts.js';
import { recordAudit } from '../core/audit.js';
import { LIVE_ROWS } from '../services/live-rows.js';
import { Prisma } from '../generated/prisma/client.js';

/** COPY text held before it is written into the batch's COPY, at most (plus one group of records). */
const COPY_CHUNK_BYTES = 4 * 1024 * 1024;

export type IngestDeps = Pick<AppDeps, 'prisma' | 'db' | 'pubsub' | 'mailer' | 'config' | 'log'>;

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** Uploads this process is loading right now (the reaper leaves them alone). */
export const loadingHere = new Set<string>();

/** Deletes an upload's rows; returns how many. */
async function deleteUploadRows(deps: IngestDeps, uploadId: string): Promise<number> {
  // In slices, so other requests are answered in between.
  let total = 0;
  for (;;) {
    const n = await deps.prisma.$executeRaw`
      DELETE FROM risk_rows WHERE id IN (SELECT id FROM risk_rows WHERE upload_id = ${uploadId}::uuid LIMIT 20000)`;
    if (n === 0) return total;
    total += n;
  }
}

/** Deletes the rows of uploads that are no longer live (superseded or failed). */
export async function purgeDeadRows(deps: IngestDeps) {
  const dead = await deps.prisma.upload.findMany({
    where: { live: false, status: { not: 'processing' } },
    select: { id: true },
  });
  await removeRowsOf(deps, dead.map((u) => u.id));
}

/** Deletes these uploads' rows, then the search terms only they carried. */
async function removeRowsOf(deps: IngestDeps, uploadIds: string[]) {
  let removed = 0;
  for (const id of uploadIds) removed += await deleteUploadRows(deps, id);
  if (removed) await pruneSearchTerms(deps);
}

/** For each kind of search term: the rows' columns that carry it (value, label). */
const TERM_SOURCES = {
  user: Prisma.sql`r.user_id = t.value AND r.user_name = t.label`,
  role: Prisma.sql`r.role_profile = t.value`,
  risk: Prisma.sql`r.access_risk_id = t.value AND r.risk_description = t.label`,
} as const;

/**
 * Forgets the search terms (risk_terms) that no row carries any more, so the
 * table does not keep every user, role and risk of every file ever loaded.
 * The candidates are found first (one pass over the rows, no lock: ~1 s on
 * 1M rows); they are deleted under a SHARE ROW EXCLUSIVE lock on risk_terms,
 * each checked again: the lock first waits for loads whose insert trigger has
 * touched the table to commit (their rows are then seen), and a load whose
 * trigger comes later waits for it and adds its terms back afterwards. So a
 * term that a row carries is never lost, and loads wait only for the recheck.
 */
async function pruneSearchTerms(deps: IngestDeps) {
  const { prisma } = deps;
  const candidates = new Map<keyof typeof TERM_SOURCES, { values: string[]; labels: string[] }>();
  for (const [kind, carried] of Object.entries(TERM_SOURCES) as [keyof typeof TERM_SOURCES, Prisma.Sql][]) {
    const rows = await prisma.$queryRaw<{ value: string; label: string }[]>`
      SELECT t.value, t.label FROM risk_terms t WHERE t.kind = ${kind} AND NOT EXISTS (SELECT 1 FROM risk_rows r WHERE ${carried})`;
    if (rows.length) candidates.set(kind, { values: rows.map((r) => r.value), labels: rows.map((r) => r.label) });
  }
  if (!candidates.size) return;
  await prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`LOCK TABLE risk_terms IN SHARE ROW EXCLUSIVE MODE`;
      for (const [kind, c] of candidates) {
        await tx.$executeRaw`
          DELETE FROM risk_terms t USING unnest(${c.values}::text[], ${c.labels}::text[]) AS x(value, label)
           WHERE t.kind = ${kind} AND t.value = x.value AND t.label = x.label
             AND NOT EXISTS (SELECT 1 FROM risk_rows r WHERE ${TERM_SOURCES[kind]})`;
      }
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
}

/** Adds a stored row_hash (base64 SHA-1, as rows.ts writes it) to the duplicate set. */
function addStoredHash(into: DigestSet, h: string) {
  if (h.length >= 22 && /^[A-Za-z0-9+/]+=*$/.test(h)) into.addBase64(h);
  // Not written by this loader: keyed by a digest of its text, so it still counts once.
  else into.add(crypto.hash('sha1', h, 'buffer'));
}

async function existingHashes(deps: IngestDeps, into: DigestSet) {
  // In slices of 100,000, so neither memory nor other requests wait on one big result.
  let after = 0n;
  for (;;) {
    const rows = await deps.prisma.$queryRaw<{ id: bigint; row_hash: string | null }[]>`
      SELECT r.id, r.row_hash FROM risk_rows r WHERE r.id > ${after} AND ${LIVE_ROWS} ORDER BY r.id LIMIT 100000`;
    if (!rows.length) return;
    for (const r of rows) if (r.row_hash) addStoredHash(into, r.row_hash);
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
  /** The open COPY of the batch being loaded. */
  let copy: CopyWriter | undefined;
  let reader: CsvReader | undefined;
  try {
    const file = path.join(uploadsDir(deps.config.dataDir), up.fileName);
    if (!fs.existsSync(file)) throw new IngestError('The stored file is missing; upload it again.');
    const ext = path.extname(up.originalName).toLowerCase();
    // The reader hands over small groups of records, so only one group's
    // parsed fields are held at a time, beside a few MB of COPY text.
    const group = Math.min(up.batchSize, 2000);
    reader = ext === '.xlsx' ? await openXlsx(file, group) : ext === '.xls' ? await openXls(file, group) : await openCsv(file, group);
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
    const normalize = rowNormalizer(map, reader.header, uploadId);
    // The duplicate set: ~12 bytes a row at load 0.7 (see hash-set.ts), the
    // only state that grows with the file. Sized up front from the rows
    // already loaded and the file's size (a generous guess of its rows: an
    // export line is 400+ bytes, an .xlsx row ~240 compressed), so it rarely
    // has to grow.
    const existing = up.skipDuplicates && up.mode === 'append' ? await liveRowCount(prisma) : 0;
    const expectedRows = Number(up.sizeBytes) / (ext === '.xlsx' ? 230 : 400);
    const seen = new DigestSet(up.skipDuplicates ? existing + expectedRows : 0);
    if (existing) await existingHashes(deps, seen);

    // COPY text as bytes (see rows.ts), written in chunks of a few MB into
    // one COPY statement per batch: a batch's text is never held whole, so
    // memory does not grow with the batch size, and the batch size stays the
    // commit and progress granularity.
    const csv = new CopyBuffer();
    // One chunk in flight while the next rows are parsed (the database and
    // the parser work at the same time on PostgreSQL).
    let pending = 0;
    let bytesRead = 0;
    const flush = async (endOfBatch: boolean) => {
      await inFlight;
      const chunk = csv.take();
      const progress = endOfBatch ? { rowsProcessed: rows, bytesProcessed: bytesRead, duplicatesSkipped: dups } : undefined;
      if (endOfBatch) pending = 0;
      inFlight = (async () => {
        if (chunk.length) {
          copy ??= await deps.db.sql.openCopy('risk_rows', COPY_COLUMNS);
          await copy.write(chunk);
        }
        if (!progress) return;
        if (copy) {
          const done = copy;
          copy = undefined;
          await done.end();
        }
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
        const start = csv.length;
        const hash = normalize(rec.row, rec.fields, csv);
        if (up.skipDuplicates && !seen.addBase64(hash)) {
          csv.length = start;
          dups++;
          continue;
        }
        rows++;
        pending++;
      }
      bytesRead = batch.bytesRead;
      if (pending >= up.batchSize) await flush(true);
      else if (csv.length >= COPY_CHUNK_BYTES) await flush(false);
    }
    await flush(true);
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
        // Readers bound their scans by this (see LIVE_ROWS).
        await tx.$executeRaw`UPDATE uploads SET max_row_id = (SELECT max(id) FROM risk_rows WHERE upload_id = ${uploadId}::uuid) WHERE id = ${uploadId}::uuid`;
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
    // A COPY may still be running: abandon it and let it settle before the rows are removed.
    copy?.abort();
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
    await removeRowsOf(deps, [uploadId]);
    if (up.emailNotification && up.uploadedBy) {
      await deps.mailer.send({ to: up.uploadedBy.email, subject: `Upload failed: ${up.originalName}`, text: `Your file ${up.originalName} could not be loaded.\n\n${message}\n` });
    }
  } finally {
    // The file is closed also when the load stopped before reading every batch.
    await reader?.batches.return(undefined).catch(() => {});
    clearInterval(heartbeat);
    loadingHere.delete(uploadId);
  }
}
