// The auditor evidence of a review period in GraphQL (administrators): its
// summary, scope and first decisions, with the addresses of the files.
import { builder } from '../builder.js';
import { ReviewPeriodNode } from '../review/periods.js';
import { DecisionValueEnum } from '../review/decisions.js';
import { RecommendationValueEnum } from '../review/risks.js';
import type { RecommendationValue } from '../../services/review/recommendations.js';
import { UploadStatusEnum } from '../uploads/uploads.js';
import type { DecisionValue } from '../../services/risk-rules.js';
import { periodEvidence, type EvidenceScope, type EvidenceUpload } from '../../services/reports/evidence.js';

const EvidenceUploadRef = builder.objectRef<EvidenceUpload>('EvidenceUpload').implement({
  fields: (t) => ({
    uploadId: t.exposeString('id'),
    originalName: t.exposeString('originalName'),
    status: t.field({ type: UploadStatusEnum, resolve: (u) => u.status as 'processing' | 'completed' | 'failed' }),
    recordCount: t.exposeInt('recordCount'),
    uploadedBy: t.exposeString('uploadedBy', { nullable: true }),
    createdAt: t.string({ resolve: (u) => u.createdAt }),
    sha256: t.exposeString('sha256', { nullable: true, description: 'SHA-256 of the stored file; null when it is no longer stored.' }),
  }),
});

type EvidenceView = { scope: EvidenceScope; decisions: Record<string, unknown>[] };

const EvidenceDecisionRef = builder.objectRef<Record<string, unknown>>('EvidenceDecision').implement({
  fields: (t) => {
    const text = (key: string) => t.string({ nullable: true, resolve: (r) => (r[key] == null ? null : String(r[key])) });
    return {
      userId: text('userId'),
      userName: text('userName'),
      accessRiskId: text('accessRiskId'),
      roleProfile: text('roleProfile'),
      system: text('system'),
      decision: t.field({ type: DecisionValueEnum, nullable: true, resolve: (r) => (r.decision ?? null) as DecisionValue | null }),
      comments: text('comments'),
      reviewer: text('reviewer'),
      decidedAt: text('decidedAt'),
      approvedBy: text('approvedBy'),
      approvedAt: text('approvedAt'),
      approverComment: text('approverComment'),
      recommendation: t.field({
        type: RecommendationValueEnum,
        nullable: true,
        description: "What the help-deciding rules recommended to the decision's reviewer when the evidence was made (advice, never applied; empty in evidence frozen before it was recorded).",
        resolve: (r) => (r.recommendation ?? null) as RecommendationValue | null,
      }),
    };
  },
});

const PeriodEvidenceRef = builder.objectRef<EvidenceView>('PeriodEvidence').implement({
  description: 'What an auditor receives for a review period; frozen when the period closed (see README).',
  fields: (t) => ({
    periodName: t.string({ resolve: (e) => e.scope.period.name }),
    frozen: t.boolean({ description: 'Frozen at the close: never changes afterwards.', resolve: (e) => e.scope.frozen }),
    asOf: t.string({ resolve: (e) => e.scope.asOf }),
    decisionCount: t.int({ resolve: (e) => e.scope.summary.decisions }),
    retained: t.int({ resolve: (e) => e.scope.summary.retained }),
    retainedMitigated: t.int({ resolve: (e) => e.scope.summary.retainedMitigated }),
    removed: t.int({ resolve: (e) => e.scope.summary.removed }),
    approvedDecisions: t.int({ resolve: (e) => e.scope.summary.approvedDecisions }),
    uploads: t.field({ type: [EvidenceUploadRef], resolve: (e) => e.scope.uploads }),
    decisions: t.field({ type: [EvidenceDecisionRef], description: 'The first 500 final decisions; the files hold them all.', resolve: (e) => e.decisions }),
    xlsxUrl: t.string({ resolve: (e) => `/api/reports/evidence?periodId=${e.scope.period.id}&format=xlsx` }),
    csvUrl: t.string({ resolve: (e) => `/api/reports/evidence?periodId=${e.scope.period.id}&format=csv` }),
  }),
});

builder.queryFields((t) => ({
  periodEvidence: t.field({
    type: PeriodEvidenceRef,
    description: 'The auditor evidence of a review period (administrators).',
    authScopes: { admin: true },
    args: { periodId: t.arg.globalID({ required: true, for: ReviewPeriodNode }) },
    resolve: async (_root, args, ctx) => {
      const e = await periodEvidence(ctx.prisma, args.periodId.id, ctx.deps.config.uploadsDir);
      const first = await e.decisions().next();
      return { scope: e.scope, decisions: (first.value ?? []).slice(0, 500) };
    },
  }),
}));
