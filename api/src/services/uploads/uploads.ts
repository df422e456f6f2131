// Uploads: accepting a stored file, its status and history, retrying a failed
// one from its stored file, and failing loads whose worker died.
import path from 'node:path';
import { z } from 'zod';
import type { PrismaClient, Upload, User } from '../../generated/prisma/client.js';
import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError } from '../../core/errors.js';
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { recordAudit } from '../../core/audit.js';
import { neutralizeText, parseOrThrow } from '../../core/validation.js';
import { isUuid } from '../../core/types.js';
import type { AppDeps } from '../deps.js';
import type { Caller } from '../caller.js';
import type { PubSub, PubSubEvents } from '../../pubsub.js';
import { JOBS } from '../../db/queue.js';
import type { ObjectStore } from '../../db/storage/index.js';
import type { LayoutChoice } from '../../ingest/csv.js';

export const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
export const ACCEPTED_EXTENSIONS = ['.csv', '.xlsx', '.xls'];
export const BATCH_SIZES = [5000, 10000, 25000, 50000, 100000];
export const TOO_LARGE = 'File Too Large: the limit is 2GB per file.';

const bool = z.preprocess((v) => (v === undefined || v === '' ? undefined : v === true || v === 'true' || v === '1' || v === 'on'), z.boolean().optional());

/** The upload's options (multipart fields); rest/uploads/uploads.ts documents them from this schema. */
export const optionsSchema = z.object({
  uploadMode: z.enum(['append', 'replace'], { error: 'Upload mode must be append or replace' }).default('append'),
  skipDuplicates: bool.default(true),
  batchSize: z.coerce
    .number({ error: 'Batch size must be a number' })
    .refine((n) => BATCH_SIZES.includes(n), { message: `Batch size must be one of ${BATCH_SIZES.join(', ')}` })
    .default(50000),
  emailNotification: bool.default(true),
});
export type UploadOptions = z.input<typeof optionsSchema>;

export type UploadDeps = Pick<AppDeps, 'prisma' | 'jobs' | 'config' | 'storage'>;

export interface ReceivedFile {
  originalName: string;
  /** Where the received file waits in the store (uploads/.incoming/<random>) until it is kept or dropped. */
  key: string;
  sizeBytes: number;
}

/** Where an upload's file is kept in the store: uploads/<upload id><extension> (DATA_DIR/uploads as before). */
export const uploadKey = (fileName: string) => `uploads/${path.basename(fileName)}`;

/**
 * Streams an incoming file into the store (uploads/.incoming; never whole in
 * memory: S3 takes it as a multipart upload), refusing it the moment it
 * passes 2 GB (the multipart parser's file limit). On any failure nothing is
 * left.
 */
export async function receiveFile(storage: ObjectStore, stream: Readable, originalName: string): Promise<ReceivedFile> {
  const key = `uploads/.incoming/${crypto.randomUUID()}`;
  let size = 0;
  // Past the limit the parser would read and drop the rest of the file: stop here.
  stream.once('limit', () => stream.destroy(new PayloadTooLargeError(TOO_LARGE)));
  try {
    size = (await storage.put(key, stream)).size;
    if ((stream as Readable & { truncated?: boolean }).truncated || size > MAX_UPLOAD_BYTES) throw new PayloadTooLargeError(TOO_LARGE);
  } catch (err) {
    await storage.delete(key).catch(() => {});
    if ((err as { status?: number }).status === 413 || /exceeds the \d+ byte size limit/.test(String((err as Error).message))) {
      throw new PayloadTooLargeError(TOO_LARGE);
    }
    throw err;
  }
  // A file name is the browser's, not typed here: unsafe controls (an RTLO hiding the real
  // extension) are removed and line breaks become spaces (core/validation.ts neutralizeText).
  const name = neutralizeText(path.basename(originalName || 'upload'))
    .replace(/[\t\r\n\u2028\u2029]/g, ' ')
    .trim();
  return { originalName: name || 'upload', key, sizeBytes: size };
}

/** Drops a received file that is not kept (refused, or its request failed). */
export async function discardReceived(storage: ObjectStore, file: ReceivedFile | undefined): Promise<void> {
  if (file) await storage.delete(file.key).catch(() => {});
}

/** A column mapping as clients send and services keep it: each source header and its field (null: left out). */
export type ColumnChoice = { header: string; field: string | null };

/** What a confirmed preview adds to an upload: its mapping, and a profile to save it as (in the same transaction). */
export interface AcceptExtras {
  columnOverrides?: ColumnChoice[];
  /** The sheet and header row chosen in the preview. */
  layoutChoice?: LayoutChoice;
  saveProfile?: { name: string; columns: ColumnChoice[] };
}

/**
 * Records a received file (already streamed into the store) and queues
 * its load. A file of a type we do not read is recorded as failed.
 */
