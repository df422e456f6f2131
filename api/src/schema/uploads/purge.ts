// 'Purge All Risk Data' and the event that tells open pages to refetch.
import { filter, pipe } from 'graphql-yoga';
import { builder } from '../builder.js';
import { purgeRiskData, type PurgeResult } from '../../services/uploads/purge.js';
import { stillSignedIn } from '../../context.js';

const PurgeCounts = builder.objectRef<PurgeResult['deleted']>('PurgeCounts').implement({
  description: 'Rows deleted by a purge, by kind.',
  fields: (t) => ({
    riskRows: t.exposeInt('riskRows', { description: 'Risk rows deleted: the loaded data.' }),
    uploads: t.exposeInt('uploads', { description: 'Upload records (and their stored files) deleted.' }),
    decisions: t.exposeInt('decisions', { description: 'Reviewers’ decisions deleted, of every period.' }),
    submissions: t.exposeInt('submissions', { description: 'Submissions of decisions deleted.' }),
    assignments: t.exposeInt('assignments', { description: 'Assignments of rows to reviewers deleted.' }),
    analysisResults: t.exposeInt('analysisResults', { description: 'Stored risk analyses.' }),
    simulations: t.exposeInt('simulations', { description: 'Stored simulation runs.' }),
    aiRiskProfiles: t.exposeInt('aiRiskProfiles', { description: 'AI risk profiles (stored answers about a user’s risk) deleted with the data.' }),
  }),
});

const PurgeResultRef = builder.objectRef<PurgeResult>('PurgeResult').implement({
  description: 'What purging the risk data deleted.',
  fields: (t) => ({
    purgedAt: t.expose('purgedAt', { type: 'DateTime', description: 'When the risk data was deleted.' }),
    deleted: t.field({ type: PurgeCounts, description: 'Rows deleted, by kind.', resolve: (r) => r.deleted }),
  }),
});

const RiskDataPurged = builder.objectRef<{ purgedAt: string }>('RiskDataPurged').implement({
  description: 'Every risk row was deleted by an administrator.',
  fields: (t) => ({
    purgedAt: t.field({
      type: 'DateTime',
      description: 'When the risk data was deleted (pages showing rows should reload).',
      resolve: (e) => new Date(e.purgedAt),
    }),
  }),
});

builder.mutationFields((t) => ({
  purgeRiskData: t.field({
    type: PurgeResultRef,
    description: 'Deletes all risk data in one transaction; users, settings, notifications and the audit trail stay.',
    authScopes: { admin: true },
    errors: {},
    resolve: (_root, _args, ctx) => purgeRiskData(ctx.caller!),
  }),
}));

builder.subscriptionFields((t) => ({
  riskDataPurged: t.field({
    type: RiskDataPurged,
    description: 'An administrator purged all risk data: refetch what the page shows.',
    authScopes: { signedIn: true },
    subscribe: (_root, _args, ctx) =>
      pipe(
        ctx.pubsub.subscribe('risk-data:purged'),
        filter(() => stillSignedIn(ctx)),
      ),
    resolve: (e) => e,
  }),
}));
