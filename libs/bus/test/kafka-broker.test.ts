import { Kafka, logLevel, ConfigResourceTypes, type Admin } from 'kafkajs';
import { waitFor } from '@vaultline/core';
import { paymentProcessingV1 } from '@vaultline/contracts';
import { createLogger } from '@vaultline/logger';
import { MemoryDocumentStore, type StoredDocument } from '@vaultline/store';
import { describeWithKafka, kafkaTestPrefix } from '@vaultline/testing';
import { createEventConsumer, eventMessage, openBus, type Bus, type KafkaNaming, type Subscription } from '../src';
import type { KafkaBus } from '../src/kafka/kafka-bus';
import { aPayment, SCOPE } from './fixtures';

const logger = createLogger({ service: 'bus-test', level: 'silent' });
const DAY_MS = 86_400_000;

interface Notice extends StoredDocument {
  event_id: string;
}

/**
 * The Kafka adapter on a real broker (KAFKA_BROKERS; scripts/test-all starts one): what a platform team
 * sees on its cluster. Every case names its topics and groups with a prefix of its own.
 */
describeWithKafka('KafkaBus on a real broker', 'Kafka adapter on a broker', (brokers) => {
  let admin: Admin;
  const buses: Bus[] = [];
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    admin = new Kafka({ clientId: 'bus-test-admin', brokers: brokers().split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.disconnect();
  });
  afterEach(async () => {
    await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  const aBus = async (kafka: KafkaNaming): Promise<KafkaBus> => {
    const bus = (await openBus(`kafka://${brokers()}`, { logger, kafka })) as KafkaBus;
    buses.push(bus);
    return bus;
  };
  const topicConfig = async (topic: string) => {
    const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }] });
    return Object.fromEntries(resources[0]!.configEntries.map((entry) => [entry.configName, entry.configValue]));
  };

  it('when the bus creates an event topic, then it has the plan’s partitions and retention (7 days, dead letters 30 days, 1 partition) and as many in-sync replicas as the one broker allows', async () => {
    const topicPrefix = kafkaTestPrefix('plan');
    const bus = await aBus({ topicPrefix });

    await bus.ensureTopics(['payments.payments']);

    const metadata = await admin.fetchTopicMetadata({ topics: [`${topicPrefix}payments.payments`, `${topicPrefix}payments.payments.dead-letter`] });
    expect(metadata.topics.map((topic) => [topic.name, topic.partitions.length, topic.partitions[0]!.replicas.length]).sort()).toEqual([
      [`${topicPrefix}payments.payments`, 6, 1],
      [`${topicPrefix}payments.payments.dead-letter`, 1, 1],
    ]);
    expect(await topicConfig(`${topicPrefix}payments.payments`)).toMatchObject({
      'retention.ms': String(7 * DAY_MS),
      'min.insync.replicas': '1',
      'cleanup.policy': 'delete',
    });
    expect(await topicConfig(`${topicPrefix}payments.payments.dead-letter`)).toMatchObject({ 'retention.ms': String(30 * DAY_MS) });
  });

  it('when a service names its client and prefixes its topics and groups, then the broker lists the prefixed names and the group’s member under the service’s client id', async () => {
    const topicPrefix = kafkaTestPrefix('names');
    const groupPrefix = `team-payments.${topicPrefix}`;
    const bus = await aBus({ topicPrefix, groupPrefix, clientId: 'notifier' });
    const received: string[] = [];
    subscriptions.push(
      await bus.subscribe({
        topics: ['payments.payments'],
        group: 'notifier.merchant-events',
        handler: async (delivery) => void received.push(delivery.topic),
      }),
    );

    await bus.publish([eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment() })]);
    await waitFor(() => received.length === 1, 20_000);

    expect(received).toEqual(['payments.payments']);
    expect(await admin.listTopics()).toEqual(expect.arrayContaining([`${topicPrefix}payments.payments`, `${topicPrefix}payments.payments.dead-letter`]));
    const { groups } = await admin.describeGroups([`${groupPrefix}notifier.merchant-events`]);
    expect(groups[0]).toMatchObject({
      groupId: `${groupPrefix}notifier.merchant-events`,
      state: 'Stable',
      members: [expect.objectContaining({ clientId: 'notifier' })],
    });
  });

  it('when KAFKA_CREATE_TOPICS is false and the topics are missing, then the bus refuses naming them, and once they are provisioned it publishes', async () => {
    const topicPrefix = kafkaTestPrefix('provisioned');
    const bus = await aBus({ topicPrefix, createTopics: false });

    await expect(bus.ensureTopics(['vault.tokens'])).rejects.toThrow(
      `Kafka topics missing: ${topicPrefix}vault.tokens, ${topicPrefix}vault.tokens.dead-letter`,
    );
    await expect(bus.publish([{ topic: 'vault.tokens', key: 'tok_1', value: '{}', headers: {} }])).rejects.toThrow('Kafka topics missing');
    expect(await admin.listTopics()).not.toContain(`${topicPrefix}vault.tokens`);

    await admin.createTopics({
      waitForLeaders: true,
      topics: [`${topicPrefix}vault.tokens`, `${topicPrefix}vault.tokens.dead-letter`].map((topic) => ({ topic, numPartitions: 1, replicationFactor: 1 })),
    });

    await bus.ensureTopics(['vault.tokens']);
    await bus.publish([{ topic: 'vault.tokens', key: 'tok_1', value: '{}', headers: {} }]);
  });

  it('when a consumer’s group is renamed (KAFKA_GROUP_PREFIX), then the new group reads the topic from its beginning and applies none of it again: the events are marked processed under the consumer’s name', async () => {
    const topicPrefix = kafkaTestPrefix('renamed');
    const store = new MemoryDocumentStore();
    await store.register({ name: 'notices', indexes: [{ fields: ['event_id'], unique: true }] });
    const applied: string[] = [];
    const consume = async (groupPrefix: string) => {
      const bus = await aBus({ topicPrefix, groupPrefix });
      const consumer = await createEventConsumer({
        bus,
        store,
        group: 'notifier.merchant-events',
        logger,
        handlers: {
          'payment.processing': (event, uow) => {
            applied.push(event.id);
            uow.insert<Notice>('notices', { id: event.id, merchant_id: event.merchant_id, mode: 'test', event_id: event.id });
          },
        },
      });
      subscriptions.push(consumer);
      return bus;
    };
    const first = await consume(`${topicPrefix}before.`);
    const events = Array.from({ length: 20 }, () => eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment() }));
    await first.publish(events);
    await waitFor(() => applied.length === 20, 20_000);

    const renamed = (await consume(`${topicPrefix}after.`)) as KafkaBus;
    // The renamed group has read and committed all twenty …
    const committed = async () =>
      (
        await admin.fetchOffsets({ groupId: `${topicPrefix}after.notifier.merchant-events`, topics: [`${topicPrefix}payments.payments`] })
      )[0]!.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
    await waitFor(async () => (await committed()) === 20, 30_000, 100);
    const groups = [{ group: 'notifier.merchant-events', topics: ['payments.payments'] }];
    await renamed.consumerLag(groups);
    await renamed.lagMeasured();
    expect(await renamed.consumerLag(groups)).toEqual([{ group: 'notifier.merchant-events', topic: 'payments.payments', lag: 0 }]);
    // … and applied none of them again.
    expect(applied).toHaveLength(20);
    expect(await store.collection<Notice>('notices').count(SCOPE, {})).toBe(20);
  });
});
