// Uploads through POST /api/upload as a signed-in client, and waiting for an
// upload to finish, as the upload tests and the tests that load data do.
import fs from 'node:fs';
import path from 'node:path';
import type { Client, TestServer } from './server.js';

/** POST /api/upload as `c`: these form fields, then the file. The answer's status and body. */
export async function postUpload(server: TestServer, c: Client, name: string, content: Buffer | string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const res = await fetch(server.url + '/api/upload', { method: 'POST', body: form, headers: { cookie: c.cookieHeader } });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * POST /api/upload of a file on disk as `c`, to the instance at `baseUrl`: streamed from the
 * file by fetch (never held whole), the form's fields before it, named as the file unless `name`.
 */
export async function postUploadFile(baseUrl: string, c: Client, file: string, fields: Record<string, string> = {}, name = path.basename(file)) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', await fs.openAsBlob(file), name);
  const res = await fetch(`${baseUrl}/api/upload`, { method: 'POST', body: form, headers: { cookie: c.cookieHeader } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** Waits until upload `id` is no longer processing and returns its status (read as `admin`). */
export async function settleUpload(admin: Client, id: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = await admin.get(`/api/upload-status/${id}`);
    if (s.body.status !== 'processing') return s.body;
    if (Date.now() > deadline) throw new Error('upload did not finish');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Loads a CSV export as the administrator (no e-mail) and waits until it has completed; its id. */
export async function loadExport(server: TestServer, admin: Client, content: string, opts: { mode?: 'replace' | 'append'; name?: string } = {}) {
  const { body } = await postUpload(server, admin, opts.name ?? 'export.csv', content, { uploadMode: opts.mode ?? 'replace', emailNotification: 'false' });
  const id = (body as { uploadId: string }).uploadId;
  for (const deadline = Date.now() + 60_000; ;) {
    const s = await admin.get(`/api/upload-status/${id}`);
    if (s.body.status === 'completed') return id;
    if (s.body.status === 'failed' || Date.now() > deadline) throw new Error(`upload: ${JSON.stringify(s.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
