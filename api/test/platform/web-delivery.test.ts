// A fast first load: text answers travel compressed when the
// browser accepts it, the web build's hashed assets are kept a year and the
// page itself is asked for again each time; a streamed CSV export still
// arrives whole.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/core/metrics.js';
import { adminClient, startServer, userClient, type Client, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: Client;
let webDist: string;
const bigScript = `export const rows = [${Array.from({ length: 2000 }, (_, i) => `{id:${i},label:"row ${i}"}`).join(',')}];\n`;

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'grc-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>GRC Risk Management</title><div id="root"></div>');
  fs.writeFileSync(path.join(webDist, 'robots.txt'), 'User-agent: *\n');
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(path.join(webDist, 'assets', 'index-Ab12Cd34.js'), bigScript);
  // A build's precompressed copies (scripts/build-web.mjs writes them at the highest quality).
  fs.writeFileSync(path.join(webDist, 'assets', 'vendor-Ef56Gh78.js'), bigScript);
  fs.writeFileSync(path.join(webDist, 'assets', 'vendor-Ef56Gh78.js.br'), zlib.brotliCompressSync(bigScript));
  fs.writeFileSync(path.join(webDist, 'assets', 'vendor-Ef56Gh78.js.gz'), zlib.gzipSync(bigScript, { level: 9 }));
  // The signed-in frames as scripts/build-web.mjs writes them (web/src/boot/bootFrame.ts), nonce placeholder included.
  // (A frame is a few KB, its style most of it: above the compression threshold.)
  const frame = (name: string) => `<div class="bf"><style nonce="__CSP_NONCE__">${'.bf{color:#242424}'.repeat(100)}</style><h1>${name}</h1></div>`;
  fs.writeFileSync(
    path.join(webDist, 'boot-frames.json'),
    JSON.stringify({
      unframed: ['/internal-login', '/sign-in-refused'],
      collapsedCookie: 'sidebar_collapsed',
      byViewer: ['/risk-review'],
      frames: {
        '/': [frame('Dashboard'), frame('Dashboard, sidebar collapsed')],
        '*': [frame('Any page'), frame('Any page, sidebar collapsed')],
        '/risk-review|admin-closed': [frame('Risk Review, no period'), frame('Risk Review, no period, collapsed')],
        '/risk-review|admin-open': [frame('Risk Review'), frame('Risk Review, collapsed')],
        '/risk-review|reviewer-closed': [frame('My Assigned Risks'), frame('My Assigned Risks, collapsed')],
        '/risk-review|reviewer-open': [frame('My Assigned Risks'), frame('My Assigned Risks, collapsed')],
      },
    }),
  );
  server = await startServer({ WEB_DIST: webDist });
  admin = await adminClient(server);
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

