import Encoder from 'kafkajs/src/protocol/encoder';
import encodeHeader from 'kafkajs/src/protocol/recordBatch/header/v0';
import decodeRecord from 'kafkajs/src/protocol/recordBatch/record/v0/decoder';
import Decoder from 'kafkajs/src/protocol/decoder';
import {
  AssignerProtocol,
  KafkaJSError,
  logLevel,
  Partitioners,
  PartitionAssigners,
  type Cluster,
  type KafkaMessage,
  type Logger as KafkajsLogger,
} from 'kafkajs';
import { UnavailableError, waitFor } from '@vaultline/core';
import { createLogger } from '@vaultline/logger';
import { MemoryDocumentStore } from '@vaultline/store';
import { assertSubscriptionsConsuming, createEventConsumer, startOutboxRelay, type Delivery, type Subscription } from '../src';
import { KafkaBus, type KafkaBusOptions } from '../src/kafka/kafka-bus';
import { FakeKafka } from './kafka-double';

/**
 * The Kafka adapter against kafkajs's own code where it runs without a broker (the round-robin
 * assigner, the record decoder, the consumer Runner) and a client double for the rest. The real
 * broker runs the bus contract in kafka-bus.test.ts wherever KAFKA_BROKERS is set.
 */
const logger = createLogger({ service: 'bus-test', level: 'silent' });
const PARTITIONS = 3;

type BusOptions = Partial<Omit<KafkaBusOptions, 'brokers' | 'client'>>;

async function openBus(kafka: FakeKafka, options: BusOptions = {}): Promise<KafkaBus> {
  return KafkaBus.connect({ brokers: ['fake:9092'], client: kafka, partitions: PARTITIONS, logger, ...options });
}

/**
 * A record as the broker sends it (a header may have no value: other clients send that, kafkajs's
 * own record encoder cannot), decoded by kafkajs's decoder (protocol/recordBatch/record/v0/decoder.js).
 */
function recordFromBroker(offset: string, value: string, headers: Record<string, string | null>): KafkaMessage {
  const body = new Encoder()
    .writeInt8(0) // attributes
    .writeVarLong(0) // timestamp delta
    .writeVarInt(0) // offset delta
    .writeVarIntBytes('pay_1')
    .writeVarIntBytes(value)
    .writeVarIntArray(Object.entries(headers).map(([key, headerValue]) => encodeHeader({ key, value: headerValue }))).buffer;
  return { ...decodeRecord(new Decoder(body), { firstOffset: offset, firstTimestamp: '0' }) };
}

