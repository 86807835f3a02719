import {
  Kafka,
  KafkaJSError,
  Partitioners,
  logLevel,
  type Admin,
  type AdminConfig,
  type Consumer,
  type ConsumerConfig,
  type EachMessagePayload,
  type IHeaders,
  type LogEntry,
  type Producer,
  type ProducerConfig,
  type SASLOptions,
} from 'kafkajs';
import { sleep } from '@vaultline/core';
import type { Logger } from '@vaultline/logger';
import { deadLetterTopic, type Bus, type BusHealth, type BusMessage, type ConsumerLag, type SubscribeOptions, type Subscription } from '../bus.port';
import { deliverWithRetry, retryPolicyOf, type RetryPolicy } from '../retry/deliver-with-retry';
import { silentLogger } from '../silent-logger';
import { GroupTopics, SubscriptionHealth, topicsOf } from '../subscriptions';
import { validateMessages } from '../validate-messages';
import { BrokerReachability } from './broker-reachability';
import { describeKafkaError, fatalProducerError, isBrokerUnreachable, isRetriableAnswer, withTimeout } from './kafka-errors';
import { LagCache, lagOf, type TopicOffsets } from './kafka-lag';
import { fitToCluster, isDeadLetterTopic, topicSpecOf } from './topic-plan';

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
  admin(config?: AdminConfig): KafkaAdmin;
}

/** How a platform team runs its cluster (KAFKA_TOPIC_PREFIX, KAFKA_GROUP_PREFIX, KAFKA_CLIENT_ID, KAFKA_CREATE_TOPICS). */
export interface KafkaNaming {
  /** Put before every topic name (and, unless groupPrefix says otherwise, every consumer group): environments sharing a cluster. */
  topicPrefix?: string;
  /** Put before every consumer group id (default: topicPrefix). Changing it renames the groups (see README, "Renamed groups"). */
  groupPrefix?: string;
  /** kafkajs's clientId: the broker's logs, quotas and request metrics name the client by it (the service's name). */
  clientId?: string;
  /**
   * true (default, development): the bus creates the topics it is missing, shaped as deploy/kafka/topics.yaml
   * (fitted to the cluster's size). false: it creates nothing; a missing topic stops the start (when the
   * brokers answer then) or fails its publishes and consumers, naming it.
   */
  createTopics?: boolean;
}

export interface KafkaBusOptions extends KafkaNaming {
  /** Broker addresses, host:port. */
  brokers: string[];
  /** Partitions of event topics the bus creates (default: the topic plan's, 6). */
  partitions?: number;
  replicationFactor?: number;
  logger?: Logger;
  /** The kafkajs client; built from `brokers` when absent. */
  client?: KafkaClient;
  /** Delay before restarting a consumer that crashed for good (default 1 s doubling, at most 10 s). */
  restartDelayMs?: (crashes: number) => number;
  security?: KafkaSecurity;
  /** How often the consumer lag is measured at most (default 15 s, Prometheus's scrape interval). */
  lagIntervalMs?: number;
  /** How long one admin request (lag, ping, topic lookup) may take (default 5 s). */
  adminTimeoutMs?: number;
  /** How often the brokers are asked while they do not answer (default 2 s). */
  probeEveryMs?: number;
}

