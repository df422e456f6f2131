// The signed evidence bundle of one version of a closed period: a ZIP an
// auditor verifies on their own machine (`npx grc-verify bundle.zip`), without
// trusting this server. Written after the close commits, by the job the close
// sends in its own transaction (jobs/evidence.ts), from the version's frozen
// rows, streamed into the store (evidence/<period>/ under DATA_DIR or
// STORAGE_URL) with flat memory; its row
// (evidence_bundles: version, sha256, size, manifest hash) has one writer: this
// file. Versions are never replaced: a reopen and a new close make version
// n + 1, and the bundle of n stays until the retention setting expires it.
//
// The ZIP (formats fixed, verifiers rely on them):
// - manifest.json: period, scope, counts, the reconciliation, the chain head
//   (hash of the period's close event), the version, the changes since the
//   previous version, and `files`: { path, size, sha256 } of every entry
//   except manifest.json, manifest.sig and manifest.tsr;
// - manifest.sig: detached Ed25519 signature (base64) over manifest.json's bytes;
// - manifest.tsr: an RFC 3161 timestamp token over SHA-256(manifest.json),
//   when EVIDENCE_TSA_URL is set and the authority answered;
// - decisions.jsonl, audit-events.jsonl (in chain order, with prevHash and
//   hash), approvals.json, remediation.jsonl, uploads.json, changes.jsonl
//   (version 2 on), public-key.pem and summary.xlsx (human-readable).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import yazl from 'yazl';
import type { DbClient } from '../../core/types.js';
import { JOBS, onTransaction, type JobQueue } from '../../db/queue.js';
import type { ObjectStore } from '../../db/storage/index.js';
import type { AppDeps } from '../deps.js';
import { evidenceKey } from './evidence-key.js';
import type { EvidenceScope } from '../reports/evidence.js';
import { auditEventLines, decisionLines, writeChanges, remediationLines, type ChangeCounts } from './bundle-entries.js';
import { writeBundleSummaryXlsx } from './bundle-summary.js';
import { requestTimestamp } from './timestamp.js';

export const BUNDLE_STATUSES = ['writing', 'ready', 'failed', 'expired'] as const;
export type BundleStatus = (typeof BUNDLE_STATUSES)[number];

export interface BundleFile {
  path: string;
  size: number;
  sha256: string;
}

/** Where a bundle is kept in the store (DATA_DIR/evidence/<period>/<file> for the local store). */
export function bundleKey(periodId: string, fileName: string): string {
  return `evidence/${periodId}/${path.basename(fileName)}`;
}

/** A bundle's row and its job, in the transaction that froze its version (the close): both or neither. */
export async function queueBundle(tx: DbClient, jobs: JobQueue, periodId: string, version: number): Promise<void> {
  await tx.evidenceBundle.create({ data: { periodId, version } });
  await jobs.boss.send(JOBS.evidenceBundle, { periodId, version }, { db: onTransaction(tx), retryLimit: 3, retryDelay: 15, expireInSeconds: 3600 });
}

/** Writes `body` to `dir/name`, hashing and counting as it goes. */
async function writeEntry(dir: string, name: string, body: AsyncIterable<string | Buffer> | string): Promise<BundleFile> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer | string, _enc, done) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      hash.update(buf);
      size += buf.length;
      done(null, buf);
    },
  });
  const source = typeof body === 'string' ? [Buffer.from(body, 'utf8')] : body;
  await pipeline(source, counter, fs.createWriteStream(path.join(dir, name)));
  return { path: name, size, sha256: hash.digest('hex') };
}

/** Hashes a file already written (the summary workbook). */
async function describeFile(dir: string, name: string): Promise<BundleFile> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(path.join(dir, name))) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { path: name, size, sha256: hash.digest('hex') };
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

