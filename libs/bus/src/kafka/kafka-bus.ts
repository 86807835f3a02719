import { Kafka, logLevel, type Admin, type Consumer, type IHeaders, type LogEntry, type Producer } from 'kafkajs';
import type { Logger } from '@vaultline/logger';
import { deadLetterTopic, type Bus, type BusMessage, type SubscribeOptions, type Subscription } from '../bus.port';
import { deliverWithRetry, retryPolicyOf } from '../retry/deliver-with-retry';
import { silentLogger } from '../silent-logger';
import { validateMessages } from '../validate-messages';

export interface KafkaBusOptions {
  /** Broker addresses, host:port. */
  brokers: string[];
  clientId?: string;
  /** Partitions of topics created by ensureTopics (default 3). */
  partitions?: number;
  replicationFactor?: number;
  logger?: Logger;
}

/** Thrown out of eachMessage so kafkajs does not resolve (commit) the offset of an interrupted delivery. */
class DeliveryInterrupted extends Error {
  constructor() {
    super('subscription stopping; offset left uncommitted');
  }
}

/**
 * The production bus, thin over kafkajs 2.2.4. Producer: acks -1, idempotent (experimental in
 * kafkajs, hence maxInFlightRequests 1), message key = BusMessage.key so a key stays in one
 * partition. One kafkajs consumer per subscription (groupId = group, fromBeginning); kafkajs
 * commits an offset only after eachMessage resolved, and eachMessage resolves only after the
 * handler did or the message was dead-lettered.
 */
export class KafkaBus implements Bus {
  private readonly consumers = new Set<{ consumer: Consumer; abort: AbortController }>();
  private readonly logger: Logger;
  private closed = false;

  private constructor(
    private readonly kafka: Kafka,
    private readonly producer: Producer,
    private readonly options: KafkaBusOptions,
    logger: Logger,
  ) {
    this.logger = logger;
  }

  static async connect(options: KafkaBusOptions): Promise<KafkaBus> {
    const logger = options.logger ?? silentLogger();
    const kafka = new Kafka({
      clientId: options.clientId ?? 'vaultline',
      brokers: options.brokers,
      logLevel: logLevel.WARN,
      logCreator: () => (entry: LogEntry) => forwardLog(logger, entry),
    });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    await producer.connect();
    return new KafkaBus(kafka, producer, options, logger);
  }

  /** Creates missing topics and their dead-letter topics. */
  async ensureTopics(topics: string[]): Promise<void> {
    this.assertOpen();
    const wanted = [...new Set(topics.flatMap((topic) => [topic, deadLetterTopic(topic)]))];
    const admin: Admin = this.kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const missing = wanted.filter((topic) => !existing.has(topic));
      if (missing.length === 0) return;
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: this.options.partitions ?? 3,
          replicationFactor: this.options.replicationFactor ?? -1,
        })),
      });
    } finally {
      await admin.disconnect();
    }
  }

  async publish(messages: BusMessage[]): Promise<void> {
    this.assertOpen();
    validateMessages(messages);
    if (messages.length === 0) return;
    const byTopic = new Map<string, BusMessage[]>();
    for (const message of messages) byTopic.set(message.topic, [...(byTopic.get(message.topic) ?? []), message]);
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
    const policy = retryPolicyOf(options);
    const abort = new AbortController();
    const consumer = this.kafka.consumer({ groupId: options.group, allowAutoTopicCreation: false });
    await consumer.connect();
    await consumer.subscribe({ topics: [options.topic], fromBeginning: true });
    await consumer.run({
      autoCommit: true,
      // Partitions progress independently; within one partition kafkajs stays sequential.
      partitionsConsumedConcurrently: this.options.partitions ?? 3,
      eachMessage: async ({ topic, message }) => {
        const outcome = await deliverWithRetry({
          message: { topic, key: message.key?.toString('utf8') ?? '', value: message.value?.toString('utf8') ?? '', headers: headersToStrings(message.headers) },
          group: options.group,
          handler: options.handler,
          policy,
          publishDeadLetter: (deadLetter) => this.publish([deadLetter]),
          signal: abort.signal,
          logger: this.logger,
        });
        if (outcome === 'aborted') throw new DeliveryInterrupted();
      },
    });
    const entry = { consumer, abort };
    this.consumers.add(entry);
    let stopped: Promise<void> | undefined;
    return {
      stop: () =>
        (stopped ??= (async () => {
          this.consumers.delete(entry);
          abort.abort();
          await consumer.disconnect();
        })()),
    };
  }

  async ping(): Promise<void> {
    this.assertOpen();
    const admin = this.kafka.admin();
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
    await Promise.all(
      [...this.consumers].map(async ({ consumer, abort }) => {
        abort.abort();
        await consumer.disconnect();
      }),
    );
    this.consumers.clear();
    await this.producer.disconnect();
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

function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const last = Array.isArray(value) ? value[value.length - 1] : value;
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
