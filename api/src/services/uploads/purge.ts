// 'Purge All Risk Data' (SPEC §2 Data Management): in one transaction, the risk
// definitions (rows, search terms, uploads and their files), simulations and
// analysis data (analysis results, simulations, AI profiles and cached
// answers), review decisions and submissions (of every stage), and the assignments. Users,
// settings, review periods, notifications, AI usage, the remediation list
// (approved removals with their statuses, who set them and when: evidence of
// the review, which names each access and needs no row or decision), the
// frozen evidence with its signed bundles, and the audit trail stay; the purge itself is an audit event, and open pages hear
// of it. Only the link of a listed submission (remediation_sources) goes with
// its submission.
import { ConflictError } from '../../core/errors.js';
import { requireAdminSession } from '../identity/settings.js';
import { recordAudit } from '../../core/audit.js';
import type { Caller } from '../caller.js';
import { dispatch } from '../kept/dispatcher.js';
import { uploadKey } from './uploads.js';

/** What a purge removes, table by table, in the order counted. */
const PURGED = {
  riskRows: 'risk_rows',
  uploads: 'uploads',
  decisions: 'decisions',
  submissions: 'submissions',
  assignments: 'assignment_criteria',
  analysisResults: 'analysis_results',
  simulations: 'simulations',
  aiRiskProfiles: 'ai_risk_profiles',
} as const;

export type PurgeCounts = Record<keyof typeof PURGED, number>;

export interface PurgeResult {
  purgedAt: Date;
  deleted: PurgeCounts;
}

export async function purgeRiskData(caller: Caller): Promise<PurgeResult> {
  const { deps, actor } = caller;
  requireAdminSession(actor, 'Data can be purged');
  const purgedAt = new Date();
  const { deleted, files } = await deps.prisma.$transaction(
    async (tx) => {
      // No load may add rows while (or after) the tables are emptied: a running upload is refused.
      const loading = await tx.upload.count({ where: { status: 'processing' } });
      if (loading) throw new ConflictError('A file is being uploaded and processed. Wait until it finishes, then purge.');
      const deleted = {} as PurgeCounts;
      for (const [name, table] of Object.entries(PURGED) as [keyof PurgeCounts, string][]) {
        const [r] = await tx.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${table}`);
        deleted[name] = Number(r!.n);
      }
      const files = (await tx.upload.findMany({ select: { fileName: true } })).map((u) => u.fileName);
      await tx.$executeRawUnsafe(
        `TRUNCATE decisions, stage_decisions, stage_submissions, submission_item_comments, consult_questions, submissions, remediation_sources, risk_rows, risk_terms, uploads, assignment_criteria, item_holds, analysis_results, simulations, ai_risk_profiles, ai_response_cache`,
      );
      // The kept aggregates follow (TRUNCATE fires no row triggers).
      await dispatch(tx, { kind: 'data-purged' });
      await recordAudit(tx, actor, { action: 'risk_data.purged', entityType: 'RiskData', after: { deleted } });
      return { deleted, files };
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
  // The rows are gone (committed): a file the store fails to delete is left behind, never a failed purge.
  for (const f of files) await deps.storage.delete(uploadKey(f)).catch((err: Error) => deps.log(`purge: ${f} not deleted from the store: ${err.message}`));
  deps.pubsub.publish('risk-data:purged', { purgedAt: purgedAt.toISOString() });
  return { purgedAt, deleted };
}
