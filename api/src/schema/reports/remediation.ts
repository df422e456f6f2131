// The remediation list in GraphQL (administrators): approved removals as a
// connection with its total, filtered by period and status, and the status an
// administrator sets (the same service functions as REST /api/remediation).
import { builder, runnable } from '../builder.js';
import { listOrder } from '../ordering.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { enumOf } from '../enums.js';
import { ValidationError } from '../../core/errors.js';
import { ReviewPeriodNode } from '../review/periods.js';
import { RiskLevelEnum } from '../review/risks.js';
import * as remediation from '../../services/review/remediation.js';

const RemediationStatusEnum = enumOf('RemediationStatus', {
  description: 'Where a removal stands: open (to do), done, failed (could not be revoked), verified (the next upload no longer holds the access).',
  values: {
    open: { description: 'To be revoked (again, after an upload still held it).' },
    done: { description: 'Revoked, says whoever set it; the next upload checks it.' },
    failed: { description: 'Could not be revoked (the note says why).' },
    verified: { description: 'Set by an upload only: the access is no longer in the data.' },
  },
});

const SettableRemediationStatusEnum = enumOf('SettableRemediationStatus', {
  description: 'The statuses a person may set on a remediation item (verified comes from an upload only).',
  values: {
    open: { description: 'Back to the list of things to do.' },
    done: { description: 'The access has been revoked.' },
    failed: { description: 'The access could not be revoked.' },
  },
});

export const RemediationItemNode = builder.prismaNode('RemediationItem', {
  id: { field: 'id', description: 'The item’s global id.' },
  nullable: true,
  description: 'One access to revoke: a user’s role or profile in a system (directly or under a composite role) whose removal was approved.',
  authScopes: { admin: true },
  fields: (t) => ({
    period: t.relation('period', { description: 'The review period the removal was approved in.' }),
    userId: t.exposeString('userId', { description: 'The user id in the source system.' }),
    userName: t.exposeString('userName', { description: 'The user’s name as exported.' }),
    system: t.exposeString('system', { description: 'The system holding the access.' }),
    roleProfile: t.exposeString('roleProfile', { description: 'The role or profile to revoke.' }),
    compositeRole: t.exposeString('compositeRole', { description: 'The composite role it comes under (empty: assigned directly).' }),
    riskIds: t.exposeString('riskIds', { description: "The access risk ids whose removal was approved on this access ('; ' between them)." }),
    riskLevel: t.expose('riskLevel', { type: RiskLevelEnum, description: 'The highest level among those risks.' }),
    decidedBy: t.exposeString('decidedBy', { description: "Who decided the removal ('; ' between several)." }),
    approvedBy: t.exposeString('approvedBy', { description: 'Who approved the decisions.' }),
    approvedAt: t.expose('approvedAt', { type: 'DateTime', nullable: true, description: 'When they were approved.' }),
    status: t.expose('status', { type: RemediationStatusEnum, description: 'Where the removal stands.' }),
    statusNote: t.exposeString('statusNote', { nullable: true, description: 'The note given with the status (why it failed, say).' }),
    statusSetBy: t.exposeString('statusSetBy', {
      nullable: true,
      description: "Who set the status, as shown at the time ('system (upload check)' for an upload); null while never set.",
    }),
    statusSetAt: t.expose('statusSetAt', { type: 'DateTime', nullable: true, description: 'When the status was set.' }),
    verifiedAt: t.expose('verifiedAt', { type: 'DateTime', nullable: true, description: 'When an upload found the access gone.' }),
    reopenedCount: t.exposeInt('reopenedCount', { description: 'How many times an upload found the access still there after it was marked done.' }),
  }),
});

const RemediationFilterInput = builder.inputType('RemediationFilter', {
  description: 'Which remediation items to list.',
  fields: (t) => ({
    periodId: t.globalID({ for: ReviewPeriodNode, description: 'Only the removals approved in this review period.' }),
    status: t.field({ type: RemediationStatusEnum, description: 'Only the items with this status.' }),
  }),
});

const filterOf = (f: { periodId?: { id: string } | null; status?: string | null } | null | undefined): remediation.RemediationFilter => ({
  periodId: f?.periodId?.id ?? null,
  status: f?.status ?? null,
});

/** The remediation list is worked through by person, system or role: each order ends with the item's id, so cursors stay put. */
const remediationOrder = listOrder(
  'RemediationItem',
  'remediation items',
  {
    APPROVED_AT: { columns: ['approvedAt', 'userId', 'system', 'roleProfile'], description: 'When the removal was approved (then user, system, role).' },
    USER_ID: { columns: ['userId', 'system', 'roleProfile'], description: 'The user id whose access is to be removed (then system, role).' },
    SYSTEM: { columns: ['system', 'userId', 'roleProfile'], description: 'The source system to remove it in (then user, role).' },
    ROLE_PROFILE: { columns: ['roleProfile', 'userId', 'system'], description: 'The role profile to remove (then user, system).' },
    RISK_LEVEL: { columns: ['riskLevel', 'userId', 'system', 'roleProfile'], description: 'The highest risk level among its risks (ASC: high first).' },
    STATUS: { columns: ['status', 'approvedAt'], description: 'Where the removal stands (ASC: open, done, failed, verified), then approval time.' },
  },
  { field: 'APPROVED_AT', direction: 'asc' },
);

builder.queryFields((t) => ({
  remediationItems: t.prismaConnection({
    type: 'RemediationItem',
    cursor: 'id',
    description: 'The remediation list (approved removals, brought up to date), oldest approval first (administrators).',
    authScopes: { admin: true },
    // The connection's totalCount is generated by the Prisma plugin: descriptions.ts describes it with this text.
    extensions: { totalCountDescription: 'How many remediation items match the filter.' },
    args: { filter: t.arg({ type: RemediationFilterInput, description: 'By review period and status; all when left out.' }), ...remediationOrder.arg() },
    totalCount: async (_conn, args, ctx) => ctx.prisma.remediationItem.count({ where: remediation.remediationWhere(filterOf(args.filter)) }),
    resolve: async (query, _root, args, ctx) => {
      const where = await remediation.remediationScope(ctx.caller!, filterOf(args.filter));
      return ctx.prisma.remediationItem.findMany({
        ...runnable(query),
        where,
        orderBy: remediationOrder.orderBy<Prisma.RemediationItemOrderByWithRelationInput>(args.orderBy),
      });
    },
  }),
}));

builder.mutationFields((t) => ({
  setRemediationStatus: t.prismaField({
    type: 'RemediationItem',
    description: 'Sets a remediation item open, done or failed, with an optional note; who and when are kept and audited (administrators).',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: RemediationItemNode, description: 'The item.' }),
      status: t.arg({ type: SettableRemediationStatusEnum, required: true, description: 'The new status.' }),
      note: t.arg.string({ description: `Why, or what was done (${remediation.MAX_NOTE_LENGTH} characters at most); replaces the previous note.` }),
    },
    resolve: async (query, _root, args, ctx) => {
      const item = await remediation.setRemediationStatus(ctx.caller!, args.id.id, args.status, args.note);
      return ctx.prisma.remediationItem.findUniqueOrThrow({ ...runnable(query), where: { id: item.id } });
    },
  }),
}));