/** A topic the bus may not create (KAFKA_CREATE_TOPICS=false) is missing on the brokers. */
export class MissingTopicsError extends Error {
  override readonly name = 'MissingTopicsError';
  constructor(readonly topics: string[]) {
    super(
      `Kafka topics missing: ${topics.join(', ')} (KAFKA_CREATE_TOPICS=false: create them as deploy/kafka/topics.yaml says, or let the services create them)`,
    );
  }
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

const defaultRestartDelayMs = (crashes: number): number => Math.min(1_000 * 2 ** (crashes - 1), 10_000);

/**
 * The producer's retries. kafkajs retries an idempotent producer's send for ever by default; bounded (about
 * 10 s), a send during an outage fails, the outbox relay keeps the events and tries again, and the failure
 * reaches health() and /ready. What a bounded retry costs (kafkajs's warning "may invalidate EoS guarantees"):
 * a batch the broker wrote whose answer was lost is sent again by the relay with other messages, and the broker
 * answers OUT_OF_ORDER_SEQUENCE_NUMBER; the bus then replaces the producer (publish below).
 */
const PRODUCER_RETRY = { retries: 5, initialRetryTime: 300, maxRetryTime: 5_000 };

/**
 * Connections, consumers and their restarts: kafkajs's retries, with the wait between two at most 5 s instead
 * of 30 s. A consumer that crashed while the brokers were away is restarted after the last wait
 * (consumer/index.js onCrash: e.retryTime), so it is back within seconds once they answer.
 */
const CLIENT_RETRY = { retries: 5, initialRetryTime: 300, maxRetryTime: 5_000 };

/** One subscription: a kafkajs consumer of `group` over all of its topics (replaced after a crash kafkajs does not recover from). */
interface Member {
  /** The group as the service names it; on the brokers: groupPrefix + group. */
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
 * - Names: topics and groups carry the environment's prefixes on the brokers (KafkaNaming); handlers,
 *   health, lag and metrics see the names the services use.
 * - Starts without the brokers: nothing is connected when the bus is built. The producer connects on the
 *   first publish; a consumer starts in the background and is started again until it joins its group; a
 *   probe asks the brokers every 2 s while they do not answer. health().unreachable says since when and why
 *   (/ready), and the outbox relay keeps the events until a publish goes through.
 * - Producer: acks -1, idempotent (experimental in kafkajs, hence maxInFlightRequests 1), the
 *   Java-compatible partitioner named explicitly (murmur2 of BusMessage.key, so a key stays in one
 *   partition, as with Java clients). One publish at a time, so a producer is replaced with nothing in
 *   flight: after an answer that leaves an idempotent producer unusable for good (OUT_OF_ORDER_SEQUENCE_NUMBER
 *   and its family, kafkajs issue #598) the failed publish is rejected and the next one gets a new producer.
 *   Per-key order holds across the replacement: the relay sends again from the oldest event it has not
 *   removed, so the first copy of every event of a key is written in commit order (a copy written before the
 *   failure is written again after it: consumers drop it by event id).
 * - Topics are created by the bus (ensureTopics, and before the first publish to a topic) when createTopics
 *   is on, shaped as the topic plan says (topic-plan.ts), never by the broker's auto-creation.
 * - One kafkajs consumer per subscription, subscribed to all of the group's topics (fromBeginning):
 *   kafkajs's group leader assigns only the topics it subscribed itself (consumerGroup.js:
 *   `assigner.assign({ members, topics: topicsSubscribed })`).
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
 * - Lag: measured in the background at most once per lagIntervalMs, each admin request bounded by
 *   adminTimeoutMs; consumerLag answers the last measurement at once (a scrape never waits on a broker).
 */
export class KafkaBus implements Bus {
  private readonly members = new Set<Member>();
  private readonly groupTopics = new GroupTopics();
  private readonly subscriptionHealth = new SubscriptionHealth();
  /** Topics (as named on the brokers) known to exist, so publish asks the brokers only about new ones. */
  private readonly knownTopics = new Set<string>();
  private readonly reachability: BrokerReachability;
  private readonly topicPrefix: string;
  private readonly groupPrefix: string;
  private readonly adminTimeoutMs: number;
  private producer: KafkaProducer | undefined;
  private producerConnected: Promise<void> | undefined;
  /** Producers replaced after a fatal answer since the bus was opened. */
  private replacedProducers = 0;
  /** Publishes run one at a time (see the class comment). */
  private publishing: Promise<unknown> = Promise.resolve();
  private admin: { client: KafkaAdmin; connected: Promise<void> } | undefined;
  private readonly lag: LagCache;
  private closed = false;

