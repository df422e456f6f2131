// Dashboard figures in GraphQL.
import { builder } from './builder.js';
import * as dashboard from '../services/dashboard.js';

const DashboardStats = builder
  .objectRef<Awaited<ReturnType<typeof dashboard.dashboardStats>>>('DashboardStats')
  .implement({
    fields: (t) => ({
      totalConflicts: t.exposeInt('totalConflicts'),
      highRiskUsers: t.exposeInt('highRiskUsers'),
      pendingReviews: t.exposeInt('pendingReviews'),
      activeReviewers: t.exposeInt('activeReviewers', { description: 'Reviewers seen in the last 15 minutes.' }),
    }),
  });

builder.queryFields((t) => ({
  dashboardStats: t.field({
    type: DashboardStats,
    authScopes: { signedIn: true },
    resolve: (_root, _args, ctx) => dashboard.dashboardStats(ctx.prisma, ctx.viewer!),
  }),
}));
