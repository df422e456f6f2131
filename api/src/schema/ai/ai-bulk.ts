// Bulk AI categorisation: the estimate and latest run, starting one, and its live progress.
import { filter, pipe } from 'graphql-yoga';
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import * as bulk from '../../services/ai/ai-bulk.js';
import { stillSignedIn } from '../../context.js';

const Estimate = builder.objectRef<bulk.BulkEstimate>('AiBulkEstimate').implement({
  fields: (t) => ({
    uncategorized: t.exposeInt('uncategorized', { description: 'Risk ids of the current data with no AI category yet.' }),
    estimatedCostUsd: t.exposeFloat('estimatedCostUsd'),
    perCallUsd: t.exposeFloat('perCallUsd'),
    spendCapUsd: t.exposeFloat('spendCapUsd', { nullable: true }),
  }),
});

const AiBulkStatusEnum = enumOf('AiBulkStatus', {
  description: 'Where a bulk categorisation run stands.',
  values: {
    running: { description: 'Still categorising (progress events follow).' },
    completed: { description: 'Every uncategorised risk id was tried.' },
    capped: { description: 'Stopped because the month’s AI spend cap was reached.' },
    failed: { description: 'Stopped by an error (`error` says which).' },
  } satisfies Record<bulk.BulkProgress['status'], { description: string }>,
});

/**
 * A run is an entity (a row of ai_bulk_runs, kept after it ends): a tool that
 * started one polls it by the id it was given, so it is a Node. Administrators
 * only, as the rest of bulk categorisation: node(id:) answers null to anyone else.
 */
const Progress = builder.node(builder.objectRef<bulk.BulkProgress>('AiBulkProgress'), {
  id: { resolve: (p) => p.runId },
  authScopes: { admin: true },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'runId' in v && 'costUsd' in v && 'spendCapUsd' in v,
  loadMany: (ids, ctx) => bulk.bulkRunsById(ctx.prisma, ids),
  fields: (t) => ({
    runId: t.exposeString('runId'),
    status: t.expose('status', { type: AiBulkStatusEnum, description: 'Where the run stands.' }),
    total: t.exposeInt('total'),
    done: t.exposeInt('done'),
    failed: t.exposeInt('failed'),
    costUsd: t.exposeFloat('costUsd'),
    spendCapUsd: t.exposeFloat('spendCapUsd', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const BulkState = builder.objectRef<{ estimate: bulk.BulkEstimate; run: bulk.BulkProgress | null }>('AiBulkCategorization').implement({
  fields: (t) => ({
    estimate: t.field({ type: Estimate, resolve: (s) => s.estimate }),
    run: t.field({ type: Progress, nullable: true, resolve: (s) => s.run }),
  }),
});

builder.queryFields((t) => ({
  aiBulkCategorization: t.field({
    type: BulkState,
    authScopes: { admin: true },
    resolve: async (_root, _args, ctx) => {
      const run = await bulk.latestBulkRun(ctx.prisma);
      return { estimate: await bulk.estimateBulk(ctx.deps), run: run ? bulk.progressOf(run) : null };
    },
  }),
}));

builder.mutationFields((t) => ({
  startAiBulkCategorization: t.field({
    type: Progress,
    description: 'Categorises every uncategorised risk id in the background, within the spend cap.',
    authScopes: { admin: true },
    errors: {},
    resolve: async (_root, _args, ctx) => bulk.progressOf(await bulk.startBulk(ctx.deps, ctx.actor)),
  }),
}));

builder.subscriptionFields((t) => ({
  aiBulkProgress: t.field({
    type: Progress,
    authScopes: { admin: true },
    subscribe: (_root, _args, ctx) => pipe(ctx.pubsub.subscribe('ai-bulk:progress'), filter(() => stillSignedIn(ctx))),
    resolve: (p) => p,
  }),
}));
