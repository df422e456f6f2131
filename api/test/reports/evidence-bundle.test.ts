// Signed evidence bundles (GET /api/reports/evidence-bundle, GraphQL
// evidenceBundles, /.well-known/grc-evidence-key): closing a period writes a
// ZIP whose manifest lists every file with its SHA-256, signed with the
// installation's Ed25519 key and timestamped by an RFC 3161 authority (a real
// one on loopback, api/test/helpers/standins/tsa.ts); a reopen and a new close make
// version 2 beside version 1, listing what changed; a purge keeps them; the
// retention deletes an expired one, audited; the population is reconciled
// per upload (duplicates skipped, rows undecided), and a difference the data
// cannot explain is said.
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer, type UserClient } from '../helpers/server.js';
import { loadExport } from '../helpers/upload.js';
import { readToken, startTsa, type TestTsa } from '../helpers/standins/tsa.js';
import { expireBundles } from '../../src/services/evidence/evidence-bundles.js';

let server: TestServer;
let tsa: TestTsa;
let admin: Client;
let a: UserClient;
let b: UserClient;
let periodId: string;
let periodGid: string;

const HEADER = 'User ID,User Name,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile\r\n';
// Six lines: one duplicate (skipped), one Workday row nobody is assigned, one SAP row left pending.
const EXPORT =
  HEADER +
  'U1,Alice Jones,R01,Pay vendors,High,0301,SAP ERP,Z_AP_CLERK\r\n' +
  'U1,Alice Jones,R02,Post journals,Medium,0102,SAP ERP,Z_GL\r\n' +
  'U1,Alice Jones,R02,Post journals,Medium,0102,SAP ERP,Z_GL\r\n' +
  'U2,Bob Smith,R03,Payroll,Low,0101,Workday,HR_ADMIN\r\n' +
  'U3,Cara Diaz,R04,Vendor master,High,0302,SAP ERP,Z_VENDOR\r\n' +
  'U3,Cara Diaz,R05,Bank details,High,0303,SAP ERP,Z_BANK\r\n';

/** The repository: `npx grc-verify` resolves to its packages/grc-verify there, as an auditor's clone would. */
const REPO = path.resolve(import.meta.dirname, '../../..');
const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');

async function fetchBundle(query: string, client: Client = admin) {
  const res = await fetch(`${server.url}/api/reports/evidence-bundle?${query}`, { headers: { cookie: client.cookieHeader } });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), body, message: res.ok ? null : (JSON.parse(body.toString('utf8')).message as string) };
}

/** The bundle once written: answered 409 ('being written') until then, never an error; within a minute. */
async function readyBundle(query: string) {
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 250))) {
    const r = await fetchBundle(query);
    if (r.status === 200) return r;
    expect(r.status).toBe(409);
    expect(r.message).toMatch(/is being written: it can be downloaded within a minute/);
    if (Date.now() > deadline) throw new Error('the bundle was not written within a minute');
  }
}

async function open(zipBytes: Buffer) {
  const zip = await JSZip.loadAsync(zipBytes);
  const files: Record<string, Buffer> = {};
  for (const name of Object.keys(zip.files)) files[name] = Buffer.from(await zip.files[name]!.async('uint8array'));
  return { files, manifest: JSON.parse(files['manifest.json']!.toString('utf8')) };
}

const rowId = (rows: { id: number; accessRiskId: string }[], risk: string) => rows.find((r) => r.accessRiskId === risk)!.id;

beforeAll(async () => {
  tsa = await startTsa();
  server = await startServer({ EVIDENCE_TSA_URL: tsa.url });
  admin = await adminClient(server);
  a = await userClient(server, admin);
  b = await userClient(server, admin);
  await loadExport(server, admin, EXPORT, { name: 'q4-export.csv' });
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'user_id', criteriaValue: 'U3' })).status).toBe(201);
  periodId = (await admin.post('/api/review-periods', { name: 'Q4 2026 SoD review' })).body.id;
  const mine = (await a.client.get('/api/assigned-risks')).body.risks;
  expect(
    (
      await a.client.post('/api/reviews/decisions', {
        decisions: [
          { riskDefinitionId: rowId(mine, 'R01'), decision: 'retain' },
          { riskDefinitionId: rowId(mine, 'R02'), decision: 'remove', comments: 'Not needed' },
        ],
      })
    ).status,
  ).toBe(200);
  expect((await a.client.post('/api/reviews/submit')).status).toBe(200);
  const sub = (await admin.get('/api/submissions')).body[0];
  expect((await admin.put(`/api/submissions/${sub.id}/approve`)).status).toBe(200);
  const bRows = (await b.client.get('/api/assigned-risks')).body.risks;
  expect((await b.client.post('/api/reviews/decision', { riskDefinitionId: rowId(bRows, 'R05'), decision: 'retain' })).status).toBe(200);
  expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
  const list = await admin.gql(`{ reviewPeriods(first: 5) { edges { node { id name } } } }`);
  periodGid = list.body.data.reviewPeriods.edges.find((e: any) => e.node.name === 'Q4 2026 SoD review').node.id;
});
afterAll(async () => {
  await server?.close();
  await tsa?.close();
});