  private constructor(
    private readonly client: KafkaClient,
    private readonly options: KafkaBusOptions,
    private readonly logger: Logger,
  ) {
    this.topicPrefix = options.topicPrefix ?? '';
    this.groupPrefix = options.groupPrefix ?? this.topicPrefix;
    this.adminTimeoutMs = options.adminTimeoutMs ?? 5_000;
    this.reachability = new BrokerReachability(() => this.ping(), logger, options.probeEveryMs);
    this.lag = new LagCache((groups) => this.measureLag(groups), options.lagIntervalMs ?? 15_000, logger);
  }

  /** Builds the bus; connects nothing (the brokers may be down: see the class comment). */
  static async connect(options: KafkaBusOptions): Promise<KafkaBus> {
    const logger = options.logger ?? silentLogger();
    const kafka = (retry: { retries: number; initialRetryTime: number; maxRetryTime: number }) =>
      new Kafka({
        clientId: options.clientId ?? 'vaultline',
        brokers: options.brokers,
        ...kafkajsSecurity(options.security),
        retry,
        logLevel: logLevel.WARN,
        logCreator: () => (entry) => forwardLog(logger, entry),
      });
    let client = options.client;
    if (!client) {
      const clients = kafka(CLIENT_RETRY);
      // Probes, lag and topic lookups fail fast when no broker answers (a connect is retried once); the
      // caller asks again on its own schedule.
      const admins = kafka({ retries: 1, initialRetryTime: 100, maxRetryTime: 1_000 });
      client = { producer: (config) => clients.producer(config), consumer: (config) => clients.consumer(config), admin: (config) => admins.admin(config) };
    }
    return new KafkaBus(client, options, logger);
  }

  /** Producers replaced after an answer that left them unusable (kafkajs issue #598), since the bus was opened. */
  get producersReplaced(): number {
    return this.replacedProducers;
  }

  /**
   * Creates missing topics and their dead-letter topics (createTopics), or checks they exist. While no
   * broker answers it only logs: the consumers and publishes that need the topics check them again.
   */
  async ensureTopics(topics: string[]): Promise<void> {
    this.assertOpen();
    try {
      await this.ensureTopicsNow(topics);
    } catch (error) {
      if (!isBrokerUnreachable(error)) throw error;
      this.reachability.unreachable(error);
      this.logger.warn({ topics, error: describeKafkaError(error) }, 'kafka does not answer: topics are checked when it does');
    }
  }

