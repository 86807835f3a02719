import Runner from 'kafkajs/src/consumer/runner';
import { createLogger as createKafkajsLogger } from 'kafkajs/src/loggers';
import { createErrorFromCode } from 'kafkajs/src/protocol/error';
import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  logLevel,
  type ConsumerConfig,
  type ConsumerEvents,
  type ConsumerRunConfig,
  type LogEntry,
  type ProducerBatch,
  type ProducerConfig,
  type KafkaMessage,
} from 'kafkajs';
import type { KafkaAdmin, KafkaClient, KafkaConsumer, KafkaProducer } from '../src';

/**
 * A stand-in for kafkajs's `Kafka` client, shaped after its API (consumer({ groupId }).subscribe/
 * run/on/events, producer.sendBatch, admin.listTopics/createTopics): no broker exists here. It
 * records what the bus asks of kafkajs; `deliver` hands a batch to the captured eachMessage through
 * kafkajs's own Runner (runner.js), so offsets, heartbeats and error logging are kafkajs's.
 */
/** kafkajs's protocol error code 45, as kafkajs builds it (protocol/error.js). */
const OUT_OF_ORDER_SEQUENCE_NUMBER = 45;

/** What kafkajs throws while no broker answers (network/connection.js). */
const refused = () => new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092', { broker: '127.0.0.1:9092', code: 'ECONNREFUSED' });

export class FakeKafka implements KafkaClient {
  /** No broker answers: every connect and admin request fails as kafkajs fails them. */
  down = false;
  /**
   * The send (counted over every producer, from 1) after which the producer breaks as in kafkajs issue #598:
   * that send writes the first half of its messages, then it and every later send of the same producer fail
   * with OUT_OF_ORDER_SEQUENCE_NUMBER (wrapped by kafkajs's retrier in a KafkaJSNonRetriableError).
   */
  breakProducerAtSend: number | undefined;
  /** Producers created, in order, and how many sends each took. */
  readonly producers: Array<{ sends: number; broken: boolean; connected: boolean }> = [];
  /** Admin requests made, by name. */
  readonly adminCalls: string[] = [];
  /** When set, admin.fetchTopicOffsets waits for it (a broker that does not answer). */
  stallAdmin: Promise<void> | undefined;
  private sends = 0;
  /** Topics that exist on the "broker". */
  readonly topics = new Set<string>();
  readonly consumers: FakeConsumer[] = [];
  readonly sent: Array<{ topic: string; messages: unknown[] }> = [];
  readonly created: string[] = [];
  producerConfig: ProducerConfig | undefined;
  /** admin.fetchTopicOffsets answers, per topic. */
  readonly topicOffsets = new Map<string, Array<{ partition: number; offset: string; high: string; low: string }>>();
  /** admin.fetchOffsets answers, per group. */
  readonly groupOffsets = new Map<string, Array<{ topic: string; partitions: Array<{ partition: number; offset: string; metadata: string | null }> }>>();

  producer(config: ProducerConfig): KafkaProducer {
    this.producerConfig = config;
    const state = { sends: 0, broken: false, connected: false };
    this.producers.push(state);
    const outOfOrder = () => {
      const error = createErrorFromCode(OUT_OF_ORDER_SEQUENCE_NUMBER);
      // retry/index.js: `new KafkaJSNonRetriableError(e, { cause: e.cause || e })` (the types omit the second argument).
      return Object.assign(new KafkaJSNonRetriableError(error), { cause: error });
    };
    return {
      connect: async () => {
        if (this.down) throw refused();
        state.connected = true;
      },
      disconnect: async () => void (state.connected = false),
      sendBatch: async (batch: ProducerBatch) => {
        if (!state.connected) throw new Error('The producer is disconnected');
        if (this.down) throw refused();
        if (state.broken) throw outOfOrder();
        this.sends++;
        state.sends++;
        const breaking = this.sends === this.breakProducerAtSend;
        for (const { topic, messages } of batch.topicMessages ?? []) {
          // What the broker answers when auto-creation is off and the topic does not exist.
          if (!this.topics.has(topic)) throw Object.assign(new Error('This server does not host this topic-partition'), { type: 'UNKNOWN_TOPIC_OR_PARTITION' });
          this.sent.push({ topic, messages: breaking ? messages.slice(0, Math.ceil(messages.length / 2)) : messages });
        }
        if (breaking) {
          state.broken = true;
          throw outOfOrder();
        }
        return [];
      },
    };
  }

  /** Whether a consumer's run() joins its group at once (kafkajs's run resolves after the join and emits GROUP_JOIN). */
  joinOnRun = true;

  consumer(config: ConsumerConfig): KafkaConsumer {
    const consumer = new FakeConsumer(config.groupId, () => this.joinOnRun);
    consumer.isDown = () => this.down;
    this.consumers.push(consumer);
    return consumer as unknown as KafkaConsumer;
  }