export async function acceptUpload(caller: Caller, file: ReceivedFile, rawOptions: UploadOptions, extras: AcceptExtras = {}): Promise<Upload> {
  const { deps, actor } = caller;
  const options = parseOrThrow(optionsSchema, rawOptions);
  const ext = path.extname(file.originalName).toLowerCase();
  const accepted = ACCEPTED_EXTENSIONS.includes(ext);
  const upload = await deps.prisma.$transaction(async (tx) => {
    const u = await tx.upload.create({
      data: {
        originalName: file.originalName.slice(0, 255),
        fileName: '',
        sizeBytes: BigInt(file.sizeBytes),
        status: accepted ? 'processing' : 'failed',
        errorMessage: accepted ? null : `Files of type '${ext || 'none'}' cannot be loaded: upload a .csv, .xlsx or .xls file.`,
        mode: options.uploadMode,
        skipDuplicates: options.skipDuplicates,
        batchSize: options.batchSize,
        emailNotification: options.emailNotification,
        uploadedById: actor.user.id,
        completedAt: accepted ? null : new Date(),
        ...(extras.columnOverrides ? { columnOverrides: extras.columnOverrides } : {}),
        ...(extras.layoutChoice ? { layoutChoice: { ...extras.layoutChoice } } : {}),
      },
    });
    if (extras.saveProfile) {
      const { name, columns } = extras.saveProfile;
      const profile = await tx.mappingProfile.upsert({ where: { name }, create: { name, columns }, update: { columns } });
      await recordAudit(tx, actor, { action: 'mapping-profile.saved', entityType: 'MappingProfile', entityId: profile.id, after: { name, columns } });
    }
    const stored = await tx.upload.update({ where: { id: u.id }, data: { fileName: `${u.id}${ext}` } });
    await recordAudit(tx, actor, {
      action: 'upload.received',
      entityType: 'Upload',
      entityId: u.id,
      after: {
        originalName: stored.originalName,
        sizeBytes: file.sizeBytes,
        mode: options.uploadMode,
        skipDuplicates: options.skipDuplicates,
        ...(extras.columnOverrides ? { columnMapping: extras.columnOverrides } : {}),
        ...(extras.layoutChoice ? { layoutChoice: { ...extras.layoutChoice } } : {}),
      },
    });
    return stored;
  });
  if (!accepted) {
    await deps.storage.delete(file.key);
    return upload;
  }
  await deps.storage.move(file.key, uploadKey(upload.fileName));
  await deps.jobs.boss.send(JOBS.ingestUpload, { uploadId: upload.id }, { retryLimit: 0, expireInHours: INGEST_JOB_EXPIRY_HOURS });
  return upload;
}

export async function getUpload(caller: Caller, id: string): Promise<Upload & { uploadedBy: User | null }> {
  const u = isUuid(id) ? await caller.deps.prisma.upload.findUnique({ where: { id }, include: { uploadedBy: true } }) : null;
  if (!u) throw new NotFoundError('Upload not found');
  return u;
}