  /** Creates a topic it has not seen before sending to it: broker auto-creation is off, and nothing else would. */
  async publish(messages: BusMessage[]): Promise<void> {
    this.assertOpen();
    validateMessages(messages);
    if (messages.length === 0) return;
    const byTopic = new Map<string, BusMessage[]>();
    for (const message of messages) byTopic.set(message.topic, [...(byTopic.get(message.topic) ?? []), message]);
    const unknown = [...byTopic.keys()].filter((topic) => !this.knownTopics.has(this.topicName(topic)));
    const turn = this.publishing.then(async () => {
      try {
        if (unknown.length > 0) await this.ensureTopicsNow(unknown);
        const producer = await this.connectedProducer();
        await producer.sendBatch({
          acks: -1,
          topicMessages: [...byTopic].map(([topic, list]) => ({
            topic: this.topicName(topic),
            messages: list.map((message) => ({ key: message.key, value: message.value, headers: { ...message.headers } })),
          })),
        });
        this.reachability.answered();
      } catch (error) {
        await this.afterFailedSend(error);
        throw error;
      }
    });
    this.publishing = turn.catch(() => undefined);
    return turn;
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
    const started = this.startConsumer(member);
    // While the brokers answer, subscribe returns once the consumer joined its group (or its first start
    // failed: it is started again in the background). While they do not, at once: the service starts anyway.
    if (await this.brokersAnswer()) await started;
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
   * The last measured lag of these groups (committed offsets against the topics' end offsets, lagOf). A
   * measurement starts when the last one is older than lagIntervalMs; this call never waits for it.
   */
  async consumerLag(groups: Array<{ group: string; topics: string[] }>): Promise<ConsumerLag[]> {
    if (groups.length === 0) return [];
    this.assertOpen();
    return this.lag.read(groups);
  }

  /** The last lag measurement settled (tests). */
  lagMeasured(): Promise<void> {
    return this.lag.settled();
  }

  health(): BusHealth {
    const unreachable = this.reachability.report();
    return { ...this.subscriptionHealth.report(), ...(unreachable ? { unreachable } : {}) };
  }

  /** One metadata request on the bus's admin connection, bounded by adminTimeoutMs. */
  async ping(): Promise<void> {
    this.assertOpen();
    await this.withAdmin('ping', this.adminTimeoutMs, (admin) => admin.describeCluster());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.reachability.close();
    await Promise.all([...this.members].map((member) => this.stopMember(member)));
    await this.publishing;
    await this.producer?.disconnect().catch(() => undefined);
    await this.admin?.client.disconnect().catch(() => undefined);
  }

  private topicName(topic: string): string {
    return `${this.topicPrefix}${topic}`;
  }

  private groupName(group: string): string {
    return `${this.groupPrefix}${group}`;
  }

  /** Whether to wait for brokers now: answering, or not asked yet and answering at the first probe. */
  private async brokersAnswer(): Promise<boolean> {
    const unreachable = this.reachability.report();
    if (!unreachable) return true;
    return unreachable.starting ? this.reachability.firstProbe() : false;
  }

  private async ensureTopicsNow(topics: string[]): Promise<void> {
    const wanted = [...new Set(topics.flatMap((topic) => (isDeadLetterTopic(topic) ? [topic] : [topic, deadLetterTopic(topic)])))];
    if (wanted.every((topic) => this.knownTopics.has(this.topicName(topic)))) return;
    // Several services create the same topics at their start: the broker may answer one of them that a topic
    // it just created has no partition yet (UNKNOWN_TOPIC_OR_PARTITION while waiting for leaders, retriable).
    for (let attempt = 1; ; attempt++) {
      try {
        await this.createMissingTopics(wanted);
        return;
      } catch (error) {
        if (attempt >= 5 || !isRetriableAnswer(error)) throw error;
        await sleep(200 * attempt);
      }
    }
  }

  private async createMissingTopics(wanted: string[]): Promise<void> {
    // Creating waits for the partitions' leaders: longer than a lookup on a loaded broker.
    await this.withAdmin('ensure topics', Math.max(this.adminTimeoutMs, 30_000), async (admin) => {
      const existing = new Set(await admin.listTopics());
      const missing = wanted.filter((topic) => !existing.has(this.topicName(topic)));
      if (missing.length > 0) {
        if (this.options.createTopics === false) throw new MissingTopicsError(missing.map((topic) => this.topicName(topic)));
        const { brokers } = await admin.describeCluster();
        // Another process creating the same topic meanwhile is fine: kafkajs answers false when all already exist.
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => {
            const spec = fitToCluster(
              topicSpecOf(topic),
              this.options.replicationFactor ?? brokers.length,
              isDeadLetterTopic(topic) ? undefined : this.options.partitions,
            );
            return {
              topic: this.topicName(topic),
              numPartitions: spec.partitions,
              replicationFactor: spec.replicationFactor,
              configEntries: Object.entries(spec.config).map(([name, value]) => ({ name, value })),
            };
          }),
        });
        this.logger.info({ topics: missing.map((topic) => this.topicName(topic)) }, 'kafka topics created (KAFKA_CREATE_TOPICS)');
      }
      for (const topic of wanted) this.knownTopics.add(this.topicName(topic));
    });
  }

  private async connectedProducer(): Promise<KafkaProducer> {
    if (!this.producer) {
      const producer = this.client.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        // Named, rather than left to the default, which is the same partitioner but logs a warning once per process.
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: PRODUCER_RETRY,
      });
      this.producer = producer;
      this.producerConnected = producer.connect();
    }
    const producer = this.producer;
    try {
      await this.producerConnected;
    } catch (error) {
      // Connected again by the next publish.
      if (this.producer === producer) this.producer = undefined;
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
    return producer;
  }

