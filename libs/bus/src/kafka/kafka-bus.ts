import {
  Kafka,
  KafkaJSError,
  Partitioners,
  logLevel,
  type Admin,
  type Consumer,
  type ConsumerConfig,
  type EachMessagePayload,
  type IHeaders,
  type LogEntry,
  type Producer,
  type ProducerConfig,
  type SASLOptions,
} from 'kafkajs';
import type { Logger } from '@vaultline/logger';
import { deadLetterTopic, type Bus, type BusHealth, type BusMessage, type ConsumerLag, type SubscribeOptions, type Subscription } from '../bus.port';
import { deliverWithRetry, describeError, retryPolicyOf, type RetryPolicy } from '../retry/deliver-with-retry';
import { silentLogger } from '../silent-logger';
import { GroupTopics, SubscriptionHealth, topicsOf } from '../subscriptions';
import { validateMessages } from '../validate-messages';
import { lagOf, type TopicOffsets } from './kafka-lag';

export type KafkaProducer = Pick<Producer, 'connect' | 'sendBatch' | 'disconnect'>;
export type KafkaConsumer = Pick<Consumer, 'connect' | 'subscribe' | 'run' | 'disconnect' | 'on' | 'events'>;
export type KafkaAdmin = Pick<Admin, 'connect' | 'listTopics' | 'createTopics' | 'describeCluster' | 'disconnect' | 'fetchOffsets' | 'fetchTopicOffsets'>;

/**
 * TLS and SASL towards the brokers (KAFKA_SSL_CA_FILE, KAFKA_SASL_*), passed to kafkajs as its `ssl` and
 * `sasl` options. `ca` given: TLS trusting that CA only; `ssl: true`: TLS with the system's CAs. SASL
 * without TLS is refused: the password (plain) would cross the network in clear.
 */