export function listUploads(caller: Caller, limit = 200) {
  return caller.deps.prisma.upload.findMany({ include: { uploadedBy: true }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
}

/** Re-runs a failed upload from its stored file. */
export async function retryUpload(caller: Caller, id: string): Promise<Upload> {
  const { deps, actor } = caller;
  const u = await getUpload(caller, id);
  if (u.status !== 'failed') throw new ConflictError('Only a failed upload can be retried');
  if (!ACCEPTED_EXTENSIONS.includes(path.extname(u.originalName).toLowerCase())) {
    throw new ValidationError('This file type cannot be loaded; upload a .csv, .xlsx or .xls file');
  }
  if (!(await deps.storage.head(uploadKey(u.fileName)))) {
    throw new ConflictError('The stored file is gone; upload it again');
  }
  const updated = await deps.prisma.$transaction(async (tx) => {
    const r = await tx.upload.update({
      where: { id },
      // Queued again (not started) until a worker has an ingestion slot for it.
      data: {
        status: 'processing',
        errorMessage: null,
        warnings: [],
        completedAt: null,
        startedAt: null,
        rowsProcessed: 0,
        bytesProcessed: 0n,
        duplicatesSkipped: 0,
        heartbeatAt: null,
      },
    });
    await recordAudit(tx, actor, { action: 'upload.retried', entityType: 'Upload', entityId: id });
    return r;
  });
  await deps.jobs.boss.send(JOBS.ingestUpload, { uploadId: id }, { retryLimit: 0, expireInHours: INGEST_JOB_EXPIRY_HOURS });
  return updated;
}

export const INTERRUPTED = 'The upload was interrupted: the server stopped while loading it, and none of its rows were kept. Use Retry to load it again.';

/** The load lost its database connection (a failover, a restart, a session ended by the server): nothing is wrong with the file. */
export const CONNECTION_LOST =
  'The upload was interrupted: the connection to the database was lost while loading it, and none of its rows were kept. Use Retry to load it again.';

/** The disk holding the data filled up during the load. */
export const DISK_FULL =
  'The upload was interrupted: the data folder is full, and none of its rows were kept. Free some space, then use Retry to load it again.';

/** Fails uploads whose worker stopped sending heartbeats (the server died mid-load). */
/** An ingestion job not taken by a worker within this long is given up (pg-boss expires it). */
export const INGEST_JOB_EXPIRY_HOURS = 6;

export async function failInterrupted(prisma: PrismaClient, staleSeconds: number, exclude: Set<string> = new Set()): Promise<string[]> {
  const cutoff = new Date(Date.now() - staleSeconds * 1000);
  // An upload no worker has taken yet (no heartbeat) waits in the job queue, however long the
  // uploads before it take; only once its job would have expired is it given up.
  const jobExpired = new Date(Date.now() - INGEST_JOB_EXPIRY_HOURS * 3600_000);
  const stale = await prisma.upload.findMany({
    where: {
      status: 'processing',
      id: { notIn: [...exclude] },
      OR: [{ heartbeatAt: { lt: cutoff } }, { heartbeatAt: null, createdAt: { lt: jobExpired } }],
    },
    select: { id: true },
  });
  for (const { id } of stale) {
    await prisma.upload.updateMany({
      where: { id, status: 'processing' },
      data: { status: 'failed', live: false, errorMessage: INTERRUPTED, completedAt: new Date() },
    });
  }
  return stale.map((s) => s.id);
}

/** How a completed upload that has warnings is named (status card, history, e-mail, REST, GraphQL). */
export const COMPLETED_WITH_WARNINGS = 'Completed with warnings';

/**
 * The status as people read it: 'Processing', 'Completed', 'Completed with
 * warnings' (completed, and something was not loaded or not read: see
 * warnings) or 'Failed'. The status itself stays processing, completed or
 * failed, so clients waiting for completed or failed keep working.
 */
export function statusLabel(u: Pick<Upload, 'status' | 'warnings'>): string {
  if (u.status === 'completed') return u.warnings.length ? COMPLETED_WITH_WARNINGS : 'Completed';
  return u.status === 'failed' ? 'Failed' : 'Processing';
}

export type UploadProgress = PubSubEvents['upload:progress'][1];

/**
 * The one shape of an upload's progress event, for the subscription's first
 * event (from the stored upload) and for every event a load publishes (from
 * its own counts): the bytes of a completed upload are its whole size.
 */
export function progressEvent(
  u: Pick<Upload, 'id' | 'sizeBytes'>,
  at: {
    status: UploadProgress['status'];
    rowsProcessed: number;
    bytesProcessed: number | bigint;
    duplicatesSkipped: number;
    errorMessage: string | null;
    warnings?: string[];
  },
): UploadProgress {
  return {
    uploadId: u.id,
    status: at.status,
    rowsProcessed: at.rowsProcessed,
    bytesProcessed: Number(at.status === 'completed' ? u.sizeBytes : at.bytesProcessed),
    sizeBytes: Number(u.sizeBytes),
    duplicatesSkipped: at.duplicatesSkipped,
    errorMessage: at.errorMessage,
    warnings: at.status === 'completed' ? (at.warnings ?? []) : [],
  };
}

/** Publishes a progress event (after the write it reports has committed). */
export function publishProgress(pubsub: PubSub, event: UploadProgress): void {
  pubsub.publish('upload:progress', event.uploadId, event);
  // A completed upload is live: the dashboard's figures moved.
  if (event.status === 'completed') pubsub.publish('dashboard:changed', { reason: 'upload' });
}

/**
 * An upload's progress as it stands, then as it happens, ending after
 * 'completed' or 'failed': a client that subscribes late (a page opened or
 * reloaded during the load, or after it) is told where the load is at once,
 * instead of waiting for the next batch or for nothing.
 */
export async function* progressStream(caller: Caller, uploadId: string): AsyncGenerator<UploadProgress> {
  const { prisma, pubsub } = caller.deps;
  const events = pubsub.subscribe('upload:progress', uploadId)[Symbol.asyncIterator]();
  // Listening starts with the first next(), before the upload is read: an
  // event published after the read cannot be missed. One published before it
  // is older than what the read gave, and is skipped.
  const first = events.next();
  first.catch(() => {});
  try {
    const row = await prisma.upload.findUnique({ where: { id: uploadId } });
    if (!row) return;
    let last = progressEvent(row, row);
    yield last;
    let next = first;
    while (last.status === 'processing') {
      const n = await next;
      if (n.done) return;
      if (n.value.status !== 'processing' || n.value.rowsProcessed >= last.rowsProcessed) {
        last = n.value;
        yield last;
      }
      if (last.status === 'processing') next = events.next();
    }
  } finally {
    await events.return?.(undefined);
  }
}
