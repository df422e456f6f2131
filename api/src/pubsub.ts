// Typed pub/sub for subscriptions: in-process, or fanned out through Redis
// across instances when REDIS_URL is set. Publish only after the write commits.
import { createPubSub } from 'graphql-yoga';

export type PubSubEvents = {
  /** Every session of this user was ended (deactivated, password changed elsewhere). */
  'session:ended': [userId: string, payload: { userId: string; reason: string }];
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
    },
  ];
  /** A notification was sent; subscribers deliver it only to the users it targets. */
  'notification:added': [payload: { notificationId: string; targetType: 'all' | 'specific'; targetUserId: string | null }];
};

export type PubSub = ReturnType<typeof createPubSub<PubSubEvents>>;

export interface PubSubHandle {
  pubsub: PubSub;
  close(): Promise<void>;
}

export async function createAppPubSub(redisUrl?: string): Promise<PubSubHandle> {
  if (!redisUrl) return { pubsub: createPubSub<PubSubEvents>(), close: async () => {} };
  const { Redis } = await import('ioredis');
  const { createRedisEventTarget } = await import('@graphql-yoga/redis-event-target');
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient });
  return {
    pubsub: createPubSub<PubSubEvents>({ eventTarget }),
    async close() {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