export interface KafkaSecurity {
  ssl?: { ca: Buffer } | true;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

/** kafkajs's `ssl` and `sasl` client options from KafkaSecurity. */
export function kafkajsSecurity(security: KafkaSecurity | undefined): { ssl?: true | { ca: Buffer[] }; sasl?: SASLOptions } {
  if (!security) return {};
  if (security.sasl && !security.ssl) throw new Error('Kafka SASL needs TLS: set KAFKA_SSL_CA_FILE (or KAFKA_SSL=true for a broker with a public certificate)');
  const { sasl } = security;
  return {
    ...(security.ssl === true ? { ssl: true } : security.ssl ? { ssl: { ca: [security.ssl.ca] } } : {}),
    ...(sasl ? { sasl: { mechanism: sasl.mechanism, username: sasl.username, password: sasl.password } as SASLOptions } : {}),
  };
}

/** The part of kafkajs's `Kafka` client the bus uses (tests hand in a double shaped after it). */
export interface KafkaClient {
  producer(config: ProducerConfig): KafkaProducer;
  consumer(config: ConsumerConfig): KafkaConsumer;
  admin(): KafkaAdmin;
}

export interface KafkaBusOptions {
  /** Broker addresses, host:port. */
  brokers: string[];
  clientId?: string;
  /** Partitions of topics the bus creates (default 3). */
  partitions?: number;
  replicationFactor?: number;
  logger?: Logger;
  /** The kafkajs client; built from `brokers` when absent. */
  client?: KafkaClient;
  /** Delay before restarting a consumer that crashed for good (default 1 s doubling, at most 60 s). */
  restartDelayMs?: (crashes: number) => number;
  security?: KafkaSecurity;
}

/**
 * Thrown out of eachMessage so kafkajs does not resolve (commit) the offset of an interrupted
 * delivery. A KafkaJSError, because kafkajs's runner logs every other error of eachMessage at
 * ERROR (runner.js processEachMessage: `if (!isKafkaJSError(e)) logger.error(...)`), and a stop is
 * not an error.
 */
class DeliveryInterrupted extends KafkaJSError {
  constructor() {
    super('subscription stopping; offset left uncommitted', { retriable: true });
  }
}

const defaultRestartDelayMs = (crashes: number): number => Math.min(1_000 * 2 ** (crashes - 1), 60_000);

/** One subscription: a kafkajs consumer of `group` over all of its topics (replaced after a crash kafkajs does not recover from). */
interface Member {
  group: string;
  topics: string[];
  handler: SubscribeOptions['handler'];
  policy: RetryPolicy;
  abort: AbortController;
  consumer?: KafkaConsumer;
  crashes: number;
  restartTimer?: NodeJS.Timeout;
  stopped: boolean;
}

/**
 * The production bus, thin over kafkajs 2.2.4.
 *
 * - Producer: acks -1, idempotent (experimental in kafkajs, hence maxInFlightRequests 1), the
 *   Java-compatible partitioner named explicitly (murmur2 of BusMessage.key, so a key stays in one
 *   partition, as with Java clients). Topics are created by the bus (ensureTopics, and before the
 *   first publish to a topic), never by the broker's auto-creation.
 * - One kafkajs consumer per subscription, subscribed to all of the group's topics (groupId =
 *   group, fromBeginning): kafkajs's group leader assigns only the topics it subscribed itself
 *   (consumerGroup.js: `assigner.assign({ members, topics: topicsSubscribed })`).
 * - An offset is committed only after eachMessage resolved, and eachMessage resolves only after the
 *   handler did or the message was dead-lettered; while it retries it heartbeats through the
 *   payload's heartbeat (kafkajs heartbeats by itself only between messages).
 * - Order and progress: one partition is handled sequentially. Partitions are not independent:
 *   kafkajs fetches per broker and fetches again only after every batch of the previous fetch was
 *   handled (fetcher.js, workerQueue.js), so a message in retry holds back the partitions led by the
 *   same broker (with one broker: all of them) for at most its retry budget. The batches of one
 *   fetch are handled concurrently, up to partitionsConsumedConcurrently.
 * - A consumer that crashes with an error kafkajs will not retry (consumer/index.js onCrash:
 *   restart only when the error is retriable) is started again by the bus after a backoff; until
 *   it has joined its group again, health() lists it. A crash kafkajs restarts itself is logged and
 *   not listed. /ready turns that into unready only after BUS_UNHEALTHY_AFTER_SECONDS (readiness).
 */
export class KafkaBus implements Bus {
  private readonly members = new Set<Member>();
  private readonly groupTopics = new GroupTopics();
  private readonly subscriptionHealth = new SubscriptionHealth();
  /** Topics known to exist, so publish asks the broker only about new ones. */
  private readonly knownTopics = new Set<string>();
  private readonly logger: Logger;
  private closed = false;

  private constructor(
    private readonly client: KafkaClient,
    private readonly producer: KafkaProducer,
    private readonly options: KafkaBusOptions,
    logger: Logger,
  ) {
    this.logger = logger;
  }

  static async connect(options: KafkaBusOptions): Promise<KafkaBus> {
    const logger = options.logger ?? silentLogger();
    const client =
      options.client ??
      new Kafka({
        clientId: options.clientId ?? 'vaultline',
        brokers: options.brokers,
        ...kafkajsSecurity(options.security),
        logLevel: logLevel.WARN,
        logCreator: () => (entry: LogEntry) => forwardLog(logger, entry),
      });
    const producer = client.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // Named, rather than left to the default, which is the same partitioner but logs a warning once per process.
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    return new KafkaBus(client, producer, options, logger);
  }

