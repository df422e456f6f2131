// Bulk AI categorisation: the estimate and latest run, starting one, and its live progress.
import { filter, pipe } from 'graphql-yoga';
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import * as bulk from '../../services/ai/ai-bulk.js';
import { stillSignedIn } from '../../context.js';

const Estimate = builder.objectRef<bulk.BulkEstimate>('AiBulkEstimate').implement({
  description: 'What a bulk categorisation would cost.',
  fields: (t) => ({
    uncategorized: t.exposeInt('uncategorized', { description: 'Risk ids of the current data with no AI category yet.' }),
    estimatedCostUsd: t.exposeFloat('estimatedCostUsd', { description: 'The estimated cost of categorising every uncategorised risk id, in US dollars.' }),
    perCallUsd: t.exposeFloat('perCallUsd', { description: 'The estimated cost of one call, in US dollars.' }),
    spendCapUsd: t.exposeFloat('spendCapUsd', { nullable: true, description: 'The monthly spend cap, in US dollars (null: none).' }),
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
  description: 'A bulk categorisation run and how far it is (kept after it ends; node(id:) reads it back, for administrators).',
  id: { description: 'The run’s global id, as node(id:) reads it back (null there for anyone but an administrator).', resolve: (p) => p.runId },
  authScopes: { admin: true },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'runId' in v && 'costUsd' in v && 'spendCapUsd' in v,
  loadMany: (ids, ctx) => bulk.bulkRunsById(ctx.caller!, ids),
  fields: (t) => ({
    runId: t.exposeString('runId', {
      description: 'The run’s id as stored (the audit log’s entity id, `GET /api/ai/bulk-categorize`’s `run.runId`); `id` is the global one.',
    }),
    status: t.expose('status', { type: AiBulkStatusEnum, description: 'Where the run stands.' }),
    total: t.exposeInt('total', { description: 'Risk ids the run will categorise.' }),
    done: t.exposeInt('done', { description: 'Risk ids categorised so far.' }),
    failed: t.exposeInt('failed', { description: 'Risk ids whose call failed.' }),
    costUsd: t.exposeFloat('costUsd', { description: 'What the run has cost so far, in US dollars.' }),
    spendCapUsd: t.exposeFloat('spendCapUsd', { nullable: true, description: 'The spend cap the run stops at, in US dollars (null: none).' }),
    error: t.exposeString('error', { nullable: true, description: 'Why the run failed (null unless failed).' }),
  }),
});

const BulkState = builder.objectRef<{ estimate: bulk.BulkEstimate; run: bulk.BulkProgress | null }>('AiBulkCategorization').implement({
  description: 'Categorising every uncategorised access risk id with the AI at once: its cost estimate and the run in progress.',
  fields: (t) => ({
    estimate: t.field({ type: Estimate, description: 'What categorising the rest would cost.', resolve: (s) => s.estimate }),
    run: t.field({ type: Progress, nullable: true, description: 'The latest run (null: none yet).', resolve: (s) => s.run }),
  }),
});

builder.queryFields((t) => ({
  aiBulkCategorization: t.field({
    type: BulkState,
    description: 'The bulk categorisation’s estimate and latest run (administrators).',
    authScopes: { admin: true },
    resolve: async (_root, _args, ctx) => {
      const run = await bulk.latestBulkRun(ctx.caller!);
      return { estimate: await bulk.estimateBulk(ctx.caller!), run: run ? bulk.progressOf(run) : null };
    },
  }),
}));

builder.mutationFields((t) => ({
  startAiBulkCategorization: t.field({
    type: Progress,
    description: 'Categorises every uncategorised risk id in the background, within the spend cap.',
    authScopes: { admin: true },
    errors: {},
    resolve: async (_root, _args, ctx) => bulk.progressOf(await bulk.startBulk(ctx.caller!)),
  }),
}));

builder.subscriptionFields((t) => ({
  aiBulkProgress: t.field({
    type: Progress,
    description: 'The bulk categorisation’s progress as it moves (administrators).',
    authScopes: { admin: true },
    subscribe: (_root, _args, ctx) =>
      pipe(
        ctx.pubsub.subscribe('ai-bulk:progress'),
        filter(() => stillSignedIn(ctx)),
      ),
    resolve: (p) => p,
  }),
}));