  /** After a failed send (inside the publishing turn, nothing else in flight). */
  private async afterFailedSend(error: unknown): Promise<void> {
    const fatal = fatalProducerError(error);
    if (fatal && this.producer) {
      const broken = this.producer;
      this.producer = undefined;
      this.replacedProducers++;
      this.logger.warn(
        { error: describeKafkaError(error), replaced_total: this.replacedProducers },
        `kafka producer replaced after ${fatal}: the outbox sends the batch again with a new one`,
      );
      await broken.disconnect().catch(() => undefined);
      return;
    }
    if (isBrokerUnreachable(error)) this.reachability.unreachable(error);
  }

  /** Runs `work` on the bus's one admin connection (opened on first use, dropped after a failure), within `ms`. */
  private async withAdmin<T>(what: string, ms: number, work: (admin: KafkaAdmin) => Promise<T>): Promise<T> {
    let admin = this.admin;
    if (!admin) {
      const client = this.client.admin();
      admin = { client, connected: client.connect() };
      this.admin = admin;
    }
    const opened = admin;
    try {
      return await withTimeout(what, ms, async () => {
        await opened.connected;
        return work(opened.client);
      });
    } catch (error) {
      if (!(error instanceof MissingTopicsError) && this.admin === opened) {
        this.admin = undefined;
        void opened.client.disconnect().catch(() => undefined);
      }
      throw error;
    }
  }

  private async measureLag(groups: Array<{ group: string; topics: string[] }>): Promise<ConsumerLag[]> {
    return this.withAdmin('consumer lag', this.adminTimeoutMs, async (admin) => {
      const ends: Record<string, TopicOffsets> = {};
      for (const topic of new Set(groups.flatMap((group) => group.topics))) ends[this.topicName(topic)] = await admin.fetchTopicOffsets(this.topicName(topic));
      const lags: ConsumerLag[] = [];
      for (const { group, topics } of groups) {
        const committed = await admin.fetchOffsets({ groupId: this.groupName(group), topics: topics.map((topic) => this.topicName(topic)) });
        for (const entry of lagOf(group, committed, ends)) lags.push({ ...entry, topic: entry.topic.slice(this.topicPrefix.length) });
      }
      return lags;
    });
  }

  /**
   * Starts the member's consumer: its topics (created or checked), then connect, subscribe, run. Resolves once
   * it joined its group or its start failed (then it is started again after a backoff, see onCrash).
   */
  private async startConsumer(member: Member): Promise<void> {
    let consumer: KafkaConsumer | undefined;
    try {
      await this.ensureTopicsNow(member.topics);
      if (member.stopped) return;
      consumer = this.client.consumer({
        groupId: this.groupName(member.group),
        allowAutoTopicCreation: false,
        // A fetch waits at most this long for messages: what a stop (and a rebalance, which a member joins
        // between fetches) waits for an idle consumer; kafkajs's 5 s made every drain 5 s longer.
        maxWaitTimeInMs: 1_000,
        // A member that stopped heartbeating (a replica killed, a consumer restarted after an outage under a
        // new member id) holds its partitions this long before the group rebalances without it: kafkajs's
        // 30 s was the whole delay between a broker's return and consumption. Heartbeats every 3 s, also
        // while a message is retried (deliverWithRetry).
        sessionTimeout: 10_000,
      });
      member.consumer = consumer;
      const joined = new Promise<void>((resolve) => {
        consumer!.on(consumer!.events.GROUP_JOIN, () => {
          resolve();
          if (member.consumer !== consumer) return;
          member.crashes = 0;
          this.subscriptionHealth.recover(member);
          this.reachability.answered();
        });
        consumer!.on(consumer!.events.CRASH, (event) => {
          resolve();
          this.onCrash(member, consumer, event.payload.error, event.payload.restart);
        });
        // Stopped before it joined (the subscription or the bus closing).
        consumer!.on(consumer!.events.DISCONNECT, () => resolve());
      });
      await consumer.connect();
      await consumer.subscribe({ topics: member.topics.map((topic) => this.topicName(topic)), fromBeginning: true });
      await consumer.run({
        autoCommit: true,
        // The group's partitions of all its topics can be in one fetch; handle as many at once as one topic has.
        partitionsConsumedConcurrently: (this.options.partitions ?? topicSpecOf(member.topics[0] ?? '').partitions) * member.topics.length,
        eachMessage: (payload) => this.eachMessage(member, payload),
      });
      await joined;
    } catch (error) {
      // connect, subscribe or the topics failed: no CRASH event for that, so count it as one.
      this.onCrash(member, consumer, error instanceof Error ? error : new Error(String(error)), false);
    }
  }