  /** Creates missing topics and their dead-letter topics. */
  async ensureTopics(topics: string[]): Promise<void> {
    this.assertOpen();
    const wanted = [...new Set(topics.flatMap((topic) => (topic.endsWith('.dead-letter') ? [topic] : [topic, deadLetterTopic(topic)])))];
    if (wanted.every((topic) => this.knownTopics.has(topic))) return;
    const admin = this.client.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const missing = wanted.filter((topic) => !existing.has(topic));
      if (missing.length > 0) {
        // Another process creating the same topic meanwhile is fine: kafkajs answers false when all already exist.
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: this.options.partitions ?? 3,
            replicationFactor: this.options.replicationFactor ?? -1,
          })),
        });
      }
      for (const topic of wanted) this.knownTopics.add(topic);
    } finally {
      await admin.disconnect();
    }
  }

  /** Creates a topic it has not seen before sending to it: broker auto-creation is off, and nothing else would. */
  async publish(messages: BusMessage[]): Promise<void> {
    this.assertOpen();
    validateMessages(messages);
    if (messages.length === 0) return;
    const byTopic = new Map<string, BusMessage[]>();
    for (const message of messages) byTopic.set(message.topic, [...(byTopic.get(message.topic) ?? []), message]);
    const unknown = [...byTopic.keys()].filter((topic) => !this.knownTopics.has(topic));
    if (unknown.length > 0) await this.ensureTopics(unknown);
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map((message) => ({ key: message.key, value: message.value, headers: { ...message.headers } })),
      })),
    });
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    const topics = topicsOf(options);
    const release = this.groupTopics.claim(options.group, topics);
    const member: Member = {
      group: options.group,
      topics,
      handler: options.handler,
      policy: retryPolicyOf(options),
      abort: new AbortController(),
      crashes: 0,
      stopped: false,
    };
    this.members.add(member);
    try {
      await this.startConsumer(member);
    } catch (error) {
      await this.stopMember(member).catch(() => undefined);
      release();
      throw error;
    }
    let stopped: Promise<void> | undefined;
    return {
      stop: () =>
        (stopped ??= (async () => {
          await this.stopMember(member);
          release();
        })()),
    };
  }

  /**
   * The groups' committed offsets (admin.fetchOffsets) against the topics' end offsets
   * (admin.fetchTopicOffsets), per group and topic (lagOf). One admin connection per call: the metrics
   * scrape calls it, every 15 s; a failure surfaces as the scrape's error for this series only.
   */
  async consumerLag(groups: Array<{ group: string; topics: string[] }>): Promise<ConsumerLag[]> {
    if (groups.length === 0) return [];
    this.assertOpen();
    const admin = this.client.admin();
    await admin.connect();
    try {
      const ends: Record<string, TopicOffsets> = {};
      for (const topic of new Set(groups.flatMap((group) => group.topics))) ends[topic] = await admin.fetchTopicOffsets(topic);
      const lags: ConsumerLag[] = [];
      for (const { group, topics } of groups) lags.push(...lagOf(group, await admin.fetchOffsets({ groupId: group, topics }), ends));
      return lags;
    } finally {
      await admin.disconnect();
    }
  }

  health(): BusHealth {
    return this.subscriptionHealth.report();
  }

  async ping(): Promise<void> {
    this.assertOpen();
    const admin = this.client.admin();
    await admin.connect();
    try {
      await admin.describeCluster();
    } finally {
      await admin.disconnect();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.members].map((member) => this.stopMember(member)));
    await this.producer.disconnect();
  }

  private async startConsumer(member: Member): Promise<void> {
    const consumer = this.client.consumer({ groupId: member.group, allowAutoTopicCreation: false });
    member.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      if (member.consumer !== consumer) return;
      member.crashes = 0;
      this.subscriptionHealth.recover(member);
    });
    consumer.on(consumer.events.CRASH, (event) => this.onCrash(member, consumer, event.payload.error, event.payload.restart));
    await consumer.connect();
    await consumer.subscribe({ topics: member.topics, fromBeginning: true });
    await consumer.run({
      autoCommit: true,
      // The group's partitions of all its topics can be in one fetch; handle as many at once as one topic had before.
      partitionsConsumedConcurrently: (this.options.partitions ?? 3) * member.topics.length,
      eachMessage: (payload) => this.eachMessage(member, payload),
    });
  }

  private async eachMessage(member: Member, { topic, message, heartbeat }: EachMessagePayload): Promise<void> {
    const outcome = await deliverWithRetry({
      message: { topic, key: message.key?.toString('utf8') ?? '', value: message.value?.toString('utf8') ?? '', headers: headersToStrings(message.headers) },
      group: member.group,
      handler: member.handler,
      policy: member.policy,
      publishDeadLetter: (deadLetter) => this.publish([deadLetter]),
      signal: member.abort.signal,
      logger: this.logger,
      heartbeat,
    });
    if (outcome === 'aborted') throw new DeliveryInterrupted();
  }

  /**
   * kafkajs emits CRASH before it restarts a consumer itself (retriable errors) and when it gives
   * up (any other error: the consumer is then disconnected for good). Either way the subscription
   * consumes nothing until its consumer joins the group again; in the second case the bus starts a
   * new consumer after a backoff.
   */
  private onCrash(member: Member, consumer: KafkaConsumer, error: Error, kafkajsRestarts: boolean): void {
    if (member.stopped || member.consumer !== consumer) return;
    // A crash kafkajs restarts from itself (a retriable error: a broker moving, a rebalance, a short
    // outage) does not make the subscription failing: it rejoins on its own. Only a consumer kafkajs gave
    // up on counts, until the bus's own restart joined the group again.
    if (kafkajsRestarts) {
      this.logger.warn({ group: member.group, topics: member.topics, error: describeError(error) }, 'kafka consumer crashed; kafkajs restarts it');
      return;
    }
    this.subscriptionHealth.fail(member, member, describeError(error));
    member.crashes++;
    const delay = (this.options.restartDelayMs ?? defaultRestartDelayMs)(member.crashes);
    this.logger.error({ group: member.group, topics: member.topics, error: describeError(error), restart_in_ms: delay }, 'kafka consumer crashed and kafkajs will not restart it; the bus restarts it');
    member.restartTimer = setTimeout(() => void this.restart(member), delay);
    member.restartTimer.unref();
  }

  private async restart(member: Member): Promise<void> {
    if (member.stopped) return;
    const crashed = member.consumer;
    await crashed?.disconnect().catch(() => undefined);
    try {
      await this.startConsumer(member);
    } catch (error) {
      // connect or subscribe failed: no CRASH event for that, so count it as one.
      if (member.consumer) this.onCrash(member, member.consumer, error instanceof Error ? error : new Error(String(error)), false);
    }
  }

  private async stopMember(member: Member): Promise<void> {
    member.stopped = true;
    clearTimeout(member.restartTimer);
    this.members.delete(member);
    member.abort.abort();
    this.subscriptionHealth.recover(member);
    await member.consumer?.disconnect();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}

