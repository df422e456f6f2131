// A period's signed evidence bundles and their versions in GraphQL
// (administrators), the public key that verifies them, and the period's
// population reconciled (what the close dialog reads to say whether every
// difference is explained).
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import { ReviewPeriodNode } from '../review/periods.js';
import { BUNDLE_STATUSES } from '../../services/evidence/evidence-bundle.js';
import { listBundles, publicEvidenceKey, type BundleView } from '../../services/evidence/evidence-bundles.js';
import { periodReconciliation } from '../../services/reports/period-evidence.js';
import type { Reconciliation, ReconciliationEntry } from '../../services/evidence/reconciliation.js';

const BundleStatusEnum = enumOf('EvidenceBundleStatus', {
  description: 'Where an evidence bundle stands.',
  values: BUNDLE_STATUSES,
  descriptions: {
    writing: 'Being written after the close (downloadable within a minute).',
    ready: 'Written and downloadable.',
    failed: 'Could not be written (errorMessage says why).',
    expired: 'Deleted after its retention period (the audit trail records it).',
  },
});

const EvidenceBundleRef = builder.objectRef<BundleView>('EvidenceBundle').implement({
  description: 'One version of a closed period’s signed evidence bundle (a ZIP verified offline with `npx grc-verify bundle.zip`).',
  fields: (t) => ({
    version: t.exposeInt('version', { description: '1 for the first close; one more for each close after a reopen. Earlier versions stay downloadable.' }),
    status: t.field({ type: BundleStatusEnum, description: 'Whether it can be downloaded.', resolve: (b) => b.status }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When its version was frozen (the close).' }),
    writtenAt: t.expose('writtenAt', { type: 'DateTime', nullable: true, description: 'When its file was written.' }),
    sizeBytes: t.float({ nullable: true, description: 'The ZIP’s size in bytes.', resolve: (b) => b.sizeBytes }),
    sha256: t.exposeString('sha256', { nullable: true, description: 'SHA-256 (hex) of the ZIP.' }),
    manifestSha256: t.exposeString('manifestSha256', {
      nullable: true,
      description: 'SHA-256 (hex) of its manifest.json (what the signature and the timestamp cover).',
    }),
    timestamped: t.exposeBoolean('timestamped', { description: 'Whether it carries an RFC 3161 timestamp token (manifest.tsr).' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true, description: 'Why it could not be written (status FAILED).' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When the retention setting lets it be deleted.' }),
    expiredAt: t.expose('expiredAt', { type: 'DateTime', nullable: true, description: 'When it was deleted (status EXPIRED).' }),
    downloadUrl: t.string({
      nullable: true,
      description: 'Where to download it (administrators); null until it is written, and once deleted.',
      resolve: (b) => (b.status === 'ready' ? `/api/reports/evidence-bundle?periodId=${b.periodId}&version=${b.version}` : null),
    }),
  }),
});

const DecidedRef = builder.objectRef<ReconciliationEntry['decided']>('ReconciledDecisions').implement({
  description: 'Rows in scope by how they were decided (a row decided by several reviewers counts once).',
  fields: (t) => ({
    retain: t.exposeInt('retain', { description: 'Retained.' }),
    remove: t.exposeInt('remove', { description: 'Removed (by any of its reviewers).' }),
    mitigated: t.exposeInt('mitigated', { description: 'Retained under a mitigating control.' }),
    defaultAtClose: t.exposeInt('defaultAtClose', { description: 'Decided by the period’s default at close.' }),
  }),
});

const DifferenceRef = builder.objectRef<{ rows: number; reason: string }>('ReconciliationDifference').implement({
  description: 'Rows lost between two steps of the reconciliation, and why.',
  fields: (t) => ({
    rows: t.exposeInt('rows', { description: 'How many rows.' }),
    reason: t.exposeString('reason', { description: 'Why; one starting with "Unexplained:" is not explained by the data.' }),
  }),
});

const EntryRef = builder.objectRef<ReconciliationEntry>('ReconciliationEntry').implement({
  description: 'One source upload (or analysis run sent to the review) reconciled: rows in the file to rows decided.',
  fields: (t) => ({
    uploadId: t.exposeString('uploadId', { nullable: true, description: 'The upload’s stored id; null for rows loaded without an upload.' }),
    fileName: t.exposeString('fileName', { description: 'The file’s name.' }),
    sha256: t.exposeString('sha256', { nullable: true, description: 'SHA-256 of the stored file.' }),
    rowsInFile: t.exposeInt('rowsInFile', { description: 'Rows read from the file.' }),
    duplicatesSkipped: t.exposeInt('duplicatesSkipped', { description: 'Rows skipped as duplicates.' }),
    rowsLoaded: t.exposeInt('rowsLoaded', { description: 'Rows loaded (duplicates excluded).' }),
    rowsInScope: t.exposeInt('rowsInScope', { description: 'Rows in the review’s data (at the close, once closed).' }),
    decided: t.field({ type: DecidedRef, description: 'Rows in scope by decision.', resolve: (e) => e.decided }),
    undecided: t.exposeInt('undecided', { description: 'Rows in scope without a decision.' }),
    differences: t.field({ type: [DifferenceRef], description: 'Every difference between the steps, with its reason.', resolve: (e) => e.differences }),
  }),
});

const ReconciliationRef = builder.objectRef<Reconciliation & { frozen: boolean }>('PeriodReconciliation').implement({
  description: 'A period’s reviewed population reconciled per source upload.',
  fields: (t) => ({
    frozen: t.exposeBoolean('frozen', { description: 'As frozen at the close (latest version); false: as of now, for an open period.' }),
    entries: t.field({ type: [EntryRef], description: 'One entry per upload in scope.', resolve: (r) => r.entries }),
    unexplainedRows: t.exposeInt('unexplainedRows', { description: 'Rows of the differences the data does not explain (0 when reconciled).' }),
    reconciled: t.boolean({ description: 'True when every difference is explained.', resolve: (r) => r.unexplainedRows === 0 }),
  }),
});

builder.queryFields((t) => ({
  evidenceBundles: t.field({
    type: [EvidenceBundleRef],
    description: 'A period’s evidence bundles, newest version first: one per close of the period, so bounded by its closes (administrators).',
    authScopes: { admin: true },
    args: { periodId: t.arg.globalID({ required: true, for: ReviewPeriodNode, description: 'The period’s global id.' }) },
    resolve: (_root, args, ctx) => listBundles(ctx.caller!, args.periodId.id),
  }),
  periodReconciliation: t.field({
    type: ReconciliationRef,
    description: 'A period’s population reconciled per upload: as of now for an open period (the close dialog), as frozen for a closed one (administrators).',
    authScopes: { admin: true },
    args: { periodId: t.arg.globalID({ required: true, for: ReviewPeriodNode, description: 'The period’s global id.' }) },
    resolve: (_root, args, ctx) => periodReconciliation(ctx.caller!, args.periodId.id),
  }),
  evidencePublicKey: t.string({
    description: 'The public key (PEM, SPKI) that verifies this installation’s evidence bundles, also at /.well-known/grc-evidence-key (signed-in users).',
    authScopes: { signedIn: true },
    resolve: (_root, _args, ctx) => publicEvidenceKey(ctx.caller!.deps),
  }),
}));

builder.objectFields(ReviewPeriodNode, (t) => ({
  evidenceBundles: t.field({
    type: [EvidenceBundleRef],
    description: 'The period’s evidence bundles, newest version first (administrators; empty until it first closes).',
    authScopes: { admin: true },
    resolve: (p, _args, ctx) => listBundles(ctx.caller!, p.id),
  }),
}));
