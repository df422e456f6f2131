// Typed pub/sub for subscriptions: in-process, or fanned out through Redis
// across instances when REDIS_URL is set. Publish only after the write commits.
import { setMaxListeners } from 'node:events';
import { createPubSub } from 'graphql-yoga';

export type PubSubEvents = {
  /** Every session of this user was ended (deactivated, password changed elsewhere). */
  'session:ended': [userId: string, payload: { userId: string; reason: string }];
  /** Some API token of this user may no longer be valid (revoked, or the user deactivated): server.ts closes the connections opened with one. */
  'api-tokens:changed': [payload: { userId: string }];
  /** Progress of an upload's load, as it happens. */
  'upload:progress': [
    uploadId: string,
    payload: {
      uploadId: string;
      status: 'processing' | 'completed' | 'failed';
      rowsProcessed: number;
      bytesProcessed: number;
      sizeBytes: number;
      duplicatesSkipped: number;
      errorMessage: string | null;
      /** A completed upload's warnings (columns not loaded, values not read); empty otherwise. */
      warnings: string[];
    },
  ];
  /** A review period was created, closed or reopened (after the commit). */
  'period:changed': [payload: { periodId: string; status: 'active' | 'closed' }];
  /** A notification was sent; subscribers deliver it only to the users it targets. */
  'notification:added': [payload: { notificationId: string; targetType: 'all' | 'specific'; targetUserId: string | null }];
  /** The dashboard's figures moved (decisions saved, an upload went live); subscribers refetch what they may see. */
  'dashboard:changed': [payload: { reason: 'decisions' | 'upload' }];
  /** An administrator purged all risk data: open pages refetch what they show. */
  'risk-data:purged': [payload: { purgedAt: string }];
  /** Progress of a bulk AI categorisation run. */
  'ai-bulk:progress': [
    payload: { runId: string; status: 'running' | 'completed' | 'capped' | 'failed'; total: number; done: number; failed: number; costUsd: number; spendCapUsd: number | null; error: string | null },
  ];
};

type BasePubSub = ReturnType<typeof createPubSub<PubSubEvents>>;

export type PubSub = BasePubSub & {
  /** How many subscriptions of this instance listen on a topic now (health figures; tests wait on it). */
  listening(topic: keyof PubSubEvents): number;
};

/** Counts each subscription from when it starts listening until it ends. */
function counted(base: BasePubSub): PubSub {
  const active = new Map<string, number>();
  const add = (topic: string, n: number) => active.set(topic, (active.get(topic) ?? 0) + n);
  const subscribe = ((...args: Parameters<BasePubSub['subscribe']>) => {
    const source = base.subscribe(...args);
    return {
      [Symbol.asyncIterator]() {
        const it = source[Symbol.asyncIterator]();
        // The source listens from its first next(); counted from then.
        let started = false;
        let ended = false;
        const end = () => {
          if (started && !ended) add(args[0], -1);
          ended = true;
        };
        return {
          next() {
            if (!started && !ended) {
              started = true;
              add(args[0], 1);
            }
            return it.next().then((r) => (r.done && end(), r));
          },
          return(v?: unknown) {
            end();
            return it.return ? it.return(v) : Promise.resolve({ done: true as const, value: v });
          },
          throw(e?: unknown) {
            end();
            return it.throw ? it.throw(e) : Promise.reject(e);
          },
        };
      },
    };
  }) as BasePubSub['subscribe'];
  return { ...base, subscribe, listening: (topic) => active.get(topic) ?? 0 };
}

export interface PubSubHandle {
  pubsub: PubSub;
  close(): Promise<void>;
}

export async function createAppPubSub(redisUrl?: string): Promise<PubSubHandle> {
  if (!redisUrl) {
    // One listener per open subscription: with more than ten people online,
    // Node's default limit would log a false 'memory leak' warning.
    const eventTarget = new EventTarget();
    setMaxListeners(0, eventTarget);
    return { pubsub: counted(createPubSub<PubSubEvents>({ eventTarget })), close: async () => {} };
  }
  const { Redis } = await import('ioredis');
  const { createRedisEventTarget } = await import('@graphql-yoga/redis-event-target');
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient });
  return {
    pubsub: counted(createPubSub<PubSubEvents>({ eventTarget })),
    async close() {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