/** `kafka://b1:9092,b2:9092?partitions=6` → brokers and the partition count for created topics. */
export function parseKafkaUrl(url: string): { brokers: string[]; partitions?: number } {
  const [hosts = '', query = ''] = url.replace(/^kafka:\/\//, '').split('?');
  const brokers = hosts
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
  if (brokers.length === 0) throw new Error('kafka bus URL names no broker (kafka://host:9092,host2:9092)');
  const raw = new URLSearchParams(query).get('partitions');
  if (raw === null) return { brokers };
  const partitions = Number(raw);
  if (!Number.isInteger(partitions) || partitions < 1) throw new Error(`kafka bus URL: partitions must be a positive integer, got ${raw}`);
  return { brokers, partitions };
}

/**
 * Header values as strings. kafkajs decodes a header sent without a value as null
 * (protocol/decoder.js readVarIntBytes: length -1 → null) and a repeated header as an array;
 * a header without a value is skipped, a repeated one keeps its last value.
 */
export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const values = (Array.isArray(value) ? value : [value]) as Array<Buffer | string | null | undefined>;
    const last = values.filter((entry): entry is Buffer | string => entry !== null && entry !== undefined).pop();
    if (last !== undefined) result[name] = last.toString();
  }
  return result;
}

function forwardLog(logger: Logger, entry: LogEntry): void {
  const { message, ...extra } = entry.log;
  const context = { namespace: entry.namespace, ...extra };
  if (entry.level === logLevel.ERROR) logger.error(context, `kafkajs: ${message}`);
  else if (entry.level === logLevel.WARN) logger.warn(context, `kafkajs: ${message}`);
  else logger.debug(context, `kafkajs: ${message}`);
}
