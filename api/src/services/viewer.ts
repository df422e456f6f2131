// Who is asking, read once per request: the user and role, the rows they may
// see (services/review/risks.ts viewerScope: liveness and assignment scope), the
// active period, and the per-row lookups that a list would otherwise repeat
// (batched with dataloader: one query for every row a response asks about).
// context.ts builds one for each request, HTTP and WebSocket alike; each part
// is read the first time it is needed, then shared by every resolver.
import DataLoader from 'dataloader';
import type { PrismaClient, ReviewPeriod, RiskRow, User } from '../generated/prisma/client.js';
import { getActivePeriod, getDecisionPeriod } from './review/current-period.js';
import { viewerScope, visibleRows, type RowScope } from './visibility.js';
import type { DecisionValue } from './risk-rules.js';

export interface Viewer {
  user: User;
  role: User['role'];
  /** The rows the viewer may see: a SQL condition (alias r) and the key of cached counts. */
  scope(): Promise<RowScope>;
  activePeriod(): Promise<ReviewPeriod | null>;
  /** The period whose decisions are shown: the active one, else the one closed last (read-only). */
  decisionPeriod(): Promise<ReviewPeriod | null>;
  /** Risk rows by id as the viewer may see them: null when not visible or not there. */
  rows: DataLoader<bigint, RiskRow | null, string>;
  /** The viewer's own decision on a row in the decision period (see decisionPeriod). */
  myDecisions: DataLoader<bigint, DecisionValue | null, string>;
  /**
   * Any other per-item lookup a list repeats (the levels of the composite-role
   * view): the loader named `name` (one per kind of lookup and its arguments),
   * made on first use, so that every key asked for while a response resolves
   * goes into one call of `batch`.
   */
  loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<readonly V[]>, key: (k: K) => string): DataLoader<K, V, string>;
}

const once = <T>(f: () => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
};

export function createViewer(prisma: PrismaClient, user: User): Viewer {
  const scope = once(() => viewerScope(prisma, user));
  const activePeriod = once(() => getActivePeriod(prisma));
  const decisionPeriod = once(async () => (await activePeriod()) ?? getDecisionPeriod(prisma));
  const cacheKeyFn = (id: bigint) => String(id);
  const loaders = new Map<string, DataLoader<unknown, unknown, string>>();
  return {
    user,
    role: user.role,
    scope,
    activePeriod,
    decisionPeriod,
    rows: new DataLoader(
      async (ids) => {
        const found = await visibleRows(prisma, await scope(), ids);
        return ids.map((id) => found.get(id) ?? null);
      },
      { cacheKeyFn },
    ),
    myDecisions: new DataLoader(
      async (ids) => {
        const period = await decisionPeriod();
        if (!period) return ids.map(() => null);
        const ds = await prisma.decision.findMany({
          where: { periodId: period.id, reviewerId: user.id, riskRowId: { in: [...ids] } },
          select: { riskRowId: true, decision: true },
        });
        const byRow = new Map(ds.map((d) => [String(d.riskRowId), d.decision]));
        return ids.map((id) => byRow.get(String(id)) ?? null);
      },
      { cacheKeyFn },
    ),
    loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<readonly V[]>, key: (k: K) => string) {
      let l = loaders.get(name) as DataLoader<K, V, string> | undefined;
      if (!l) loaders.set(name, (l = new DataLoader<K, V, string>(batch, { cacheKeyFn: key })) as DataLoader<unknown, unknown, string>);
      return l;
    },
  };
}