/** What the manifest says besides its files. */
function manifestOf(
  scope: EvidenceScope,
  version: number,
  chainHead: string | null,
  changes: ChangeCounts | null,
  keyFingerprint: string,
  files: BundleFile[],
) {
  const recon = scope.reconciliation ?? { entries: [], unexplainedRows: 0 };
  return {
    format: 'grc-evidence-bundle',
    formatVersion: 1,
    version,
    period: scope.period,
    closedAt: scope.period.closedAt,
    asOf: scope.asOf,
    scope: {
      uploads: scope.uploads.map((u) => ({
        uploadId: u.id,
        fileName: u.originalName,
        sizeBytes: u.sizeBytes ?? null,
        sha256: u.sha256,
        liveAtClose: u.liveAtClose,
      })),
    },
    counts: {
      decisions: scope.summary.decisions,
      retained: scope.summary.retained,
      retainedMitigated: scope.summary.retainedMitigated,
      removed: scope.summary.removed,
      reviewers: scope.summary.reviewers,
      approvedDecisions: scope.summary.approvedDecisions,
      submissions: scope.summary.submissions.length,
    },
    chainHead,
    closeEventId: scope.closeEventId ?? null,
    lastAuditEventId: scope.lastAuditId,
    reconciliation: recon.entries,
    reconciled: recon.unexplainedRows === 0,
    changes,
    signature: { algorithm: 'Ed25519', publicKeyFile: 'public-key.pem', publicKeySha256: keyFingerprint },
    files: [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}

/** Packs the work folder into the ZIP stored at `key`, hashing it as it is written. */
async function pack(
  storage: ObjectStore,
  work: string,
  entries: { name: string; buffer?: Buffer }[],
  mtime: Date,
  key: string,
): Promise<{ sha256: string; size: number }> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (e.buffer) zip.addBuffer(e.buffer, e.name, { mtime, compress: true });
    else zip.addFile(path.join(work, e.name), e.name, { mtime, compress: true });
  }
  zip.end();
  const hash = crypto.createHash('sha256');
  const { size } = await storage.put(
    key,
    (async function* () {
      for await (const chunk of zip.outputStream) {
        hash.update(chunk as Buffer);
        yield chunk as Buffer;
      }
    })(),
  );
  return { sha256: hash.digest('hex'), size };
}

/**
 * Writes the bundle of (period, version) if its row is still 'writing', and
 * records it; a second writer (a retried job) that finishes later finds the
 * row written and removes its own file.
 */
