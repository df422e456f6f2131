// Help deciding in GraphQL: beside each risk row, its
// facts and the recommendation with its reason (services/review/recommendations.ts).
// The lists' rows carry the facts (read with the page); rows read by id are
// looked up together, one query per request.
import { builder } from '../builder.js';
import type { Context } from '../../context.js';
import * as rec from '../../services/review/recommendations.js';
import type { RiskRow } from '../../generated/prisma/client.js';
import { RecommendationValueEnum, RiskRowNode } from './risks.js';
import { DecisionValueEnum } from './decisions.js';
import type { DecisionValue } from '../../services/risk-rules.js';

export const RecommendationRef = builder.objectRef<rec.Recommendation>('Recommendation').implement({
  description: 'What the facts beside a risk row suggest, with the reason in words. Never applied on its own.',
  fields: (t) => ({
    value: t.expose('value', { type: RecommendationValueEnum, description: 'Retain, remove or review.' }),
    reason: t.exposeString('reason', { description: 'Why, in words, from the facts (usage, last period, rule, other reviewers).' }),
  }),
});

type WithFacts = RiskRow & Partial<rec.RecommendationFacts>;

/** The row's facts: on the row when a list read it, else looked up with the other rows of the response. */
async function factsOf(r: WithFacts, ctx: Context): Promise<rec.RecommendationFacts> {
  if (r.recommendationRule !== undefined) return r as rec.RecommendationFacts;
  const viewer = ctx.caller!.viewer;
  const loader = viewer.loader<bigint, rec.RecommendationFacts | null>(
    'recommendation-facts',
    async (ids) => {
      const period = await viewer.decisionPeriod();
      const found = await rec.factsOf(ctx.prisma, { periodId: period?.id ?? null, viewerId: viewer.user.id }, ids);
      return ids.map((id) => found.get(String(id)) ?? null);
    },
    String,
  );
  return (await loader.load(r.id)) ?? { ruleId: r.ruleId, executionCount: r.executionCount, lastExecutedOn: r.lastExecutedOn };
}

builder.prismaObjectFields(RiskRowNode, (t) => ({
  recommendation: t.field({
    type: RecommendationRef,
    description: 'Help deciding: retain, remove or review, with the reason, derived from the facts beside the row.',
    resolve: async (r, _args, ctx) => rec.recommendationOf(await factsOf(r as WithFacts, ctx)),
  }),
  lastPeriodDecision: t.field({
    type: DecisionValueEnum,
    nullable: true,
    description: 'The decision on the same user and role in the period before the current one; null: none.',
    resolve: async (r, _args, ctx) => ((await factsOf(r as WithFacts, ctx)).lastPeriodDecision as DecisionValue | null) ?? null,
  }),
  sharedReviewers: t.int({
    description: 'How many other reviewers share the row (assigned it by their criteria, or having decided it in the period).',
    resolve: async (r, _args, ctx) => rec.sharedOf(await factsOf(r as WithFacts, ctx)).reviewers,
  }),
  sharedRemoved: t.int({
    description: 'Of those other reviewers, how many decided remove in the period.',
    resolve: async (r, _args, ctx) => rec.sharedOf(await factsOf(r as WithFacts, ctx)).removed,
  }),
  sharedRetained: t.int({
    description: 'Of those other reviewers, how many decided retain (or retain with a mitigating control) in the period.',
    resolve: async (r, _args, ctx) => rec.sharedOf(await factsOf(r as WithFacts, ctx)).retained,
  }),
}));