  admin(): KafkaAdmin {
    const answer = async (call: string) => {
      this.adminCalls.push(call);
      if (this.down) throw refused();
    };
    return {
      connect: async () => answer('connect'),
      disconnect: async () => undefined,
      listTopics: async () => {
        await answer('listTopics');
        return [...this.topics];
      },
      createTopics: async ({ topics }) => {
        await answer('createTopics');
        for (const { topic } of topics) {
          this.topics.add(topic);
          this.created.push(topic);
        }
        return true;
      },
      describeCluster: async () => {
        await answer('describeCluster');
        return { brokers: [{ nodeId: 1, host: 'fake', port: 9092 }], controller: 1, clusterId: 'fake' };
      },
      fetchTopicOffsets: async (topic: string) => {
        await answer('fetchTopicOffsets');
        await this.stallAdmin;
        return this.topicOffsets.get(topic) ?? [];
      },
      fetchOffsets: (async ({ groupId }: { groupId: string }) => {
        await answer('fetchOffsets');
        return this.groupOffsets.get(groupId) ?? [];
      }) as KafkaAdmin['fetchOffsets'],
    };
  }

  consumersOf(groupId: string): FakeConsumer[] {
    return this.consumers.filter((consumer) => consumer.groupId === groupId);
  }
}

const CONSUMER_EVENTS: ConsumerEvents = {
  HEARTBEAT: 'consumer.heartbeat',
  COMMIT_OFFSETS: 'consumer.commit_offsets',
  GROUP_JOIN: 'consumer.group_join',
  FETCH_START: 'consumer.fetch_start',
  FETCH: 'consumer.fetch',
  START_BATCH_PROCESS: 'consumer.start_batch_process',
  END_BATCH_PROCESS: 'consumer.end_batch_process',
  CONNECT: 'consumer.connect',
  DISCONNECT: 'consumer.disconnect',
  STOP: 'consumer.stop',
  CRASH: 'consumer.crash',
  REBALANCING: 'consumer.rebalancing',
  RECEIVED_UNSUBSCRIBED_TOPICS: 'consumer.received_unsubscribed_topics',
  REQUEST: 'consumer.network.request',
  REQUEST_TIMEOUT: 'consumer.network.request_timeout',
  REQUEST_QUEUE_SIZE: 'consumer.network.request_queue_size',
};

/** What kafkajs's consumer group did while a batch went through its runner. */
export interface GroupTrace {
  /** In order: `heartbeat`, `resolve <offset>`. */
  steps: string[];
  /** kafkajs's own log lines (level, message). */
  logs: Array<{ level: number; message: string }>;
}

export class FakeConsumer {
  readonly events = CONSUMER_EVENTS;
  readonly subscribed: string[] = [];
  runConfig: ConsumerRunConfig | undefined;
  disconnected = 0;
  private readonly listeners = new Map<string, Array<(event: unknown) => void>>();

  constructor(
    readonly groupId: string,
    private readonly joinOnRun: () => boolean = () => true,
  ) {}

  /** Set by FakeKafka: connect fails while no broker answers. */
  isDown: () => boolean = () => false;

  async connect(): Promise<void> {
    if (this.isDown()) throw refused();
  }

  async subscribe({ topics }: { topics: Array<string | RegExp> }): Promise<void> {
    this.subscribed.push(...topics.map(String));
  }

  async run(config: ConsumerRunConfig): Promise<void> {
    this.runConfig = config;
    if (this.joinOnRun()) this.emit(this.events.GROUP_JOIN, { groupId: this.groupId });
  }

  async disconnect(): Promise<void> {
    this.disconnected++;
    this.emit(this.events.DISCONNECT, {});
  }

  on(eventName: string, listener: (event: unknown) => void): () => void {
    this.listeners.set(eventName, [...(this.listeners.get(eventName) ?? []), listener]);
    return () => undefined;
  }

  /** Emits an instrumentation event the way kafkajs does ({ id, type, timestamp, payload }). */
  emit(eventName: string, payload: unknown): void {
    for (const listener of this.listeners.get(eventName) ?? []) listener({ id: 1, type: eventName, timestamp: Date.now(), payload });
  }

  /** Hands one batch to eachMessage through kafkajs's Runner.processEachMessage; resolves or rejects as it does. */
  async deliver(topic: string, partition: number, messages: KafkaMessage[], trace: GroupTrace = { steps: [], logs: [] }): Promise<GroupTrace> {
    const eachMessage = this.runConfig?.eachMessage;
    if (!eachMessage) throw new Error('consumer.run was not called with eachMessage');
    const logger = createKafkajsLogger({
      level: logLevel.INFO,
      logCreator: () => (entry: LogEntry) => void trace.logs.push({ level: entry.level, message: entry.log.message }),
    });
    const consumerGroup = {
      groupId: this.groupId,
      memberId: 'member-1',
      hasSeekOffset: () => false,
      isPaused: () => false,
      pause: () => undefined,
      resume: () => undefined,
      resolveOffset: ({ offset }: { offset: string }) => void trace.steps.push(`resolve ${offset}`),
      heartbeat: async () => void trace.steps.push('heartbeat'),
      commitOffsets: async () => undefined,
      commitOffsetsIfNecessary: async () => undefined,
    };
    const runner = new Runner({
      logger,
      consumerGroup,
      instrumentationEmitter: { emit: () => undefined },
      eachMessage,
      heartbeatInterval: 3_000,
      onCrash: () => undefined,
      concurrency: 1,
    });
    runner.running = true;
    await runner.processEachMessage({ topic, partition, messages });
    return trace;
  }
}
