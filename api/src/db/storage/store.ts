// The object store: where the files every instance must read are kept (stored
// uploads and their previews, access extracts, evidence bundles), under keys
// that name them as paths relative to DATA_DIR ('uploads/<id>.csv',
// 'evidence/<period>/v1-….zip'). Two stores speak this one interface: the
// local folder (DATA_DIR, the embedded default) and any S3-compatible store
// (STORAGE_URL=s3://bucket/prefix). No other module touches those files.
import type { Readable } from 'node:stream';

/** A file's bytes as the readers take them: its size, and any range of it as a stream. */
export interface ByteSource {
  /** What messages and logs call it (a key or a path). */
  readonly name: string;
  /** The file on this machine, when it is one (a reader that needs a path, such as the .xls child process, opens it). */
  readonly path?: string;
  /** Its size in bytes; StoredFileMissing when it is not there. */
  size(): Promise<number>;
  /** Its bytes from `start` to `end` (inclusive; the end of the file when left out), streamed. */
  read(start?: number, end?: number): Readable;
}

export interface StoredObject {
  key: string;
  size: number;
  modifiedAt: Date;
}

export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Where it is, for the log: a folder or s3://bucket/prefix. */
  readonly location: string;
  /**
   * Streams `body` into `key` (S3: a multipart upload, a few parts held at a
   * time; local: a file written beside it, then renamed into place) and
   * returns the bytes written. On failure nothing is left under `key`.
   */
  put(key: string, body: Readable | AsyncIterable<Buffer | string> | Buffer | string): Promise<{ size: number }>;
  /** The object's bytes, read when asked (a missing object fails the first read with StoredFileMissing). */
  source(key: string): ByteSource;
  /** Its size and time, or null when there is none. */
  head(key: string): Promise<StoredObject | null>;
  /** Removes it; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Moves it to another key (local: a rename; S3: a copy inside the store, then a delete). */
  move(from: string, to: string): Promise<void>;
  /** Every object whose key starts with `prefix`. */
  list(prefix: string): Promise<StoredObject[]>;
  /**
   * A folder on this machine for work files of a job whose result is put()
   * here (an evidence bundle's entries before they are packed): the data
   * folder for the local store, so that the work and its result share the
   * disk whose space is watched; the system's temporary folder otherwise.
   */
  scratchDir(): string;
}

/** A stored file that is not there (deleted, never written, or under another store). */
export class StoredFileMissing extends Error {
  readonly code = 'ENOENT';
  constructor(readonly key: string) {
    super(`The stored file ${key} is missing`);
  }
}

/** Keys are relative paths with '/' separators, never leaving their root. */
export function checkKey(key: string): string {
  if (!key || key.startsWith('/') || key.split('/').some((p) => p === '..' || p === '') || key.includes('\\') || key.includes('\0')) {
    throw new Error(`Invalid storage key '${key}'`);
  }
  return key;
}
