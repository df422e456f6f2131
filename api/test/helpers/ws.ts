// A graphql-ws client that connects with a browser's cookies.
import WebSocket from 'ws';
import { createClient, type Client as WsClient } from 'graphql-ws';
import type { PubSubEvents } from '../../src/pubsub.js';
import type { TestServer } from './server.js';

export function wsClient(baseUrl: string, cookie: string): WsClient {
  return createClient({
    url: baseUrl.replace('http', 'ws') + '/graphql',
    lazy: false,
    retryAttempts: 0,
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { cookie } });
      }
    },
  });
}

/** Subscribes and collects every result (wait with `listening` until the server has it). */
export function collect(client: WsClient, query: string) {
  const items: any[] = [];
  const errors: unknown[] = [];
  const dispose = client.subscribe({ query }, { next: (v) => items.push(v), error: (e) => errors.push(e), complete: () => {} });
  return { items, errors, dispose };
}

/**
 * Resolves once the server has at least `count` subscriptions listening on
 * the topic: act only then, or the event may come before anyone listens.
 */
export async function listening(server: TestServer, topic: keyof PubSubEvents, count: number): Promise<void> {
  await until(() => server.app.deps.pubsub.listening(topic) >= count, 15_000);
}

export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
