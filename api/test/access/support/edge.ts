// The engine through its edge: a running server, files posted to the access
// routes as an administrator's tool would, and waiting on what runs in the
// background.
import type { Client, TestServer } from '../../helpers/server.js';
import { tablesZip, type Row } from '../../../../scripts/access-estate.js';

/** POSTs `tables` as a .zip in the multipart field `file` (and `fields` before it) to `url`, as `c`. */
export async function postZip(server: TestServer, c: Client, url: string, tables: Record<string, Row[] | string>, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(await tablesZip(tables))]), 'tables.zip');
  const res = await fetch(server.url + url, { method: 'POST', body: form, headers: { cookie: c.cookieHeader } });
  return { status: res.status, body: (await res.json()) as any };
}

/** GETs `url` until its `status` is no longer 'processing'; the last answer's body. */
export async function settle(c: Client, url: string) {
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 150))) {
    const r = await c.get(url);
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.body)}`);
    if (r.body.status !== 'processing') return r.body;
    if (Date.now() > deadline) throw new Error(`${url} did not finish`);
  }
}

/** Parses conflicts.csv (no BOM, CRLF lines, cells without commas or quotes here): the header and each row by header. */
export function readCsv(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [head, ...lines] = text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((l) => l !== '');
  const header = head!.split(',');
  return { header, rows: lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i]!, v]))) };
}