describe('evidence bundle', () => {
  let v1: Buffer;

  it('is written after the close: every file listed with its SHA-256, signed with the published key, timestamped', { timeout: 90_000 }, async () => {
    const r = await readyBundle(`periodId=${periodId}`);
    expect(r.type).toBe('application/zip');
    v1 = r.body;
    const { files, manifest } = await open(r.body);
    expect(manifest.version).toBe(1);
    expect(manifest.period).toMatchObject({ id: periodId, name: 'Q4 2026 SoD review', status: 'closed' });
    const listed = manifest.files.map((f: { path: string }) => f.path).sort();
    expect(listed).toEqual(
      Object.keys(files)
        .filter((n) => !['manifest.json', 'manifest.sig', 'manifest.tsr'].includes(n))
        .sort(),
    );
    expect(listed).toEqual(
      expect.arrayContaining([
        'decisions.jsonl',
        'audit-events.jsonl',
        'approvals.json',
        'remediation.jsonl',
        'uploads.json',
        'public-key.pem',
        'summary.xlsx',
      ]),
    );
    for (const f of manifest.files) {
      expect(sha256(files[f.path]!), f.path).toBe(f.sha256);
      expect(files[f.path]!.length, f.path).toBe(f.size);
    }
    // The signature over manifest.json's exact bytes verifies with the key the installation publishes, without signing in.
    const keyRes = await fetch(`${server.url}/.well-known/grc-evidence-key`);
    expect(keyRes.status).toBe(200);
    const pem = await keyRes.text();
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(files['public-key.pem']!.toString('utf8')).toBe(pem);
    const signature = Buffer.from(files['manifest.sig']!.toString('utf8').trim(), 'base64');
    expect(crypto.verify(null, files['manifest.json']!, crypto.createPublicKey(pem), signature)).toBe(true);
    expect(crypto.verify(null, Buffer.concat([files['manifest.json']!, Buffer.from(' ')]), crypto.createPublicKey(pem), signature)).toBe(false);
    // The timestamp authority countersigned the manifest's SHA-256.
    const token = readToken(files['manifest.tsr']!);
    expect(token.digest.toString('hex')).toBe(sha256(files['manifest.json']!));
    expect(token.messageDigest.toString('hex')).toBe(sha256(token.tstInfo));
    expect(crypto.verify('sha256', token.signedAttrs, tsa.publicKey, token.signature)).toBe(true);
    // The decisions and the audit trail, chain order, the close's hash as the head.
    const decisions = files['decisions.jsonl']!.toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(decisions.map((d) => [d.accessRiskId, d.decision])).toEqual([
      ['R01', 'retain'],
      ['R02', 'remove'],
      ['R05', 'retain'],
    ]);
    const events = files['audit-events.jsonl']!.toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(Object.keys(events[0]!)).toEqual([
      'id',
      'chainSeq',
      'occurredAt',
      'actorId',
      'actorLabel',
      'action',
      'entityType',
      'entityId',
      'periodId',
      'before',
      'after',
      'ip',
      'prevHash',
      'hash',
    ]);
    const close = events.find((e) => e.action === 'period.closed')!;
    expect(manifest.chainHead).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.chainHead).toBe(close.hash);
    expect(events.map((e) => BigInt(e.chainSeq))).toEqual(events.map((e) => BigInt(e.chainSeq)).sort((x, y) => (x < y ? -1 : 1)));
    expect(events[0]!.occurredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const uploads = JSON.parse(files['uploads.json']!.toString('utf8'));
    expect(uploads[0]).toMatchObject({ originalName: 'q4-export.csv', sha256: sha256(EXPORT), sizeBytes: Buffer.byteLength(EXPORT) });
  });

  it('verifies with npx grc-verify, offline, against the key the installation publishes', { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bundle-'));
    try {
      fs.writeFileSync(path.join(dir, 'bundle.zip'), v1);
      fs.writeFileSync(path.join(dir, 'key.pem'), await (await fetch(`${server.url}/.well-known/grc-evidence-key`)).text());
      const run = (args: string[]) =>
        spawnSync('npx', ['--no-install', 'grc-verify', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true' } });
      const ok = run(['--key', path.join(dir, 'key.pem'), path.join(dir, 'bundle.zip')]);
      expect(ok.status, ok.stdout + ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/signature/i);
      expect(ok.stdout).toMatch(/chain/i);
      // One byte of the decisions changed: the verifier names the file and fails.
      const zip = await JSZip.loadAsync(v1);
      const decisions = Buffer.from(await zip.file('decisions.jsonl')!.async('uint8array'));
      decisions[decisions.length - 2] = decisions[decisions.length - 2]! ^ 1;
      zip.file('decisions.jsonl', decisions);
      fs.writeFileSync(path.join(dir, 'tampered.zip'), await zip.generateAsync({ type: 'nodebuffer' }));
      const bad = run(['--key', path.join(dir, 'key.pem'), path.join(dir, 'tampered.zip')]);
      expect(bad.status).toBe(1);
      expect(bad.stdout + bad.stderr).toContain('decisions.jsonl');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reconciles the population: duplicates skipped and undecided rows each explained, the arithmetic closing', async () => {
    const { manifest } = await open(v1);
    expect(manifest.reconciled).toBe(true);
    expect(manifest.reconciliation).toEqual([
      {
        uploadId: expect.any(String),
        fileName: 'q4-export.csv',
        sha256: sha256(EXPORT),
        rowsInFile: 6,
        duplicatesSkipped: 1,
        rowsLoaded: 5,
        rowsInScope: 5,
        decided: { retain: 2, remove: 1, mitigated: 0, defaultAtClose: 0 },
        undecided: 2,
        differences: [
          { rows: 1, reason: expect.stringMatching(/^Duplicates/) },
          { rows: 1, reason: expect.stringMatching(/assigned to no reviewer/) },
          { rows: 1, reason: expect.stringMatching(/^Assigned to a reviewer but not decided/) },
        ],
      },
    ]);
    for (const e of manifest.reconciliation) {
      const decided = e.decided.retain + e.decided.remove + e.decided.mitigated + e.decided.defaultAtClose;
      expect(e.rowsInFile - e.duplicatesSkipped).toBe(e.rowsLoaded);
      expect(decided + e.undecided).toBe(e.rowsInScope);
      expect(e.rowsInFile - e.differences.reduce((s: number, d: { rows: number }) => s + d.rows, 0)).toBe(decided);
    }
    const g = await admin.gql(
      `query($id: ID!) { periodReconciliation(periodId: $id) { frozen reconciled unexplainedRows entries { rowsInFile undecided } } }`,
      {
        id: periodGid,
      },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.periodReconciliation).toEqual({ frozen: true, reconciled: true, unexplainedRows: 0, entries: [{ rowsInFile: 6, undecided: 2 }] });
  });

  it('is for administrators only, and names what is unknown', async () => {
    const reviewer = await fetchBundle(`periodId=${periodId}`, a.client);
    expect(reviewer.status).toBe(403);
    expect((await fetchBundle(`periodId=${crypto.randomUUID()}`)).message).toBe('Review period not found');
    const missing = await fetchBundle(`periodId=${periodId}&version=9`);
    expect(missing.status).toBe(404);
    expect(missing.message).toBe("Version 9 of this period's evidence bundle does not exist: the latest is version 1");
    expect((await fetchBundle(`periodId=${periodId}&version=zero`)).status).toBe(400);
    expect((await fetchBundle('')).message).toBe('periodId is required');
    const g = await a.client.gql(`query($id: ID!) { evidenceBundles(periodId: $id) { version } }`, { id: periodGid });
    expect(g.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const doc = (await admin.get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/reports/evidence-bundle'].get.responses['200'].content)).toEqual(['application/zip']);
  });

  it('makes version 2 on a reopen and a new close, keeps version 1, and lists what changed', { timeout: 90_000 }, async () => {
    expect((await admin.put(`/api/review-periods/${periodId}/open`)).status).toBe(200);
    const bRows = (await b.client.get('/api/assigned-risks')).body.risks;
    expect(
      (
        await b.client.post('/api/reviews/decisions', {
          decisions: [
            { riskDefinitionId: rowId(bRows, 'R05'), decision: 'remove', comments: 'Changed my mind' },
            { riskDefinitionId: rowId(bRows, 'R04'), decision: 'retain' },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    const latest = await readyBundle(`periodId=${periodId}`);
    const { files, manifest } = await open(latest.body);
    expect(manifest.version).toBe(2);
    expect(manifest.changes).toMatchObject({ sinceVersion: 1, decisionsChanged: 1, decisionsAdded: 1, decisionsRemoved: 0 });
    const changes = files['changes.jsonl']!.toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(changes.map((c) => [c.change, c.accessRiskId, c.before?.decision ?? null, c.after?.decision ?? null])).toEqual([
      ['added', 'R04', null, 'retain'],
      ['changed', 'R05', 'retain', 'remove'],
    ]);
    expect(manifest.files.map((f: { path: string }) => f.path)).toContain('changes.jsonl');
    const first = await fetchBundle(`periodId=${periodId}&version=1`);
    expect(first.status).toBe(200);
    expect(first.body.equals(v1)).toBe(true);
    const g = await admin.gql(`query($id: ID!) { evidenceBundles(periodId: $id) { version status sha256 timestamped downloadUrl } }`, { id: periodGid });
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.evidenceBundles).toEqual([
      {
        version: 2,
        status: 'READY',
        sha256: sha256(latest.body),
        timestamped: true,
        downloadUrl: `/api/reports/evidence-bundle?periodId=${periodId}&version=2`,
      },
      { version: 1, status: 'READY', sha256: sha256(v1), timestamped: true, downloadUrl: `/api/reports/evidence-bundle?periodId=${periodId}&version=1` },
    ]);
  });

  it('survives a purge of the risk data, audit trail included', async () => {
    const prisma = server.app.deps.prisma;
    const events = await prisma.auditEvent.count();
    const r = await admin.request('DELETE', '/api/admin/purge-risk-data');
    expect(r.status).toBe(200);
    expect((await fetchBundle(`periodId=${periodId}&version=1`)).body.equals(v1)).toBe(true);
    expect((await fetchBundle(`periodId=${periodId}&version=2`)).status).toBe(200);
    expect(await prisma.auditEvent.count()).toBe(events + 1);
  });

  it('deletes a bundle past the retention setting, as an audited event', async () => {
    const bad = await admin.post('/api/admin/settings', { settingKey: 'evidence.retentionYears', settingValue: '0' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The retention of evidence bundles must be a whole number of years from 1 to 99');
    expect((await admin.post('/api/admin/settings', { settingKey: 'evidence.retentionYears', settingValue: '5' })).status).toBe(200);
    const prisma = server.app.deps.prisma;
    await prisma.$executeRaw`UPDATE evidence_bundles SET created_at = now() - interval '6 years' WHERE period_id = ${periodId}::uuid AND version = 1`;
    expect(await expireBundles(server.app.deps, new Date())).toBe(1);
    const gone = await fetchBundle(`periodId=${periodId}&version=1`);
    expect(gone.status).toBe(404);
    expect(gone.message).toMatch(/^Version 1 of this period's evidence bundle was deleted on \d{4}-\d\d-\d\d: its retention period ended$/);
    expect((await fetchBundle(`periodId=${periodId}&version=2`)).status).toBe(200);
    const event = await prisma.auditEvent.findFirst({ where: { action: 'evidence_bundle.expired' } });
    expect(event).toMatchObject({ entityType: 'EvidenceBundle', entityId: `${periodId}/v1`, periodId, actorLabel: 'system' });
    expect(event!.before).toMatchObject({ sha256: sha256(v1) });
    expect(await expireBundles(server.app.deps, new Date())).toBe(0);
  });

  it('says so when a difference is unexplained (rows gone from the data without an upload or purge)', { timeout: 90_000 }, async () => {
    await loadExport(server, admin, EXPORT, { name: 'q1-export.csv' });
    const p = (await admin.post('/api/review-periods', { name: 'Q1 2027' })).body.id;
    const prisma = server.app.deps.prisma;
    // As a database owner would: a row deleted behind the application's back.
    await prisma.$executeRaw`DELETE FROM risk_rows WHERE id = (SELECT max(id) FROM risk_rows)`;
    const list = await admin.gql(`{ reviewPeriods(first: 5) { edges { node { id name } } } }`);
    const gid = list.body.data.reviewPeriods.edges.find((e: any) => e.node.name === 'Q1 2027').node.id;
    const g = await admin.gql(
      `query($id: ID!) { periodReconciliation(periodId: $id) { frozen reconciled unexplainedRows entries { rowsLoaded rowsInScope differences { rows reason } } } }`,
      {
        id: gid,
      },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.periodReconciliation).toMatchObject({ frozen: false, reconciled: false, unexplainedRows: 1 });
    expect(g.body.data.periodReconciliation.entries[0].differences).toContainEqual({
      rows: 1,
      reason: 'Unexplained: rows loaded but no longer in the data at the close',
    });
    expect((await admin.put(`/api/review-periods/${p}/close`)).status).toBe(200);
    const { manifest } = await open((await readyBundle(`periodId=${p}`)).body);
    expect(manifest.reconciled).toBe(false);
  });
});
