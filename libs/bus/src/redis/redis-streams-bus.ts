import Redis from 'ioredis';
import type { Logger } from '@vaultline/logger';
import type { Bus, BusHealth, BusMessage, ConsumerLag, SubscribeOptions, Subscription } from '../bus.port';
import { describeError, retryPolicyOf } from '../retry/deliver-with-retry';
import { silentLogger } from '../silent-logger';
import { validateMessages } from '../validate-messages';
import { RedisStreamConsumer } from './redis-stream-consumer';
import { toStreamFields } from './stream-entries';
import { GroupTopics, SubscriptionHealth, topicsOf } from '../subscriptions';

export interface RedisStreamsBusOptions {
  /**
   * Stable name of this process in its consumer groups (default `<group>-1`). Keep it across
   * restarts: a restarted consumer re-reads the entries it left unacknowledged.
   */
  consumerName?: string;
  logger?: Logger;
  /** Entries pending longer than this at another consumer are claimed (default 60 s). */
  claimIdleMs?: number;
  /** How long one XREADGROUP blocks (default 2 s; it is interrupted on stop). */
  blockMs?: number;
  /** Entries read per XREADGROUP (default 20). */
  readCount?: number;
  /** Approximate cap per stream (XADD MAXLEN ~, default 1,000,000); entries beyond it are trimmed, handled or not. */
  maxLen?: number;
}

/**
 * The local profile's bus: one Redis stream per topic, one Redis consumer group per group.
 *
 * Order: each subscription (consumer) handles its entries sequentially, so with one consumer per
 * group the order is the publish order. Redis hands entries of one stream to whichever consumer
 * reads, so a group with several consumers keeps no per-key order; scaling a group beyond one
 * consumer while keeping order needs partitioned streams (a stream per key hash), not done here.
 */
export class RedisStreamsBus implements Bus {
  private readonly consumers = new Set<RedisStreamConsumer>();
  private readonly namesInUse = new Set<string>();
  private readonly groupTopics = new GroupTopics();
  private readonly subscriptionHealth = new SubscriptionHealth();
  private readonly logger: Logger;
  private closed = false;

  private constructor(
    private readonly redis: Redis,
    private readonly options: RedisStreamsBusOptions,
  ) {
    this.logger = options.logger ?? silentLogger();
  }

  static async connect(url: string, options: RedisStreamsBusOptions = {}): Promise<RedisStreamsBus> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const bus = new RedisStreamsBus(redis, options);
    bus.watchErrors(redis);
    await redis.connect();
    return bus;
  }

  async ensureTopics(_topics: string[]): Promise<void> {
    // Streams appear with the first XADD and groups are created (MKSTREAM) on subscribe.
    this.assertOpen();
  }

  async publish(messages: BusMessage[]): Promise<void> {
    this.assertOpen();
    validateMessages(messages);
    if (messages.length === 0) return;
    const maxLen = String(this.options.maxLen ?? 1_000_000);
    const transaction = this.redis.multi();
    for (const message of messages) transaction.call('XADD', message.topic, 'MAXLEN', '~', maxLen, '*', ...toStreamFields(message));
    const results = await transaction.exec();
    if (!results) throw new Error('redis bus: publish transaction aborted');
    const failed = results.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }

  /** A Redis consumer group is per stream: one stream consumer (and connection) per topic of the subscription. */
  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    const topics = topicsOf(options);
    const release = this.groupTopics.claim(options.group, topics);
    const started: Array<() => Promise<void>> = [];
    const stopAll = () => Promise.all(started.map((stop) => stop())).then(() => release());
    try {
      for (const topic of topics) started.push(await this.consume(topic, options));
    } catch (error) {
      await stopAll();
      throw error;
    }
    let stopped: Promise<void> | undefined;
    return { stop: () => (stopped ??= stopAll()) };
  }

  private async consume(topic: string, options: SubscribeOptions): Promise<() => Promise<void>> {
    const name = this.claimConsumerName(topic, options.group);
    const connection = this.redis.duplicate({ lazyConnect: false, maxRetriesPerRequest: null });
    this.watchErrors(connection);
    const consumer = new RedisStreamConsumer({
      connection,
      topic,
      group: options.group,
      consumer: name,
      handler: options.handler,
      policy: retryPolicyOf(options),
      publishDeadLetter: (message) => this.publish([message]),
      logger: this.logger,
      blockMs: this.options.blockMs ?? 2_000,
      readCount: this.options.readCount ?? 20,
      claimIdleMs: this.options.claimIdleMs ?? 60_000,
      health: this.subscriptionHealth,
    });
    try {
      await consumer.start();
    } catch (error) {
      connection.disconnect();
      this.namesInUse.delete(`${topic}\u0000${options.group}\u0000${name}`);
      throw error;
    }
    this.consumers.add(consumer);
    return async () => {
      this.consumers.delete(consumer);
      await consumer.stop();
      this.namesInUse.delete(`${topic}\u0000${options.group}\u0000${name}`);
    };
  }

  /** XINFO GROUPS per topic: `lag` (entries not yet delivered to the group; Redis 7+) plus `pending` (delivered, not acknowledged). */
  async consumerLag(groups: Array<{ group: string; topics: string[] }>): Promise<ConsumerLag[]> {
    this.assertOpen();
    const lags: ConsumerLag[] = [];
    for (const topic of new Set(groups.flatMap((g) => g.topics))) {
      const reply = (await this.redis.call('XINFO', 'GROUPS', topic).catch(() => [])) as unknown[];
      const infos = reply.map((entry) => fieldsOf(entry as unknown[]));
      for (const { group } of groups.filter((g) => g.topics.includes(topic))) {
        const info = infos.find((fields) => fields.name === group);
        if (info) lags.push({ group, topic, lag: (Number(info.lag) || 0) + (Number(info.pending) || 0) });
      }
    }
    return lags;
  }

  health(): BusHealth {
    return this.subscriptionHealth.report();
  }

  async ping(): Promise<void> {
    this.assertOpen();
    await this.redis.ping();
  }

  /** Stops every subscription (entries being retried stay pending for redelivery), then disconnects. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.consumers].map((consumer) => consumer.stop()));
    this.consumers.clear();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /**
   * The first subscription of a topic/group in this process gets the configured name, further
   * ones `-2`, `-3`…: the same names again after a restart, so pending entries find their owner.
   */
  private claimConsumerName(topic: string, group: string): string {
    const base = this.options.consumerName;
    for (let index = 1; ; index++) {
      const name = index === 1 ? (base ?? `${group}-1`) : `${base ?? group}-${index}`;
      const slot = `${topic}\u0000${group}\u0000${name}`;
      if (!this.namesInUse.has(slot)) {
        this.namesInUse.add(slot);
        return name;
      }
    }
  }

  private watchErrors(connection: Redis): void {
    // Without a listener ioredis rethrows connection errors as uncaught exceptions.
    connection.on('error', (error: unknown) => this.logger.warn({ error: describeError(error) }, 'redis bus connection error'));
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}

/** A Redis reply of alternating names and values as an object. */
function fieldsOf(reply: unknown[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) fields[String(reply[i])] = reply[i + 1];
  return fields;
}
