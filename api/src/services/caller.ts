// Who calls a service, in one shape: the app's long-lived parts (deps), the
// signed-in user as the audit trail records them (actor: user, address,
// session) and as the review sees them (viewer: role, visible rows, active
// period, batched lookups). The request context (context.ts) builds one per
// signed-in request, HTTP and WebSocket alike; every service a signed-in user
// reaches takes it first. Work without a signed-in user (sign-in, jobs, the
// daily run) takes deps or a transaction instead.
import type { User } from '../generated/prisma/client.js';
import type { Actor } from '../core/types.js';
import type { AppDeps } from './deps.js';
import { createViewer, type Viewer } from './viewer.js';

export interface Caller {
  deps: AppDeps;
  actor: Actor & { user: User };
  viewer: Viewer;
}

/** The caller of a signed-in request (or of a test acting as `user`). */
export function createCaller(deps: AppDeps, actor: Actor & { user: User }): Caller {
  return { deps, actor, viewer: createViewer(deps.prisma, actor.user) };
}

/**
 * What a caller's review figures are read against: the period whose decisions
 * are shown (the active one, else the one closed last) and the rows they see.
 */
export async function callerSight(caller: Caller) {
  const { viewer } = caller;
  const [period, scope] = await Promise.all([viewer.decisionPeriod(), viewer.scope()]);
  return { prisma: caller.deps.prisma, user: viewer.user, period, scope };
}

/**
 * Work the system does on its own (a scheduled job) through a service a
 * signed-in user also reaches: no user and no viewer, audited as 'system'.
 */
export interface SystemCaller {
  deps: AppDeps;
  actor: Actor & { user: null };
}

export function systemCaller(deps: AppDeps): SystemCaller {
  return { deps, actor: { user: null } };
}
