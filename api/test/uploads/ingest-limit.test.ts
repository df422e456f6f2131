// At most INGEST_CONCURRENCY uploads load at once across all instances: two
// servers on one PostgreSQL database with a limit of one take three uploads;
// never two load at the same moment, the waiting ones show as queued (in
// processing, not started), and all of them complete. PostgreSQL only (PGlite
// is one process, which loads one upload at a time anyway).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { writeCsv } from '../../../scripts/gen-data.js';

const servers: TestServer[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-ingest-limit-'));
afterAll(async () => {
  for (const s of servers.reverse()) await s.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function upload(server: TestServer, c: Client, file: string): Promise<string> {
  const form = new FormData();
  form.append('uploadMode', 'append');
  form.append('skipDuplicates', 'false');
  form.append('batchSize', '5000');
  form.append('emailNotification', 'false');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const res = await fetch(server.url + '/api/upload', { method: 'POST', body: form, headers: { cookie: c.cookieHeader } });
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { uploadId: string }).uploadId;
}

describe.runIf(Boolean(process.env.DATABASE_URL))('ingestion slots shared by all instances', () => {
  it('loads one upload at a time with INGEST_CONCURRENCY=1 across two servers; the others show as queued', async () => {
    // Instances share the stored uploads (DATA_DIR/uploads), as docker-compose.yml mounts them.
    const shared = path.join(tmp, 'data');
    const env = { INGEST_CONCURRENCY: '1', UPLOAD_STALE_SECONDS: '5', DATA_DIR: shared };
    const a = await startServer(env);
    servers.push(a);
    const b = await startServer(env, { sameDatabaseAs: a });
    servers.push(b);
    const admin = await adminClient(a);
    const files = [1, 2, 3].map((i) => {
      const f = path.join(tmp, `part-${i}.csv`);
      writeCsv(f, 40000, { seed: 100 + i });
      return f;
    });
    const db = new pg.Client({ connectionString: a.config.DATABASE_URL });
    db.on('error', () => {});
    await db.connect();
    let maxLoading = 0;
    let sawQueuedWhileLoading = false;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await db.query<{ loading: number; queued: number }>(
          `SELECT count(*) FILTER (WHERE started_at IS NOT NULL)::int AS loading,
                  count(*) FILTER (WHERE started_at IS NULL)::int AS queued
             FROM uploads WHERE status = 'processing'`,
        );
        maxLoading = Math.max(maxLoading, rows[0]!.loading);
        if (rows[0]!.loading === 1 && rows[0]!.queued > 0) sawQueuedWhileLoading = true;
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    // The queued state as a user sees it in the upload history: processing, not started yet, while another loads.
    let seenQueuedByApi = false;
    const watcher = (async () => {
      while (sampling) {
        const list = (await admin.get('/api/uploads')).body as { status: string; startedAt: string | null }[];
        const processing = list.filter((u) => u.status === 'processing');
        if (processing.some((u) => u.startedAt === null) && processing.some((u) => u.startedAt)) seenQueuedByApi = true;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const ids = await Promise.all([upload(a, admin, files[0]!), upload(b, admin, files[1]!), upload(a, admin, files[2]!)]);
    const deadline = Date.now() + 150_000;
    for (;;) {
      const all = await Promise.all(ids.map(async (id) => (await admin.get(`/api/upload-status/${id}`)).body));
      if (all.every((s) => s.status !== 'processing')) {
        expect(
          all.map((s) => s.status),
          JSON.stringify(all.map((s) => s.errorMessage)),
        ).toEqual(['completed', 'completed', 'completed']);
        break;
      }
      if (Date.now() > deadline) throw new Error(`uploads did not finish: ${JSON.stringify(all.map((s) => s.status))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    sampling = false;
    await sampler;
    await watcher;
    await db.end();
    expect(maxLoading).toBe(1);
    expect(sawQueuedWhileLoading).toBe(true);
    expect(seenQueuedByApi).toBe(true);
    expect((await admin.get('/api/risks?limit=1')).body.total).toBe(120000);
  }, 240_000);
});
