// The auditor evidence of a review period in GraphQL (administrators): its
// summary, scope and first decisions, with the addresses of the files.
import { builder } from '../builder.js';
import { ReviewPeriodNode } from '../review/periods.js';
import { DecisionValueEnum } from '../review/decisions.js';
import { RecommendationValueEnum } from '../review/risks.js';
import type { RecommendationValue } from '../../services/review/recommendations.js';
import { UploadStatusEnum } from '../uploads/uploads.js';
import type { DecisionValue } from '../../services/risk-rules.js';
import type { EvidenceScope, EvidenceUpload } from '../../services/reports/evidence.js';
import { periodEvidence } from '../../services/reports/period-evidence.js';

const EvidenceUploadRef = builder.objectRef<EvidenceUpload>('EvidenceUpload').implement({
  description: 'An upload whose rows the period’s decisions were made on.',
  fields: (t) => ({
    uploadId: t.exposeString('id', { description: 'The upload’s stored id, as the evidence files give it (the DataUpload node’s global id encodes it).' }),
    originalName: t.exposeString('originalName', { description: 'The file’s name.' }),
    status: t.field({ type: UploadStatusEnum, description: 'How loading it ended.', resolve: (u) => u.status as 'processing' | 'completed' | 'failed' }),
    recordCount: t.exposeInt('recordCount', { description: 'Rows loaded from it.' }),
    uploadedBy: t.exposeString('uploadedBy', { nullable: true, description: 'Who uploaded it.' }),
    createdAt: t.string({ description: 'When it was uploaded (ISO-8601).', resolve: (u) => u.createdAt }),
    sha256: t.exposeString('sha256', { nullable: true, description: 'SHA-256 of the stored file; null when it is no longer stored.' }),
  }),
});

type EvidenceView = { scope: EvidenceScope; decisions: Record<string, unknown>[] };

const EvidenceDecisionRef = builder.objectRef<Record<string, unknown>>('EvidenceDecision').implement({
  description: 'One final decision, as the auditor’s evidence lists it.',
  fields: (t) => {
    const text = (key: string, description: string) => t.string({ nullable: true, description, resolve: (r) => (r[key] == null ? null : String(r[key])) });
    return {
      userId: text('userId', 'The user id in the source system.'),
      userName: text('userName', 'The user’s name.'),
      accessRiskId: text('accessRiskId', 'The access risk id.'),
      roleProfile: text('roleProfile', 'The role profile decided on.'),
      system: text('system', 'The source system of the decided access (e.g. SAP ERP), as exported.'),
      decision: t.field({
        type: DecisionValueEnum,
        nullable: true,
        description: 'RETAIN, RETAIN_MITIGATED or REMOVE.',
        resolve: (r) => (r.decision ?? null) as DecisionValue | null,
      }),
      comments: text('comments', 'The reviewer’s comment.'),
      reviewer: text('reviewer', 'Who decided.'),
      decidedAt: text('decidedAt', 'When the reviewer last set this decision (ISO-8601).'),
      approvedBy: text('approvedBy', 'The administrator who approved the submission holding it.'),
      approvedAt: text('approvedAt', 'When it was approved (ISO-8601).'),
      approverComment: text('approverComment', "The approver's comment on this item, given when approving or returning its submission."),
      recommendation: t.field({
        type: RecommendationValueEnum,
        nullable: true,
        description:
          "What the help-deciding rules recommended to the decision's reviewer when the evidence was made (advice, never applied; empty in evidence frozen before it was recorded).",
        resolve: (r) => (r.recommendation ?? null) as RecommendationValue | null,
      }),
    };
  },
});

const PeriodEvidenceRef = builder.objectRef<EvidenceView>('PeriodEvidence').implement({
  description: 'What an auditor receives for a review period; frozen when the period closed (see README).',
  fields: (t) => ({
    periodName: t.string({ description: 'The period’s name.', resolve: (e) => e.scope.period.name }),
    frozen: t.boolean({ description: 'Frozen at the close: never changes afterwards.', resolve: (e) => e.scope.frozen }),
    asOf: t.string({ description: 'When the evidence was taken (the close, once closed), ISO-8601.', resolve: (e) => e.scope.asOf }),
    decisionCount: t.int({ description: 'Final decisions in the period.', resolve: (e) => e.scope.summary.decisions }),
    retained: t.int({ description: 'Of those, retained without mitigation.', resolve: (e) => e.scope.summary.retained }),
    retainedMitigated: t.int({ description: 'Of those, retained with a mitigating control.', resolve: (e) => e.scope.summary.retainedMitigated }),
    removed: t.int({ description: 'Of those, removed.', resolve: (e) => e.scope.summary.removed }),
    approvedDecisions: t.int({ description: 'Of those, decisions in approved submissions.', resolve: (e) => e.scope.summary.approvedDecisions }),
    uploads: t.field({
      type: [EvidenceUploadRef],
      description:
        'Every upload the decisions were made on (loaded during the period or live at its end), oldest first: the evidence lists them all, one per data load.',
      resolve: (e) => e.scope.uploads,
    }),
    decisions: t.field({ type: [EvidenceDecisionRef], description: 'The first 500 final decisions; the files hold them all.', resolve: (e) => e.decisions }),
    xlsxUrl: t.string({
      description: 'Where to download every decision as an Excel workbook.',
      resolve: (e) => `/api/reports/evidence?periodId=${e.scope.period.id}&format=xlsx`,
    }),
    csvUrl: t.string({
      description: 'Where to download every decision as CSV (same session or token).',
      resolve: (e) => `/api/reports/evidence?periodId=${e.scope.period.id}&format=csv`,
    }),
  }),
});

builder.queryFields((t) => ({
  periodEvidence: t.field({
    type: PeriodEvidenceRef,
    description: 'The auditor evidence of a review period (administrators).',
    authScopes: { admin: true },
    args: { periodId: t.arg.globalID({ required: true, for: ReviewPeriodNode, description: 'The period’s global id.' }) },
    resolve: async (_root, args, ctx) => {
      const e = await periodEvidence(ctx.caller!, args.periodId.id);
      const first = await e.decisions().next();
      return { scope: e.scope, decisions: (first.value ?? []).slice(0, 500) };
    },
  }),
}));