  private async eachMessage(member: Member, { topic, message, heartbeat }: EachMessagePayload): Promise<void> {
    const outcome = await deliverWithRetry({
      message: {
        topic: topic.slice(this.topicPrefix.length),
        key: message.key?.toString('utf8') ?? '',
        value: message.value?.toString('utf8') ?? '',
        headers: headersToStrings(message.headers),
      },
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
  private onCrash(member: Member, consumer: KafkaConsumer | undefined, error: Error, kafkajsRestarts: boolean): void {
    if (member.stopped || member.consumer !== consumer) return;
    if (isBrokerUnreachable(error)) this.reachability.unreachable(error);
    // A crash kafkajs restarts from itself (a retriable error: a broker moving, a rebalance, a short
    // outage) does not make the subscription failing: it rejoins on its own. Only a consumer kafkajs gave
    // up on counts, until the bus's own restart joined the group again.
    if (kafkajsRestarts) {
      this.logger.warn({ group: member.group, topics: member.topics, error: describeKafkaError(error) }, 'kafka consumer crashed; kafkajs restarts it');
      return;
    }
    this.subscriptionHealth.fail(member, member, describeKafkaError(error));
    member.crashes++;
    const delay = (this.options.restartDelayMs ?? defaultRestartDelayMs)(member.crashes);
    // While no broker answers that is expected (and said once by "kafka unreachable"); otherwise it is news.
    const level = isBrokerUnreachable(error) ? 'warn' : 'error';
    this.logger[level](
      { group: member.group, topics: member.topics, error: describeKafkaError(error), restart_in_ms: delay },
      'kafka consumer stopped and kafkajs will not restart it; the bus starts it again',
    );
    clearTimeout(member.restartTimer);
    member.restartTimer = setTimeout(() => void this.restart(member), delay);
    member.restartTimer.unref();
  }

  private async restart(member: Member): Promise<void> {
    if (member.stopped) return;
    const crashed = member.consumer;
    member.consumer = undefined;
    await crashed?.disconnect().catch(() => undefined);
    if (!member.stopped) await this.startConsumer(member);
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

/**
 * kafkajs lines the bus says better itself, kept at debug: the warning about bounded retries of an idempotent
 * producer (PRODUCER_RETRY says why, and what the bus does about it), and the ERROR lines of every connection
 * attempt while no broker answers (several a second during an outage; the bus logs "kafka unreachable" once
 * and "kafka answers again", and each consumer's crash at warn).
 */
const SAID_BY_THE_BUS = [
  /^Limiting retries for the idempotent producer may invalidate EoS guarantees$/,
  /Connection error|Connection timeout|ECONNREFUSED|Restarting the consumer in/,
];

function forwardLog(logger: Logger, entry: LogEntry): void {
  const { message, ...extra } = entry.log;
  const context = { namespace: entry.namespace, ...extra };
  if (SAID_BY_THE_BUS.some((pattern) => pattern.test(message))) logger.debug(context, `kafkajs: ${message}`);
  else if (entry.level === logLevel.ERROR) logger.error(context, `kafkajs: ${message}`);
  else if (entry.level === logLevel.WARN) logger.warn(context, `kafkajs: ${message}`);
  else logger.debug(context, `kafkajs: ${message}`);
}
