import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { Listeners, parseMessage, type BusListener, type BusMessage, type EventBus } from './bus.ts';

/**
 * Redis pub/sub channels are shared by every database number of a server, so the channel
 * carries the number: several portals on one Redis (one number each) stay apart.
 */
function redisChannel(url: string): string {
  const database = Number(new URL(url).pathname.slice(1) || 0);
  return `portal:events:${Number.isInteger(database) ? database : 0}`;
}

/**
 * Redis pub/sub: one connection subscribes, another publishes. ioredis reconnects and
 * subscribes again by itself; while Redis is down, events are not carried (logged once)
 * and clients refetch when their stream reconnects.
 */
export class RedisBus implements EventBus {
  readonly kind = 'redis';
  private readonly listeners = new Listeners();

  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;

  private constructor(publisher: Redis, subscriber: Redis, channel: string) {
    this.publisher = publisher;
    this.subscriber = subscriber;
    this.channel = channel;
  }

  static async connect(url: string, log: FastifyBaseLogger): Promise<RedisBus> {
    // commandTimeout bounds the ready check too: a Redis that accepts connections and never
    // answers would otherwise hold the start-up forever.
    const options = { connectTimeout: 2000, commandTimeout: 500, lazyConnect: true } as const;
    const publisher = new Redis(url, { ...options, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const subscriber = new Redis(url, options);
    let isDown = false;
    for (const connection of [publisher, subscriber]) {
      connection.on('error', (error: Error) => {
        if (isDown) return;
        isDown = true;
        log.error({ err: error }, 'events: Redis unreachable; live updates pause until it is back');
      });
      connection.on('ready', () => {
        isDown = false;
      });
    }
    const bus = new RedisBus(publisher, subscriber, redisChannel(url));
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== bus.channel) return;
      const message = parseMessage(text);
      if (message) bus.listeners.deliver(message);
    });
    await Promise.all([publisher.connect().catch(() => {}), subscriber.connect().catch(() => {})]);
    // Not awaited: while Redis is down the subscription waits in ioredis's queue.
    void subscriber.subscribe(bus.channel).catch(() => {});
    return bus;
  }

  async publish(message: BusMessage): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify(message));
  }

  subscribe(listener: BusListener): () => void {
    return this.listeners.add(listener);
  }

  close(): Promise<void> {
    this.publisher.disconnect();
    this.subscriber.disconnect();
    return Promise.resolve();
  }
}