export async function writeBundle(deps: Pick<AppDeps, 'prisma' | 'config' | 'log' | 'storage'>, periodId: string, version: number): Promise<void> {
  const { prisma, config, storage } = deps;
  const row = await prisma.evidenceBundle.findUnique({ where: { periodId_version: { periodId, version } } });
  if (row?.status !== 'writing') return;
  const evidence = await prisma.periodEvidence.findUniqueOrThrow({ where: { periodId_version: { periodId, version } } });
  const scope = evidence.scope as unknown as EvidenceScope;
  const key = await evidenceKey(prisma, config);
  // The entries are written to a work folder first (hashed for the manifest, then packed).
  const dir = path.join(storage.scratchDir(), 'evidence', periodId);
  await fs.promises.mkdir(dir, { recursive: true });
  const work = await fs.promises.mkdtemp(path.join(dir, `.v${version}-`));
  const fileName = `v${version}-${crypto.randomBytes(4).toString('hex')}.zip`;
  const target = bundleKey(periodId, fileName);
  try {
    const files: BundleFile[] = [];
    const put = async (name: string, body: AsyncIterable<string | Buffer> | string) => void files.push(await writeEntry(work, name, body));
    await put('decisions.jsonl', decisionLines(prisma, periodId, version));
    const chain = { head: null as string | null };
    await put('audit-events.jsonl', auditEventLines(prisma, scope, chain));
    await put('approvals.json', json({ submissions: scope.summary.submissions, reassignments: scope.summary.reassignments ?? [] }));
    await put('remediation.jsonl', remediationLines(prisma, periodId));
    await put('uploads.json', json(scope.uploads));
    let changes: ChangeCounts | null = null;
    if (version > 1) {
      const before = await prisma.periodEvidence.findUnique({ where: { periodId_version: { periodId, version: version - 1 } } });
      const counts: ChangeCounts = { sinceVersion: version - 1, decisionsChanged: 0, decisionsAdded: 0, decisionsRemoved: 0, rowsInScope: [] };
      await writeChanges(prisma, periodId, version, counts, fs.createWriteStream(path.join(work, 'changes.jsonl')));
      files.push(await describeFile(work, 'changes.jsonl'));
      const scopeBefore = (before?.scope ?? null) as unknown as EvidenceScope | null;
      counts.rowsInScope = rowsInScopeChanges(scopeBefore, scope);
      changes = counts;
    }
    await put('public-key.pem', key.publicKeyPem);
    const summary = fs.createWriteStream(path.join(work, 'summary.xlsx'));
    await writeBundleSummaryXlsx(scope, changes, summary);
    await finished(summary);
    files.push(await describeFile(work, 'summary.xlsx'));
    const manifest = Buffer.from(json(manifestOf(scope, version, chain.head, changes, key.fingerprint, files)), 'utf8');
    const signature = Buffer.from(crypto.sign(null, manifest, key.privateKey).toString('base64') + '\n', 'utf8');
    const token = config.EVIDENCE_TSA_URL
      ? await requestTimestamp(config.EVIDENCE_TSA_URL, crypto.createHash('sha256').update(manifest).digest(), deps.log)
      : null;
    const entries = [
      { name: 'manifest.json', buffer: manifest },
      { name: 'manifest.sig', buffer: signature },
      ...(token ? [{ name: 'manifest.tsr', buffer: token }] : []),
      ...files.map((f) => ({ name: f.path })),
    ];
    const zip = await pack(storage, work, entries, new Date(scope.asOf), target);
    const { count } = await prisma.evidenceBundle.updateMany({
      where: { periodId, version, status: 'writing' },
      data: {
        status: 'ready',
        fileName,
        sha256: zip.sha256,
        sizeBytes: BigInt(zip.size),
        manifestSha256: crypto.createHash('sha256').update(manifest).digest('hex'),
        timestamped: Boolean(token),
        writtenAt: new Date(),
        errorMessage: null,
      },
    });
    if (!count) await storage.delete(target);
  } catch (err) {
    await storage.delete(target).catch(() => {});
    throw err;
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/** The uploads whose rows in scope differ between two versions' reconciliations (rows added to or removed from the review). */
function rowsInScopeChanges(before: EvidenceScope | null, after: EvidenceScope): ChangeCounts['rowsInScope'] {
  const key = (e: { uploadId: string | null }) => e.uploadId ?? '';
  const was = new Map((before?.reconciliation?.entries ?? []).map((e) => [key(e), e]));
  const now = new Map((after.reconciliation?.entries ?? []).map((e) => [key(e), e]));
  const out: ChangeCounts['rowsInScope'] = [];
  for (const k of new Set([...was.keys(), ...now.keys()])) {
    const b = was.get(k)?.rowsInScope ?? 0;
    const a = now.get(k)?.rowsInScope ?? 0;
    if (a !== b) out.push({ uploadId: k || null, fileName: (now.get(k) ?? was.get(k))!.fileName, before: b, after: a });
  }
  return out;
}

/** A bundle's job failed for good: its row says so (the download answers with the reason). */
export async function bundleFailed(prisma: DbClient, periodId: string, version: number, message: string): Promise<void> {
  await prisma.evidenceBundle.updateMany({ where: { periodId, version, status: 'writing' }, data: { status: 'failed', errorMessage: message.slice(0, 1000) } });
}

/** The bundles still 'writing' (at start: their jobs are sent again, in case an instance stopped before sending or finishing). */
export function unwrittenBundles(prisma: DbClient) {
  return prisma.evidenceBundle.findMany({ where: { status: 'writing' }, select: { periodId: true, version: true } });
}
