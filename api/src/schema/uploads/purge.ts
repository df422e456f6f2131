// 'Purge All Risk Data' and the event that tells open pages to refetch.
import { filter, pipe } from 'graphql-yoga';
import { builder } from '../builder.js';
import { purgeRiskData, type PurgeResult } from '../../services/uploads/purge.js';
import { stillSignedIn } from '../../context.js';

const PurgeCounts = builder.objectRef<PurgeResult['deleted']>('PurgeCounts').implement({
  fields: (t) => ({
    riskRows: t.exposeInt('riskRows'),
    uploads: t.exposeInt('uploads'),
    decisions: t.exposeInt('decisions'),
    submissions: t.exposeInt('submissions'),
    assignments: t.exposeInt('assignments'),
    analysisResults: t.exposeInt('analysisResults'),
    simulations: t.exposeInt('simulations'),
    aiRiskProfiles: t.exposeInt('aiRiskProfiles'),
  }),
});

const PurgeResultRef = builder.objectRef<PurgeResult>('PurgeResult').implement({
  fields: (t) => ({
    purgedAt: t.expose('purgedAt', { type: 'DateTime' }),
    deleted: t.field({ type: PurgeCounts, resolve: (r) => r.deleted }),
  }),
});

const RiskDataPurged = builder.objectRef<{ purgedAt: string }>('RiskDataPurged').implement({
  fields: (t) => ({ purgedAt: t.field({ type: 'DateTime', resolve: (e) => new Date(e.purgedAt) }) }),
});

builder.mutationFields((t) => ({
  purgeRiskData: t.field({
    type: PurgeResultRef,
    description: 'Deletes all risk data in one transaction; users, settings, notifications and the audit trail stay.',
    authScopes: { admin: true },
    errors: {},
    resolve: (_root, _args, ctx) => purgeRiskData(ctx.deps, ctx.actor),
  }),
}));

builder.subscriptionFields((t) => ({
  riskDataPurged: t.field({
    type: RiskDataPurged,
    description: 'An administrator purged all risk data: refetch what the page shows.',
    authScopes: { signedIn: true },
    subscribe: (_root, _args, ctx) => pipe(ctx.pubsub.subscribe('risk-data:purged'), filter(() => stillSignedIn(ctx))),
    resolve: (e) => e,
  }),
}));
