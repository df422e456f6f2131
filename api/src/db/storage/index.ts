// Which store keeps the shared files: STORAGE_URL=s3://bucket/prefix (with the
// usual AWS variables, AWS_ENDPOINT_URL for a store other than AWS), else the
// data folder (DATA_DIR), the embedded default.
import { localStore } from './local-store.js';
import type { ObjectStore } from './store.js';

export { asSource, fileSource, localStore } from './local-store.js';
export { StoredFileMissing, type ByteSource, type ObjectStore, type StoredObject } from './store.js';

export interface StorageSettings {
  dataDir: string;
  STORAGE_URL?: string;
  AWS_ENDPOINT_URL?: string;
  AWS_REGION?: string;
  /** Bytes per part of a multipart upload (S3). */
  STORAGE_PART_SIZE_MB: number;
}

/**
 * The store the settings name; an invalid STORAGE_URL is refused with what it
 * must look like. The S3 client is loaded only for an S3 store (the readers,
 * which import this wing, run in small heaps too).
 */
export async function openObjectStore(s: StorageSettings): Promise<ObjectStore> {
  if (!s.STORAGE_URL) return localStore(s.dataDir);
  const { s3Store } = await import('./s3-store.js');
  const url = new URL(s.STORAGE_URL);
  if (url.protocol !== 's3:' || !url.hostname) throw new Error(`Invalid configuration: STORAGE_URL must be s3://bucket/prefix (got ${s.STORAGE_URL})`);
  return s3Store({
    bucket: url.hostname,
    prefix: decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, ''),
    endpoint: s.AWS_ENDPOINT_URL,
    region: s.AWS_REGION,
    partSize: Math.round(s.STORAGE_PART_SIZE_MB * 1024 * 1024),
  });
}

/** A small stored object read whole (a preview's description); null when there is none. */
export async function readSmall(store: ObjectStore, key: string): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  try {
    for await (const c of store.source(key).read()) chunks.push(c as Buffer);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw err;
  }
  return Buffer.concat(chunks);
}
