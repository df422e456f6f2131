// Evidence bundles made by hand, exactly in the published format (manifest.json
// with every other file's size and SHA-256, manifest.sig an Ed25519 signature
// of its bytes in base64, the signer's public key in public-key.pem,
// audit-events.jsonl chained with the verifier's own chain.mjs, an RFC 3161
// answer in manifest.tsr), so the verifier's tests can pack valid bundles and
// alter them: a byte of a file, an event, a count, the signing key. The TSA is
// OpenSSL's (`openssl ts -reply`), an implementation of RFC 3161 that shares
// nothing with the verifier's reader.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { eventHash, type ChainEvent } from '../../../packages/grc-verify/src/chain.mjs';

export interface Signer {
  publicKey: crypto.KeyObject;
  privateKey: crypto.KeyObject;
  pem: string;
}

export function newSigner(): Signer {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  return { publicKey, privateKey, pem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

export const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');

const PERIOD_ID = '6f1c2a9e-0d7b-4c55-9a43-2f7a51c0e001';
const ADMIN = { actorId: '0b8e5c1d-3f2a-4e61-8d0c-7a9b6e4f1002', actorLabel: 'Ada Admin <ada@example.com>' };

type EventFields = Omit<ChainEvent, 'id' | 'chainSeq' | 'occurredAt' | 'prevHash' | 'hash'>;

/** Events chained as the database chains them: consecutive chainSeq from `firstSeq`, each hash over the previous one. */
export function chain(fields: EventFields[], firstSeq = 101, prevHash = sha256('the event before the period')): ChainEvent[] {
  return fields.map((f, i) => {
    const seq = firstSeq + i;
    const e = { id: String(5000 + seq), chainSeq: String(seq), occurredAt: new Date(Date.UTC(2026, 10, 2, 9, 0, seq)).toISOString(), ...f };
    const event: ChainEvent = { ...e, prevHash, hash: eventHash(e, prevHash) };
    prevHash = event.hash;
    return event;
  });
}

/**
 * A period's events as a bundle holds them: a selection of the chain (the
 * period's own, uploads, sign-ins) from its opening to its close, chainSeq
 * 101 to 110 (ids 5101 to 5110) without 104 and 108, another scope's events.
 */
export function periodEvents(): ChainEvent[] {
  const base = { ...ADMIN, periodId: PERIOD_ID, ip: '10.0.0.5', before: null };
  const decision = (row: string, to: string) => ({
    ...base,
    actorId: '2c4d6e8f-1a3b-4c5d-8e7f-9a0b1c2d3004',
    actorLabel: 'Rita Reviewer <rita@example.com>',
    action: 'decision.changed',
    entityType: 'RiskRow',
    entityId: row,
    before: { decision: null },
    after: { decision: to, comment: to === 'remove' ? 'Left the team in "Q3" — no longer needs it' : null, origin: 'user' },
  });
  const other = { ...base, periodId: null, action: 'user.created', entityType: 'User', entityId: 'x', after: { role: 'reviewer' } };
  const run = chain([
    { ...base, action: 'period.created', entityType: 'ReviewPeriod', entityId: PERIOD_ID, after: { name: 'Q4 2026', startsAt: '2026-11-01' } },
    {
      ...base,
      periodId: null,
      action: 'upload.completed',
      entityType: 'Upload',
      entityId: 'u-1',
      after: { rowsLoaded: 980, duplicatesSkipped: 20, sha256: sha256('export') },
    },
    decision('r-1', 'retain'),
    other,
    decision('r-2', 'remove'),
    {
      ...base,
      actorId: null,
      actorLabel: 'someone@example.com',
      periodId: null,
      action: 'auth.sign_in_failed',
      entityType: 'User',
      entityId: null,
      after: { attempts: 1.5e-7 },
    },
    decision('r-3', 'retain_mitigated'),
    { ...other, action: 'settings.changed', entityType: 'Setting', entityId: 'review.allowBulkApproval' },
    { ...base, action: 'submission.approved', entityType: 'Submission', entityId: 's-1', after: { items: 3, state: 'approved' } },
    { ...base, action: 'period.closed', entityType: 'ReviewPeriod', entityId: PERIOD_ID, before: { status: 'active' }, after: { status: 'closed' } },
  ]);
  return run.filter((e) => e.action !== 'user.created' && e.action !== 'settings.changed');
}

export const jsonl = (events: ChainEvent[]) => events.map((e) => JSON.stringify(e) + '\n').join('');

/**
 * Two sources whose rows add up. The upload: 1000 in the file, 20 duplicates skipped, 980 loaded,
 * 965 in scope (15 replaced by a later upload), 950 decided and 15 not: 50 rows of the file not
 * decided, each explained. The analysis run: 12 conflicts, all decided.
 */
export function reconciliation() {
  return [
    {
      uploadId: 'u-1',
      fileName: 'access-risk-export-2026-11.csv',
      sha256: sha256('export'),
      rowsInFile: 1000,
      duplicatesSkipped: 20,
      rowsLoaded: 980,
      rowsInScope: 965,
      decided: { retain: 700, remove: 150, mitigated: 60, defaultAtClose: 40 },
      undecided: 15,
      differences: [
        { rows: 20, reason: 'Duplicates of rows already loaded, skipped by the upload' },
        { rows: 15, reason: 'Replaced by a later upload: its rows left the review before the close' },
        { rows: 15, reason: 'Assigned to a reviewer but not decided by the close' },
      ],
    },
    {
      uploadId: 'run-7',
      fileName: 'analysis run 7',
      sha256: null,
      rowsInFile: 12,
      duplicatesSkipped: 0,
      rowsLoaded: 12,
      rowsInScope: 12,
      decided: { retain: 12, remove: 0, mitigated: 0, defaultAtClose: 0 },
      undecided: 0,
      differences: [],
    },
  ];
}

export interface BundleSpec {
  /** manifest.json's fields but `files`, which packing works out. */
  manifest: Record<string, unknown>;
  /** The files the manifest lists, by path. */
  files: Record<string, Buffer>;
  /** The key manifest.sig is made with. */
  signWith: crypto.KeyObject;
  /** The TSA's answer for manifest.json's bytes (manifest.tsr); none when left out. */
  timestamp?: (manifestBytes: Buffer) => Buffer;
}

/** A valid bundle's parts, signed by `signer` (its public key in the bundle) with the chain of `events`. */
export function bundleSpec(signer: Signer, events = periodEvents(), timestamp?: (b: Buffer) => Buffer): BundleSpec {
  const close = events[events.length - 1]!;
  return {
    manifest: {
      version: 1,
      period: { id: PERIOD_ID, name: 'Q4 2026', closedAt: close.occurredAt },
      scope: { uploads: ['u-1'], analysisRuns: ['run-7'] },
      counts: { rowsInScope: 977, decisions: 962 },
      chainHead: close.hash,
      reconciliation: reconciliation(),
    },
    files: {
      'audit-events.jsonl': Buffer.from(jsonl(events)),
      'decisions.csv': Buffer.from(
        'Row,User,Risk,Decision,Comment\r\nr-1,U1,R01,retain,\r\nr-2,U1,R02,remove,"Left the team"\r\nr-3,U2,R03,retain_mitigated,Control C-7\r\n',
      ),
      'approvals.csv': Buffer.from('Submission,Reviewer,Approved By,Approved At\r\ns-1,rita@example.com,ada@example.com,2026-11-02T09:01:47.000Z\r\n'),
      'remediation.csv': Buffer.from('Item,User,Role,Status\r\nm-1,U1,Z_GL,open\r\n'),
      'uploads.csv': Buffer.from(`Upload,File,Bytes,SHA-256\r\nu-1,access-risk-export-2026-11.csv,48211,${sha256('export')}\r\n`),
      'summary.xlsx': crypto.randomBytes(3000),
      'public-key.pem': Buffer.from(signer.pem),
    },
    signWith: signer.privateKey,
    timestamp,
  };
}

export interface PackOptions {
  /** Entries in reverse order (manifest last) instead of manifest first. */
  reverse?: boolean;
  /** Stored rather than deflated. */
  store?: boolean;
  /** Directory entries as some packers add them. */
  directories?: boolean;
}

/** manifest.json's bytes for a spec: its fields and every file's path, size and SHA-256. */
export function manifestBytes(spec: BundleSpec): Buffer {
  const files = Object.entries(spec.files).map(([p, b]) => ({ path: p, size: b.length, sha256: sha256(b) }));
  return Buffer.from(JSON.stringify({ ...spec.manifest, files }, null, 2) + '\n');
}

/** The bundle's files by name, as they go into the ZIP: manifest.json, manifest.sig, manifest.tsr (when timestamped), the listed files. */
export function bundleEntries(spec: BundleSpec): [string, Buffer][] {
  const manifest = manifestBytes(spec);
  const sig = Buffer.from(crypto.sign(null, manifest, spec.signWith).toString('base64') + '\n');
  const entries: [string, Buffer][] = [
    ['manifest.json', manifest],
    ['manifest.sig', sig],
  ];
  if (spec.timestamp) entries.push(['manifest.tsr', spec.timestamp(manifest)]);
  return [...entries, ...Object.entries(spec.files)];
}

/** A ZIP of these entries (duplicates kept, as given). */
export async function zip(entries: [string, Buffer][], options: PackOptions = {}): Promise<Buffer> {
  const z = new yazl.ZipFile();
  if (options.directories) z.addEmptyDirectory('evidence/');
  for (const [name, data] of options.reverse ? [...entries].reverse() : entries) z.addBuffer(data, name, { compress: !options.store });
  z.end();
  const chunks: Buffer[] = [];
  for await (const c of z.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export const pack = (spec: BundleSpec, options: PackOptions = {}) => zip(bundleEntries(spec), options);

/** The files of a ZIP, by name, in the order of its central directory. */
export async function unzip(buf: Buffer): Promise<[string, Buffer][]> {
  const z = await yauzl.fromBufferPromise(buf, { lazyEntries: true });
  const out: [string, Buffer][] = [];
  for await (const entry of z.eachEntry()) {
    if (entry.fileName.endsWith('/')) continue;
    const chunks: Buffer[] = [];
    for await (const c of await z.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    out.push([entry.fileName, Buffer.concat(chunks)]);
  }
  return out;
}

/**
 * A local TSA: OpenSSL's `ts -reply` with a self-signed certificate of its own (RSA or ECDSA P-256,
 * extended key usage timeStamping), in a temporary folder.
 */
export function opensslTsa(keyType: 'rsa' | 'ec' = 'rsa'): { stamp: (data: Buffer) => Buffer; token: (data: Buffer) => Buffer; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-tsa-'));
  const f = (n: string) => path.join(dir, n);
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const newKey = keyType === 'rsa' ? ['-newkey', 'rsa:2048'] : ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];
  const subject = `/CN=Test TSA ${keyType.toUpperCase()}/O=grc-verify tests`;
  run([
    'req',
    '-x509',
    ...newKey,
    '-nodes',
    '-keyout',
    f('tsa.key'),
    '-out',
    f('tsa.crt'),
    '-days',
    '30',
    '-subj',
    subject,
    '-addext',
    'extendedKeyUsage=critical,timeStamping',
  ]);
  fs.writeFileSync(f('serial'), '01\n');
  fs.writeFileSync(
    f('tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = local',
      '[ local ]',
      `serial = ${f('serial')}`,
      `signer_cert = ${f('tsa.crt')}`,
      `signer_key = ${f('tsa.key')}`,
      'signer_digest = sha256',
      'default_policy = 1.3.6.1.4.1.55555.1',
      'digests = sha256, sha384, sha512',
      'ess_cert_id_alg = sha256',
      'accuracy = secs:1',
      'ordering = no',
      'tsa_name = no',
      'ess_cert_id_chain = no',
      '',
    ].join('\n'),
  );
  const stamp = (data: Buffer) => {
    fs.writeFileSync(f('data'), data);
    run(['ts', '-query', '-data', f('data'), '-sha256', '-cert', '-out', f('request.tsq')]);
    run(['ts', '-reply', '-config', f('tsa.cnf'), '-queryfile', f('request.tsq'), '-out', f('reply.tsr')]);
    return fs.readFileSync(f('reply.tsr'));
  };
  /** The bare token (ContentInfo) of the answer, as some tools keep it. */
  const token = (data: Buffer) => {
    stamp(data);
    run(['ts', '-reply', '-in', f('reply.tsr'), '-token_out', '-out', f('token.tst')]);
    return fs.readFileSync(f('token.tst'));
  };
  return { dir, stamp, token };
}
