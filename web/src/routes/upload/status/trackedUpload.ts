// The upload the status card follows: from sending the file, through the
// server's load, to its outcome (SPEC §4 Upload: processing to completed or
// failed; a client timeout yields a checking state).
import type { ProgressUpdate, SendProgress, UploadMode } from '../uploadClient';

export type TrackedPhase = 'sending' | 'waiting' | 'processing' | 'completed' | 'failed' | 'checking';

export type TrackedUpload = {
  /** Distinguishes one tracked upload from the next (for announcements and subscriptions). */
  key: number;
  name: string;
  size: number;
  mode: UploadMode;
  phase: TrackedPhase;
  /** When the browser started sending (client clock, ms). */
  sendStartedAt: number;
  sent: SendProgress | null;
  /** The REST upload id and the DataUpload global id, once known. */
  uploadId: string | null;
  globalId: string | null;
  /** When the server's load was first known to be under way (client clock, ms). */
  processingSince: number | null;
  finishedAt: number | null;
  rowsProcessed: number;
  bytesProcessed: number;
  duplicatesSkipped: number;
  recordCount: number | null;
  errorMessage: string | null;
  /** A completed upload's warnings (columns not loaded, values not read). */
  warnings: readonly string[];
  /** Set when this upload was started by Retry rather than by sending a file. */
  retried: boolean;
};

let nextKey = 1;

/** What a tracked upload has loaded before the server reports any progress. */
const NOTHING_LOADED_YET = {
  finishedAt: null,
  rowsProcessed: 0,
  bytesProcessed: 0,
  duplicatesSkipped: 0,
  recordCount: null,
  errorMessage: null,
  warnings: [],
} as const satisfies Partial<TrackedUpload>;

export function startSending(file: File, mode: UploadMode): TrackedUpload {
  return {
    key: nextKey++,
    name: file.name,
    size: file.size,
    mode,
    phase: 'sending',
    sendStartedAt: Date.now(),
    sent: { loaded: 0, total: file.size },
    uploadId: null,
    globalId: null,
    processingSince: null,
    ...NOTHING_LOADED_YET,
    retried: false,
  };
}

/** Follows an upload already on the server (a retry, or one found after a timeout). */
export function followExisting(options: { name: string; size: number; mode: UploadMode; globalId: string; retried: boolean }): TrackedUpload {
  const now = Date.now();
  return {
    key: nextKey++,
    name: options.name,
    size: options.size,
    mode: options.mode,
    phase: 'processing',
    sendStartedAt: now,
    sent: null,
    uploadId: uploadIdOf(options.globalId),
    globalId: options.globalId,
    processingSince: now,
    ...NOTHING_LOADED_YET,
    retried: options.retried,
  };
}

/** The upload id inside a DataUpload global id ('DataUpload:<id>' in base64), checking its type. */
export function uploadIdOf(globalId: string): string | null {
  try {
    const decoded = window.atob(globalId);
    return decoded.startsWith('DataUpload:') ? decoded.slice('DataUpload:'.length) : null;
  } catch {
    return null;
  }
}

/** Merges a progress event or status poll into the tracked upload (never moving backwards). */
export function applySnapshot(t: TrackedUpload, s: ProgressUpdate): TrackedUpload {
  if (t.phase === 'completed' || t.phase === 'failed') return t;
  // REST's poll answers 'processing', the subscription PROCESSING.
  const status = s.status.toLowerCase();
  if (status !== 'processing' && status !== 'completed' && status !== 'failed') return t;
  const now = Date.now();
  if (status === 'processing') {
    return {
      ...t,
      phase: 'processing',
      processingSince: t.processingSince ?? now,
      rowsProcessed: Math.max(t.rowsProcessed, s.rowsProcessed),
      bytesProcessed: Math.max(t.bytesProcessed, s.bytesProcessed),
      duplicatesSkipped: Math.max(t.duplicatesSkipped, s.duplicatesSkipped),
    };
  }
  if (status === 'completed') {
    return {
      ...t,
      phase: 'completed',
      processingSince: t.processingSince ?? now,
      finishedAt: now,
      rowsProcessed: s.rowsProcessed,
      bytesProcessed: t.size,
      duplicatesSkipped: s.duplicatesSkipped,
      recordCount: s.recordCount && s.recordCount > 0 ? s.recordCount : s.rowsProcessed,
      errorMessage: null,
      warnings: s.warnings ?? [],
    };
  }
  return {
    ...t,
    phase: 'failed',
    processingSince: t.processingSince ?? now,
    finishedAt: now,
    rowsProcessed: s.rowsProcessed,
    duplicatesSkipped: s.duplicatesSkipped,
    errorMessage: s.errorMessage ?? null,
  };
}
