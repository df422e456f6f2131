// Dashboard figures in GraphQL.
import { filter, pipe } from 'graphql-yoga';
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import { stillSignedIn } from '../../context.js';
import * as dashboard from '../../services/dashboard.js';
import { HIGH_RISK_TREND_DAYS } from '../../services/kept/index.js';

const DashboardStats = builder.objectRef<Awaited<ReturnType<typeof dashboard.dashboardStats>>>('DashboardStats').implement({
  description: 'The dashboard’s four figures.',
  fields: (t) => ({
    totalConflicts: t.exposeInt('totalConflicts', { description: 'Risk rows loaded (active records).' }),
    highRiskUsers: t.exposeInt('highRiskUsers', { description: 'Users with at least one high-risk row.' }),
    newHighRiskUsers: t.exposeInt('newHighRiskUsers', {
      description: `Of the high-risk users, those whose first high-risk row was loaded in the last ${HIGH_RISK_TREND_DAYS} days (the card's trend text).`,
    }),
    pendingReviews: t.exposeInt('pendingReviews', {
      description:
        'Risk rows not yet decided in the period whose decisions are shown (the active one, else the one closed last; every row when there is none): the same figure as the trend’s last pending.',
    }),
    activeReviewers: t.exposeInt('activeReviewers', { description: 'Reviewers seen in the last 15 minutes.' }),
    unassignedConflicts: t.exposeInt('unassignedConflicts', {
      description: 'Live rows nobody can review (no reviewer holds them and no fallback reviewer may), whether or not a period is active.',
    }),
    inactiveFallbackReviewers: t.exposeStringList('inactiveFallbackReviewers', {
      description: 'Fallback reviewers named in the review settings who cannot review (deactivated, or no longer reviewers).',
    }),
  }),
});

builder.queryFields((t) => ({
  dashboardStats: t.field({
    type: DashboardStats,
    description: 'The dashboard’s figures.',
    authScopes: { signedIn: true },
    resolve: (_root, _args, ctx) => dashboard.dashboardStats(ctx.caller!),
  }),
}));

const TrendRangeEnum = enumOf('TrendRange', {
  description: 'Last 30 days (by day), Last 90 days (by day), Last 6 months (by week).',
  values: ['last30Days', 'last90Days', 'last6Months'] as const,
  descriptions: {
    last30Days: 'The last 30 days, by day.',
    last90Days: 'The last 90 days, by day.',
    last6Months: 'The last 6 months, by week.',
  },
});

const RANGE_OF: Record<'last30Days' | 'last90Days' | 'last6Months', dashboard.TrendRange> = { last30Days: '30d', last90Days: '90d', last6Months: '6m' };

const TrendPointRef = builder.objectRef<dashboard.TrendPoint>('TrendPoint').implement({
  description: 'One day (or week) of the risk trend, cumulative at its end.',
  fields: (t) => ({
    date: t.expose('date', { type: 'DateTime', description: 'The start of the day or week (UTC).' }),
    loaded: t.exposeInt('loaded', { description: 'Risk rows loaded by then.' }),
    retained: t.exposeInt('retained', { description: 'Rows decided retain by then.' }),
    removed: t.exposeInt('removed', { description: 'Rows decided remove by then.' }),
    pending: t.exposeInt('pending', { description: 'Rows still undecided then.' }),
  }),
});

const CategoryCountRef = builder.objectRef<{ category: string; count: number }>('RiskCategoryCount').implement({
  description: 'Conflicts of one risk category.',
  fields: (t) => ({
    category: t.exposeString('category', { description: 'The category (accepted AI category, or Uncategorised).' }),
    count: t.exposeInt('count', { description: 'Risk rows in it.' }),
  }),
});

const DashboardChangeReasonEnum = enumOf('DashboardChangeReason', {
  description: 'What moved the dashboard figures.',
  values: {
    decisions: { description: 'Decisions were saved.' },
    upload: { description: 'An upload went live.' },
  },
});

type DashboardChange = { reason: 'decisions' | 'upload' };

const DashboardChangeRef = builder.objectRef<DashboardChange>('DashboardChange').implement({
  description: 'The dashboard’s figures changed.',
  fields: (t) => ({ reason: t.expose('reason', { type: DashboardChangeReasonEnum, description: 'What moved them.' }) }),
});

builder.queryFields((t) => ({
  dashboardTrend: t.field({
    type: [TrendPointRef],
    description: 'The risk trend over the range: conflicts loaded, decided retain / remove, pending (see services/dashboard.ts).',
    authScopes: { signedIn: true },
    args: { range: t.arg({ type: TrendRangeEnum, required: true, description: 'Which range, and by day or by week.' }) },
    resolve: async (_root, args, ctx) => (await dashboard.dashboardTrend(ctx.caller!, RANGE_OF[args.range])).points,
  }),
  riskCategories: t.field({
    type: [CategoryCountRef],
    description: "Conflicts per risk category (accepted AI categories; the rest 'Uncategorised').",
    authScopes: { signedIn: true },
    resolve: (_root, _args, ctx) => dashboard.riskCategories(ctx.caller!),
  }),
}));

builder.subscriptionFields((t) => ({
  dashboardChanged: t.field({
    type: DashboardChangeRef,
    description: 'The dashboard figures moved (decisions saved, an upload went live): refetch them. Carries no figures.',
    authScopes: { signedIn: true },
    subscribe: (_root, _args, ctx) =>
      pipe(
        ctx.pubsub.subscribe('dashboard:changed'),
        filter(() => stillSignedIn(ctx)),
      ),
    resolve: (payload: DashboardChange) => payload,
  }),
}));