describe('KafkaBus on kafkajs 2.2.4', () => {
  const subscriptions: Subscription[] = [];
  const buses: KafkaBus[] = [];

  afterEach(async () => {
    await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  async function aBus(kafka = new FakeKafka(), options: BusOptions = {}): Promise<{ bus: KafkaBus; kafka: FakeKafka }> {
    const bus = await openBus(kafka, options);
    buses.push(bus);
    return { bus, kafka };
  }

  it('when two replicas run an event consumer over two topics, then kafkajs’s round-robin assigner gives every partition of both topics to a member that subscribed it, whoever leads', async () => {
    const replicas = [await aBus(), await aBus()];
    for (const { bus } of replicas) {
      subscriptions.push(
        await createEventConsumer({
          bus,
          store: new MemoryDocumentStore(),
          group: 'vault',
          logger,
          handlers: { 'token.created': async () => undefined, 'token.detokenized': async () => undefined },
        }),
      );
    }
    const consumers = replicas.flatMap(({ kafka }) => kafka.consumersOf('vault'));
    const members = consumers.map((consumer, index) => ({
      memberId: `member-${index}`,
      memberMetadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics: consumer.subscribed, userData: Buffer.alloc(0) }),
    }));
    const cluster = { findTopicPartitionMetadata: () => Array.from({ length: PARTITIONS }, (_, partitionId) => ({ partitionId })) } as unknown as Cluster;
    const assigner = PartitionAssigners.roundRobin({ cluster, groupId: 'vault', logger: {} as KafkajsLogger });
    const everyPartition = ['vault.detokenizations', 'vault.tokens'].flatMap((topic) => Array.from({ length: PARTITIONS }, (_, p) => `${topic}/${p}`));

    for (const leader of members) {
      // consumerGroup.js: the leader assigns the topics it subscribed itself; each member drops
      // assigned topics it did not subscribe (topicsNotSubscribed).
      const leaderTopics = AssignerProtocol.MemberMetadata.decode(leader.memberMetadata)?.topics ?? [];
      const assignment = await assigner.assign({ members, topics: leaderTopics });
      const consumed = assignment.flatMap(({ memberId, memberAssignment }) => {
        const subscribed = consumers[Number(memberId.split('-')[1])]?.subscribed ?? [];
        const assigned = AssignerProtocol.MemberAssignment.decode(memberAssignment)?.assignment ?? {};
        return Object.entries(assigned)
          .filter(([topic]) => subscribed.includes(topic))
          .flatMap(([topic, partitions]) => partitions.map((p) => `${topic}/${p}`));
      });

      expect(consumed.sort()).toEqual(everyPartition);
    }
    expect(consumers).toHaveLength(2);
  });

  it('when a message goes to a topic nobody created, then the bus creates it and its dead-letter topic before sending', async () => {
    const { bus, kafka } = await aBus();

    await bus.publish([{ topic: 'vault.detokenizations', key: 'tok_1', value: '{}', headers: {} }]);
    await bus.publish([{ topic: 'vault.detokenizations', key: 'tok_2', value: '{}', headers: {} }]);

    expect(kafka.created).toEqual(['vault.detokenizations', 'vault.detokenizations.dead-letter']);
    expect(kafka.sent.map((batch) => batch.topic)).toEqual(['vault.detokenizations', 'vault.detokenizations']);
  });

  it('when the producer is created (on the first publish), then it names the Java-compatible partitioner (no partitioner warning), leaves topic creation to the bus and bounds its retries', async () => {
    const { bus, kafka } = await aBus();
    expect(kafka.producers).toHaveLength(0);

    await bus.publish([{ topic: 'vault.tokens', key: 'tok_1', value: '{}', headers: {} }]);

    expect(kafka.producerConfig).toMatchObject({
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
      idempotent: true,
      retry: { retries: 5 },
    });
  });

  it('when the producer is answered OUT_OF_ORDER_SEQUENCE_NUMBER (kafkajs #598: it never sends again), then the bus replaces it and the outbox relay sends again, every key’s first copies in commit order', async () => {
    const kafka = new FakeKafka();
    kafka.breakProducerAtSend = 2;
    const { bus } = await aBus(kafka);
    const store = new MemoryDocumentStore();
    const committed: string[] = [];
    // Ten payments, three events each, committed in order; the relay sends them in batches of four.
    for (let event = 0; event < 3; event++) {
      for (let payment = 0; payment < 10; payment++) {
        const value = `pay_${payment}:${event}`;
        committed.push(value);
        await store.transaction(async (uow) => uow.publish({ topic: 'payments.payments', key: `pay_${payment}`, value, headers: {} }));
      }
    }
    const relay = startOutboxRelay({ store, bus, logger, batchSize: 4, pollIntervalMs: 10 });
    try {
      await relay.flush();
    } finally {
      await relay.stop();
    }

    const written = kafka.sent.flatMap((batch) => batch.messages as Array<{ key: string; value: string }>);
    const firstCopies = (key: string) => [...new Set(written.filter((m) => m.key === key).map((m) => m.value))];
    expect(kafka.producers.map((p) => p.broken)).toEqual([true, false]);
    expect(bus.producersReplaced).toBe(1);
    for (let payment = 0; payment < 10; payment++) expect(firstCopies(`pay_${payment}`)).toEqual(committed.filter((v) => v.startsWith(`pay_${payment}:`)));
    expect(new Set(written.map((m) => m.value)).size).toBe(30);
  });

  it('when no broker answers, then the bus opens and subscribes at once, health says it has not answered since the start (readiness names it), and once the brokers answer the consumer joins and the publish goes through', async () => {
    const kafka = new FakeKafka();
    kafka.down = true;
    const { bus } = await aBus(kafka, { restartDelayMs: () => 20, probeEveryMs: 20 });
    await bus.ensureTopics(['vault.tokens']); // logged, not thrown: checked again when the brokers answer
    subscriptions.push(await bus.subscribe({ topics: ['vault.tokens'], group: 'importer', handler: async () => undefined }));

    expect(bus.health().unreachable).toMatchObject({ starting: true, error: expect.stringContaining('KafkaJSConnectionError') });
    expect(() => assertSubscriptionsConsuming(bus)).toThrow(UnavailableError);
    expect(() => assertSubscriptionsConsuming(bus)).toThrow(/has not answered since the service started/);
    expect(bus.health().unreachable?.error).not.toContain('127.0.0.1:9092');
    await expect(bus.publish([{ topic: 'vault.tokens', key: 'tok_1', value: '{}', headers: {} }])).rejects.toThrow(/ECONNREFUSED/);

    kafka.down = false;

    await waitFor(() => bus.health().unreachable === undefined && bus.health().failing.length === 0, 5_000);
    await waitFor(() => kafka.consumersOf('importer').some((consumer) => consumer.runConfig !== undefined), 5_000);
    await bus.publish([{ topic: 'vault.tokens', key: 'tok_1', value: '{}', headers: {} }]);
    expect(kafka.created).toEqual(['vault.tokens', 'vault.tokens.dead-letter']);
    expect(() => assertSubscriptionsConsuming(bus)).not.toThrow();
  });

  it('when KAFKA_CREATE_TOPICS is off and a topic is missing, then ensureTopics refuses naming it with its prefix, and nothing is created', async () => {
    const kafka = new FakeKafka();
    kafka.topics.add('staging.vault.tokens');
    const { bus } = await aBus(kafka, { createTopics: false, topicPrefix: 'staging.' });

    await expect(bus.ensureTopics(['vault.tokens'])).rejects.toThrow('Kafka topics missing: staging.vault.tokens.dead-letter (KAFKA_CREATE_TOPICS=false');
    expect(kafka.created).toEqual([]);
  });

  it('when the topics and groups have prefixes, then the brokers see the prefixed names and the handler and the lag the service’s own', async () => {
    const kafka = new FakeKafka();
    const { bus } = await aBus(kafka, { topicPrefix: 'staging.', groupPrefix: 'team-a.staging.' });
    const received: Delivery[] = [];
    subscriptions.push(await bus.subscribe({ topics: ['payments.payments'], group: 'notifier', handler: async (d) => void received.push(d) }));
    const consumer = kafka.consumersOf('team-a.staging.notifier')[0]!;
    kafka.topicOffsets.set('staging.payments.payments', [{ partition: 0, offset: '5', high: '5', low: '0' }]);
    kafka.groupOffsets.set('team-a.staging.notifier', [{ topic: 'staging.payments.payments', partitions: [{ partition: 0, offset: '3', metadata: null }] }]);

    await consumer.deliver('staging.payments.payments', 0, [recordFromBroker('4', '{}', {})]);
    await bus.publish([{ topic: 'payments.payments', key: 'pay_1', value: '{}', headers: {} }]);
    await bus.consumerLag([{ group: 'notifier', topics: ['payments.payments'] }]);
    await bus.lagMeasured();

    expect(consumer.subscribed).toEqual(['staging.payments.payments']);
    expect(received[0]?.topic).toBe('payments.payments');
    expect(kafka.sent.map((batch) => batch.topic)).toEqual(['staging.payments.payments']);
    expect(kafka.created).toEqual(['staging.payments.payments', 'staging.payments.payments.dead-letter']);
    expect(await bus.consumerLag([{ group: 'notifier', topics: ['payments.payments'] }])).toEqual([{ group: 'notifier', topic: 'payments.payments', lag: 2 }]);
  });

  it('when /metrics is scraped again and again while the brokers do not answer, then every scrape answers at once from the last measurement and the admin API is asked at most once per interval, each time within its timeout', async () => {
    const kafka = new FakeKafka();
    kafka.topicOffsets.set('vault.tokens', [{ partition: 0, offset: '10', high: '10', low: '0' }]);
    kafka.groupOffsets.set('importer', [{ topic: 'vault.tokens', partitions: [{ partition: 0, offset: '4', metadata: null }] }]);
    const { bus } = await aBus(kafka, { lagIntervalMs: 200, adminTimeoutMs: 2_000 });
    const groups = [{ group: 'importer', topics: ['vault.tokens'] }];
    await bus.consumerLag(groups);
    await bus.lagMeasured();
    kafka.stallAdmin = new Promise(() => undefined); // the brokers stop answering
    await new Promise((resolve) => setTimeout(resolve, 200));
    const asked = () => kafka.adminCalls.filter((call) => call === 'fetchTopicOffsets').length;
    const askedBefore = asked();

    const slowest = { ms: 0 };
    for (let scrape = 0; scrape < 20; scrape++) {
      const startedAt = performance.now();
      expect(await bus.consumerLag(groups)).toEqual([{ group: 'importer', topic: 'vault.tokens', lag: 6 }]);
      slowest.ms = Math.max(slowest.ms, performance.now() - startedAt);
    }
    await bus.lagMeasured(); // ends with the admin timeout

    expect(asked() - askedBefore).toBe(1);
    expect(slowest.ms).toBeLessThan(500); // the stalled measurement ends only with the 2 s timeout
  });

  it('when a record carries a header without a value, then the header is skipped and the message is handled and its offset resolved', async () => {
    const { bus, kafka } = await aBus();
    const received: Delivery[] = [];
    subscriptions.push(await bus.subscribe({ topics: ['payments.payments'], group: 'notifier', handler: async (d) => void received.push(d) }));
    const record = recordFromBroker('7', '{"n":1}', { 'event-type': 'payment.processing', 'x-empty': null });
    expect(record.headers?.['x-empty']).toBeNull(); // what kafkajs's decoder makes of it

    const trace = await kafka.consumersOf('notifier')[0]!.deliver('payments.payments', 0, [record]);

    expect(received[0]?.headers).toEqual({ 'event-type': 'payment.processing' });
    expect(trace.steps).toContain('resolve 7');
  });

  it('when a handler keeps failing for a while, then kafkajs’s consumer group gets heartbeats before the message is resolved', async () => {
    const { bus, kafka } = await aBus();
    let attempts = 0;
    subscriptions.push(
      await bus.subscribe({
        topics: ['payments.payments'],
        group: 'notifier',
        retryDelayMs: () => 20,
        handler: async () => {
          attempts++;
          if (attempts < 3) throw new Error('store down');
        },
      }),
    );

    const trace = await kafka.consumersOf('notifier')[0]!.deliver('payments.payments', 0, [recordFromBroker('3', '{}', {})]);

    const resolvedAt = trace.steps.indexOf('resolve 3');
    expect(resolvedAt).toBeGreaterThan(0);
    expect(trace.steps.slice(0, resolvedAt).filter((step) => step === 'heartbeat').length).toBeGreaterThanOrEqual(2);
  });

  it('when a subscription stops while a message is retried, then the offset stays unresolved and kafkajs logs no error', async () => {
    const { bus, kafka } = await aBus();
    let attempts = 0;
    const subscription = await bus.subscribe({
      topics: ['payments.payments'],
      group: 'notifier',
      retryDelayMs: () => 60_000,
      handler: async () => {
        attempts++;
        throw new Error('store down');
      },
    });
    const trace = { steps: [] as string[], logs: [] as Array<{ level: number; message: string }> };

    const delivering = kafka.consumersOf('notifier')[0]!.deliver('payments.payments', 0, [recordFromBroker('5', '{}', {})], trace);
    await waitFor(() => attempts === 1, 1_000);
    await subscription.stop();

    await expect(delivering).rejects.toBeInstanceOf(KafkaJSError);
    expect(trace.steps).not.toContain('resolve 5');
    expect(trace.logs.filter((log) => log.level === logLevel.ERROR)).toEqual([]);
  });

  it('when a consumer crashes with an error kafkajs does not retry, then health lists it until the bus has started a new consumer that joined the group', async () => {
    const { bus, kafka } = await aBus(new FakeKafka(), { restartDelayMs: () => 10 });
    subscriptions.push(await bus.subscribe({ topics: ['vault.tokens', 'vault.detokenizations'], group: 'importer', handler: async () => undefined }));
    const crashed = kafka.consumersOf('importer')[0]!;
    kafka.joinOnRun = false; // the restarted consumer joins when the test says so

    crashed.emit(crashed.events.CRASH, { error: new TypeError("Cannot read properties of null (reading 'toString')"), groupId: 'importer', restart: false });

    expect(bus.health().failing).toEqual([
      expect.objectContaining({ group: 'importer', topics: ['vault.tokens', 'vault.detokenizations'], error: expect.stringContaining('TypeError') }),
    ]);
    expect(() => assertSubscriptionsConsuming(bus)).toThrow(/importer \(vault.tokens, vault.detokenizations\)/);
    await waitFor(() => kafka.consumersOf('importer').length === 2 && kafka.consumersOf('importer')[1]!.runConfig !== undefined, 1_000);
    const restarted = kafka.consumersOf('importer')[1]!;
    expect(restarted.subscribed).toEqual(['vault.tokens', 'vault.detokenizations']);
    expect(bus.health().failing).toHaveLength(1);

    restarted.emit(restarted.events.GROUP_JOIN, { groupId: 'importer' });

    expect(bus.health().failing).toEqual([]);
    expect(() => assertSubscriptionsConsuming(bus)).not.toThrow();
  });

  it('when kafkajs restarts a crashed consumer itself (a short broker outage), then the bus starts no second one and health does not list it (readiness is not touched)', async () => {
    const { bus, kafka } = await aBus(new FakeKafka(), { restartDelayMs: () => 10 });
    subscriptions.push(await bus.subscribe({ topics: ['vault.tokens'], group: 'importer', handler: async () => undefined }));
    const consumer = kafka.consumersOf('importer')[0]!;

    consumer.emit(consumer.events.CRASH, { error: new Error('Connection error: ECONNREFUSED'), groupId: 'importer', restart: true });
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(bus.health().failing).toEqual([]);
    expect(kafka.consumersOf('importer')).toHaveLength(1);
  });

  it("when the metrics are scraped, then the lag comes from kafkajs's admin answers: each group's committed offsets against its topics' end offsets", async () => {
    const kafka = new FakeKafka();
    kafka.topicOffsets.set('vault.tokens', [
      { partition: 0, offset: '120', high: '120', low: '0' },
      { partition: 1, offset: '80', high: '80', low: '10' },
    ]);
    kafka.groupOffsets.set('importer', [
      {
        topic: 'vault.tokens',
        partitions: [
          { partition: 0, offset: '100', metadata: null },
          { partition: 1, offset: '-1', metadata: null },
        ],
      },
    ]);
    const { bus } = await aBus(kafka);

    await bus.consumerLag([{ group: 'importer', topics: ['vault.tokens'] }]); // starts the first measurement
    await bus.lagMeasured();
    expect(await bus.consumerLag([{ group: 'importer', topics: ['vault.tokens'] }])).toEqual([{ group: 'importer', topic: 'vault.tokens', lag: 20 + 70 }]);
    expect(await bus.consumerLag([])).toEqual([]);
  });
});
