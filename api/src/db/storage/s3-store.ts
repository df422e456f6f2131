// The S3 store: objects under s3://bucket/prefix in AWS S3 or any store that
// speaks its protocol (MinIO, Ceph, R2, ...). Credentials and region come from
// the usual AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_REGION, a profile or a role). With AWS_ENDPOINT_URL set (a store that
// is not AWS), requests go to it with path-style addresses
// (endpoint/bucket/key), and checksums are sent and checked only where the
// protocol requires them (many such stores refuse the newer checksum headers).
// Writes are multipart uploads of `partSize` parts, at most QUEUE of them in
// memory at once, so a 2 GB file costs the same memory as a small one.
import os from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkKey, StoredFileMissing, type ByteSource, type ObjectStore, type StoredObject } from './store.js';

/** Parts uploaded at once (each part is held in memory while it is sent). */
const QUEUE = 4;

export interface S3StoreOptions {
  bucket: string;
  /** Every key is written under it ('' for the bucket's root). */
  prefix: string;
  /** A store other than AWS (AWS_ENDPOINT_URL). */
  endpoint?: string;
  /** Bytes per part of a multipart upload (at least 5 MiB, the protocol's minimum). */
  partSize: number;
  region?: string;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

async function* counted(body: AsyncIterable<Buffer | string>, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const c of body) {
    const b = typeof c === 'string' ? Buffer.from(c) : c;
    onBytes(b.length);
    yield b;
  }
}

export function s3Store(opts: S3StoreOptions): ObjectStore {
  const config: S3ClientConfig = {
    region: opts.region || 'us-east-1',
    ...(opts.endpoint
      ? { endpoint: opts.endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
  };
  const client = new S3Client(config);
  const Bucket = opts.bucket;
  const prefix = opts.prefix ? `${opts.prefix}/` : '';
  const full = (key: string) => prefix + checkKey(key);

  async function head(key: string): Promise<StoredObject | null> {
    try {
      const h = await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
      return { key, size: Number(h.ContentLength ?? 0), modifiedAt: h.LastModified ?? new Date(0) };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  function source(key: string): ByteSource {
    return {
      name: key,
      async size() {
        const h = await head(key);
        if (!h) throw new StoredFileMissing(key);
        return h.size;
      },
      read(start = 0, end?: number) {
        // The stream is handed out at once; the object's body flows into it once the store answers.
        const out = new PassThrough({ highWaterMark: 1 << 20 });
        const abort = new AbortController();
        const range = start > 0 || end !== undefined ? `bytes=${start}-${end ?? ''}` : undefined;
        client
          .send(new GetObjectCommand({ Bucket, Key: full(key), ...(range ? { Range: range } : {}) }), { abortSignal: abort.signal })
          .then((res) => {
            const body = res.Body as Readable;
            if (out.destroyed) return void body.destroy();
            body.on('error', (err) => out.destroy(err));
            out.on('close', () => body.destroy());
            body.pipe(out);
          })
          .catch((err) => out.destroy(notFound(err) ? new StoredFileMissing(key) : err));
        out.on('close', () => abort.abort());
        return out;
      },
    };
  }

  return {
    kind: 's3',
    location: `s3://${Bucket}/${opts.prefix}`,
    async put(key, body) {
      let size = 0;
      const Body = typeof body === 'string' || Buffer.isBuffer(body) ? Buffer.from(body) : Readable.from(counted(body, (n) => (size += n)));
      const upload = new Upload({ client, params: { Bucket, Key: full(key), Body }, partSize: opts.partSize, queueSize: QUEUE, leavePartsOnError: false });
      await upload.done();
      return { size: Buffer.isBuffer(Body) ? Body.length : size };
    },
    source,
    head,
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(key) }));
    },
    async move(from, to) {
      const copySource = `${Bucket}/${full(from).split('/').map(encodeURIComponent).join('/')}`;
      try {
        await client.send(new CopyObjectCommand({ Bucket, Key: full(to), CopySource: copySource }));
      } catch (err) {
        throw notFound(err) ? new StoredFileMissing(from) : err;
      }
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(from) }));
    },
    async list(keyPrefix) {
      const out: StoredObject[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix + keyPrefix, ContinuationToken: token }));
        for (const o of page.Contents ?? []) {
          if (o.Key) out.push({ key: o.Key.slice(prefix.length), size: Number(o.Size ?? 0), modifiedAt: o.LastModified ?? new Date(0) });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    scratchDir: () => os.tmpdir(),
  };
}
