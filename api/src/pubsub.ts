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
  /**
   * A reviewer's set was submitted, recalled, approved or returned (after the commit),
   * keyed by that reviewer: only their own open pages hear it, whoever acted.
   */
  'review:submission-changed': [
    reviewerId: string,
    payload: { reviewerId: string; periodId: string; submissionId: string; status: 'submitted' | 'recalled' | 'approved' | 'returned' },
  ];
  /** A notification was sent; subscribers deliver it only to the users it targets. */
  'notification:added': [payload: { notificationId: string; targetType: 'all' | 'specific'; targetUserId: string | null }];
  /** The dashboard's figures moved (decisions saved, an upload went live); subscribers refetch what they may see. */
  'dashboard:changed': [payload: { reason: 'decisions' | 'upload' }];
  /** An administrator purged all risk data: open pages refetch what they show. */
  'risk-data:purged': [payload: { purgedAt: string }];
  /** Progress of an access extract's load or an analysis run (services/access/progress.ts). */
  'access:progress': [
    id: string,
    payload: { id: string; kind: 'extract' | 'analysis'; status: 'processing' | 'completed' | 'failed'; progress: number; errorMessage: string | null },
  ];
  /** Progress of a bulk AI categorisation run. */
  'ai-bulk:progress': [
    payload: {
      runId: string;
      status: 'running' | 'completed' | 'capped' | 'failed';
      total: number;
      done: number;
      failed: number;
      costUsd: number;
      spendCapUsd: number | null;
      error: string | null;
    },
  ];
};

type BasePubSub = ReturnType<typeof createPubSub<PubSubEvents>>;

export type PubSub = BasePubSub & {
  /** How many subscriptions of this instance listen on a topic now (health figures; tests wait on it). */
  listening(topic: keyof PubSubEvents): number;
  /**
   * Whether events reach the other instances now: 'in-process' without Redis, 'connected',
   * or 'unavailable' while Redis cannot be reached (/readyz reports it).
   */
  fanOut(): 'in-process' | 'connected' | 'unavailable';
};

/** Counts each subscription from when it starts listening until it ends. */
function counted(base: BasePubSub, fanOut: PubSub['fanOut']): PubSub {
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
  return { ...base, subscribe, listening: (topic) => active.get(topic) ?? 0, fanOut };
}

export interface PubSubHandle {
  pubsub: PubSub;
  close(): Promise<void>;
}

/**
 * Without REDIS_URL, events stay in this process. With it, they go through
 * Redis, and a Redis outage never takes the instance down: requests keep
 * working, events published meanwhile are dropped (live views catch up on
 * their next refetch), subscriptions wait, and both connections come back by
 * themselves (ioredis reconnects and subscribes again to every channel).
 */
export async function createAppPubSub(redisUrl: string | undefined, log: (msg: string) => void = () => {}): Promise<PubSubHandle> {
  if (!redisUrl) {
    // One listener per open subscription: with more than ten people online,
    // Node's default limit would log a false 'memory leak' warning.
    const eventTarget = new EventTarget();
    setMaxListeners(0, eventTarget);
    return { pubsub: counted(createPubSub<PubSubEvents>({ eventTarget }), () => 'in-process'), close: async () => {} };
  }
  const { Redis } = await import('ioredis');
  const { createRedisEventTarget } = await import('@graphql-yoga/redis-event-target');
  // A publish waits for at most one reconnection, then fails (and is dropped) instead of
  // queueing without bound; a subscription waits for the connection however long it takes.
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
  // One log line when Redis goes away and one when it is back, not one per reconnection attempt.
  let down = false;
  const lost = (err: Error) => {
    if (down) return;
    down = true;
    log(`Redis cannot be reached (${err.message}): live events between instances are paused; reconnecting`);
  };
  for (const client of [publishClient, subscribeClient]) {
    client.on('error', lost);
    client.on('ready', () => {
      if (down && publishClient.status === 'ready' && subscribeClient.status === 'ready') {
        down = false;
        log('Redis is back: live events between instances resume');
      }
    });
  }
  // The event target calls publish, subscribe and unsubscribe without awaiting them: a
  // rejection there would be unhandled and end the process, so each is caught here.
  const dropped = (what: string) => (err: Error) => {
    lost(err);
    log(`Redis ${what} failed: ${err.message}`);
  };
  const publisher = {
    publish: (channel: string, message: string) => publishClient.publish(channel, message).catch(dropped(`publish on ${channel}`)),
  };
  const subscriber = {
    on: subscribeClient.on.bind(subscribeClient),
    subscribe: (channel: string) => subscribeClient.subscribe(channel).catch(dropped(`subscribe to ${channel}`)),
    unsubscribe: (channel: string) => subscribeClient.unsubscribe(channel).catch(dropped(`unsubscribe from ${channel}`)),
  };
  type Clients = Parameters<typeof createRedisEventTarget>[0];
  const eventTarget = createRedisEventTarget({
    publishClient: publisher as unknown as Clients['publishClient'],
    subscribeClient: subscriber as unknown as Clients['subscribeClient'],
  });
  const fanOut = (): 'connected' | 'unavailable' => (publishClient.status === 'ready' && subscribeClient.status === 'ready' ? 'connected' : 'unavailable');
  return {
    pubsub: counted(createPubSub<PubSubEvents>({ eventTarget }), fanOut),
    async close() {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
