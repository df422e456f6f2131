// The REST presenter of a risk row: SPEC §3's shape, with the reviewer's
// decision, the recommendation and who else shares it, as GET /api/risks and
// the assigned list answer it.
import { recommendationOf, sharedOf } from '../../services/review/recommendations.js';
import type { RiskRowWithDecision } from '../../services/visibility.js';

/** The SPEC §3 risk row shape for REST. */
export function riskRowJson(r: RiskRowWithDecision) {
  return {
    id: Number(r.id),
    userId: r.userId,
    userName: r.userName,
    userGroup: r.userGroup,
    riskLevel: r.riskLevel,
    roleProfile: r.roleProfile,
    roleProfileDescription: r.roleProfileDescription,
    riskDescription: r.riskDescription,
    accessRiskId: r.accessRiskId,
    system: r.system,
    decision: r.decision ?? '',
    decisionComments: r.decisionComments ?? null,
    decisionMitigationControl: r.decisionMitigationControl ?? null,
    decisionMitigationExpiresAt: r.decisionMitigationExpiresAt ?? null,
    newSince: r.newSince ?? null,
    recommendation: recommendationOf(r),
    lastPeriodDecision: r.lastPeriodDecision ?? null,
    sharedWith: sharedOf(r),
    compositeBusinessRole: r.compositeBusinessRole,
    compositeRoleDescription: r.compositeRoleDescription,
    ruleId: r.ruleId,
    function: r.function,
    functionDescription: r.functionDescription,
    resource: r.resource,
    resourceDescription: r.resourceDescription,
    resourceExtn: r.resourceExtn,
    resourceExtnDesc: r.resourceExtnDesc,
    valueFrom: r.valueFrom,
    valueTo: r.valueTo,
    action: r.action,
    actionDescription: r.actionDescription,
    businessProcess: r.businessProcess,
    businessProcessDescription: r.businessProcessDescription,
    mitigationControl: r.mitigationControl,
    mitigationControlDescription: r.mitigationControlDescription,
    executionCount: r.executionCount,
    lastExecutedOn: r.lastExecutedOn,
    aiSuggestedCategory: r.aiSuggestedCategory,
    aiCategoryConfidence: r.aiCategoryConfidence,
    aiProcessedAt: r.aiProcessedAt,
    aiCategoryAccepted: r.aiCategoryAccepted,
    stage: r.stage ?? 1,
    previousDecisions: r.previousDecisions ?? [],
  };
}
