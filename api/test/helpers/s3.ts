// A local S3-compatible server (s3rver) for the object storage tests: started
// on a free port over a temporary folder with one bucket, behind a loopback
// proxy that notes every request the app makes (method, path, headers), and a
// client of our own to look at what the app stored there (keys, bytes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';

export interface S3Request {
  method: string;
  /** The path and query, as sent (path-style: /bucket/key). */
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface TestS3 {
  /** The proxy's address: what the app is given as AWS_ENDPOINT_URL. */
  endpoint: string;
  /** Every request made through the endpoint so far. */
  requests: S3Request[];
  bucket: string;
  client: S3Client;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  /** An object's SHA-256 and size, streamed. */
  digest(key: string): Promise<{ sha256: string; size: number }>;
  head(key: string): Promise<{ etag: string; size: number }>;
  close(): Promise<void>;
}

/** The credentials s3rver accepts; the SDK reads them from the usual variables. */
export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

export async function startS3(bucket = 'grc-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const requests: S3Request[] = [];
  // Forwarded as sent (the signature covers the Host header, which stays the proxy's).
  const proxy = http.createServer((req, res) => {
    requests.push({ method: req.method!, url: req.url!, headers: req.headers });
    const up = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    up.on('error', (err) => res.destroy(err));
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  // The test's own client goes to the server directly: the proxy notes the app's requests only.
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: S3_CREDENTIALS.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: S3_CREDENTIALS.AWS_SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    requests,
    bucket,
    client,
    async keys() {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        out.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out.sort();
    },
    async digest(key) {
      const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const hash = crypto.createHash('sha256');
      let size = 0;
      for await (const c of res.Body as Readable) {
        hash.update(c as Buffer);
        size += (c as Buffer).length;
      }
      return { sha256: hash.digest('hex'), size };
    },
    async head(key) {
      const h = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { etag: h.ETag ?? '', size: Number(h.ContentLength) };
    },
    async close() {
      client.destroy();
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