/** A GET as a browser sends it, with the raw bytes and headers (no automatic decoding). */
function get(p: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; raw: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(p, server.url), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function decode(r: { headers: http.IncomingHttpHeaders; raw: Buffer }): string {
  const enc = r.headers['content-encoding'];
  if (enc === 'br') return zlib.brotliDecompressSync(r.raw).toString('utf8');
  if (enc === 'gzip') return zlib.gunzipSync(r.raw).toString('utf8');
  return r.raw.toString('utf8');
}

describe('compression', () => {
  it('sends a large JSON answer brotli- or gzip-compressed as the client accepts, and plain otherwise', async () => {
    const plain = await get('/api/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const size = plain.raw.length;
    expect(size).toBeGreaterThan(10_000);

    const br = await get('/api/openapi.json', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.raw.length).toBeLessThan(size / 3);
    expect(JSON.parse(decode(br))).toEqual(JSON.parse(plain.raw.toString('utf8')));

    const gz = await get('/api/openapi.json', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(gz)).openapi).toMatch(/^3\./);
  });

  it('compresses GraphQL answers', async () => {
    const body = JSON.stringify({ query: '{ __schema { types { name description } } }' });
    const r = await fetch(new URL('/graphql', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br', cookie: admin.cookieHeader },
      body,
    });
    expect(r.headers.get('content-encoding')).toBe('br');
    expect(((await r.json()) as { data: { __schema: unknown } }).data.__schema).toBeTruthy();
  });

  it('compresses the JS of the web app, which browsers then keep a year under its hashed name', async () => {
    const r = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/javascript/);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.raw.length).toBeLessThan(bigScript.length / 3);
    expect(decode(r)).toBe(bigScript);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("sends the build's precompressed copy of an asset when there is one", async () => {
    const br = await get('/assets/vendor-Ef56Gh78.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.raw.equals(fs.readFileSync(path.join(webDist, 'assets', 'vendor-Ef56Gh78.js.br')))).toBe(true);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await get('/assets/vendor-Ef56Gh78.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(gz)).toBe(bigScript);
    const plain = await get('/assets/vendor-Ef56Gh78.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.toString('utf8')).toBe(bigScript);
  });

  it('makes the browser ask again for index.html (the SPA fallback too) and unhashed files', async () => {
    for (const p of ['/', '/users', '/index.html']) {
      const r = await get(p, { accept: 'text/html', 'accept-encoding': 'gzip, br' });
      expect(r.status, p).toBe(200);
      expect(r.headers['cache-control'], p).toBe('no-cache');
      expect(decode(r), p).toContain('<div id="root">');
    }
    const robots = await get('/robots.txt');
    expect(robots.headers['cache-control']).toBe('no-cache');
  });

  it("paints the signed-in page's frame into the page for a visitor with a session cookie, and only then", async () => {
    const signedOut = decode(await get('/', { accept: 'text/html' }));
    expect(signedOut).toContain('<div id="root"></div>');
    expect(signedOut).not.toContain('class="bf"');

    const home = await get('/', { accept: 'text/html', cookie: admin.cookieHeader });
    expect(home.headers.vary).toMatch(/cookie/i);
    const html = decode(home);
    expect(html).toContain('<div id="root"><div class="bf"><style nonce="');
    expect(html).toContain('<h1>Dashboard</h1>');
    // The style carries this response's CSP nonce, not the placeholder.
    const nonce = /'nonce-([^']+)'/.exec(String(home.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`<style nonce="${nonce}">`);

    expect(decode(await get('/users', { cookie: admin.cookieHeader }))).toContain('<h1>Any page</h1>');
    expect(decode(await get('/', { cookie: `${admin.cookieHeader}; sidebar_collapsed=true` }))).toContain('<h1>Dashboard, sidebar collapsed</h1>');
    // The sign-in screens are outside the signed-in layout: as built.
    for (const p of ['/internal-login', '/sign-in-refused']) {
      expect(decode(await get(p, { cookie: admin.cookieHeader })), p).toContain('<div id="root"></div>');
    }
    // The frames file itself is not served.
    expect(decode(await get('/boot-frames.json'))).not.toContain('collapsedCookie');
  });

  it('sends the framed page compressed when the browser accepts it (and reads index.html once: a changed file is not seen)', async () => {
    const plain = await get('/', { accept: 'text/html', cookie: admin.cookieHeader });
    expect(plain.headers['content-encoding']).toBeUndefined();
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Changed</title><div id="root"></div>');
    for (const p of ['/', '/risk-review', '/users']) {
      const br = await get(p, { accept: 'text/html', cookie: admin.cookieHeader, 'accept-encoding': 'gzip, deflate, br' });
      expect(br.status, p).toBe(200);
      expect(br.headers['content-encoding'], p).toBe('br');
      expect(br.headers.vary, p).toMatch(/accept-encoding/i);
      expect(br.headers.vary, p).toMatch(/cookie/i);
      expect(decode(br), p).toContain('<title>GRC Risk Management</title>');
      expect(decode(br), p).toContain('<div id="root"><div class="bf">');
    }
    // Unknown API paths still answer a JSON 404, unknown methods on pages too.
    const api = await get('/api/no-such-thing', { cookie: admin.cookieHeader });
    expect(api.status).toBe(404);
    expect(JSON.parse(decode(api)).message).toBe('Not found: GET /api/no-such-thing');
    expect((await fetch(new URL('/users', server.url), { method: 'POST' })).status).toBe(404);
  });

  it("frames Risk Review as the session's viewer gets it: the administrator's tabs (with the period notice while none is active) or a reviewer's own risks", async () => {
    const page = async (c: Client) => decode(await get('/risk-review', { accept: 'text/html', cookie: c.cookieHeader }));
    expect(await page(admin)).toContain('<h1>Risk Review, no period</h1>');
    const reviewer = await userClient(server, admin, 'reviewer');
    expect(await page(reviewer.client)).toContain('<h1>My Assigned Risks</h1>');
    const period = await admin.post('/api/review-periods', { name: 'Framed period' });
    expect(period.status).toBe(201);
    try {
      expect(await page(admin)).toContain('<h1>Risk Review</h1>');
      expect(await page(reviewer.client)).toContain('<h1>My Assigned Risks</h1>');
    } finally {
      expect((await admin.put(`/api/review-periods/${period.body.id}/close`)).status).toBe(200);
    }
    // A cookie that is no session (expired, signed out): the page as built, which goes to sign-in.
    const stale = decode(await get('/risk-review', { accept: 'text/html', cookie: 'grc_session=not-a-session' }));
    expect(stale).toContain('<div id="root"></div>');
    // Other pages do not ask the database: any cookie gets their frame.
    expect(decode(await get('/users', { accept: 'text/html', cookie: 'grc_session=not-a-session' }))).toContain('<h1>Any page</h1>');
  });

  it('still streams a CSV export whole, compressed when accepted', async () => {
    const headers = { cookie: admin.cookieHeader };
    const plain = await get('/api/reports/risk-report', headers);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/text\/csv/);
    const gz = await get('/api/reports/risk-report', { ...headers, 'accept-encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-disposition']).toMatch(/attachment; filename="risk-export-/);
    // Below the threshold the header line travels as is; either way the file is the same.
    expect(decode(gz)).toBe(plain.raw.toString('utf8'));
    expect(decode(gz).startsWith('\uFEFF')).toBe(true);
  });
});

describe('metrics of the web app', () => {
  it("count the app's files under one route label, and every metric carries the application prefix", async () => {
    for (const f of ['/assets/index-Ab12Cd34.js', '/assets/vendor-Ef56Gh78.js', '/robots.txt']) expect((await get(f)).status).toBe(200);
    const text = await registry.metrics();
    expect(text).toMatch(/grc_http_request_duration_seconds_count\{method="GET",route="\/\(web app file\)",status_code="200"\} [3-9]/);
    expect(text).not.toMatch(/route="\/assets\//);
    expect(text).not.toMatch(/route="\/robots\.txt"/);
    const names = [...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    for (const n of names) expect(n).toMatch(/^grc_/);
  });
});
