import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { allTopics, eventCatalog } from '@vaultline/contracts';
import { createLogger } from '@vaultline/logger';
import { MemoryDocumentStore } from '@vaultline/store';
import type { Bus, SubscribeOptions } from '@vaultline/bus';
import { GENERATED_FILES } from '../deploy/kafka/generate';
import { CONSUMER_GROUPS, serviceAcls, topicsOf } from '../deploy/kafka/kafka-topology';
import { topicsOfFile } from '../deploy/kafka/provision';
import { SERVICE_NAMES } from '../libs/runtime/src/service-runtime';
import { runtimeConfigSchema } from '../libs/runtime/src/runtime-config';
import { checkoutEventsConsumer, VAULT_CONSUMER_GROUP } from '../services/vault/src/messaging/checkout-events.consumer';
import { CHECKOUT_SESSIONS_GROUP, checkoutSessionCompletedConsumer } from '../services/payment-orchestrator/src/messaging/checkout-session-completed.consumer';
import { MERCHANT_EVENTS_GROUP, merchantEventConsumer } from '../services/notifier/src/messaging/merchant-event.consumer';
import { TOKEN_CREATED_GROUP } from '../services/importer/src/messaging/token-created.consumer';

const KAFKA = resolve(__dirname, '../deploy/kafka');
const DAY_MS = 86_400_000;
const logger = createLogger({ service: 'kafka-files-test', level: 'silent' });

/** A bus that only records what a consumer subscribes to. */
function recordingBus(): { bus: Bus; subscribed: Array<Pick<SubscribeOptions, 'group' | 'topics'>> } {
  const subscribed: Array<Pick<SubscribeOptions, 'group' | 'topics'>> = [];
  const bus = {
    ensureTopics: async () => undefined,
    subscribe: async (options: SubscribeOptions) => {
      subscribed.push({ group: options.group, topics: [...options.topics].sort() });
      return { stop: async () => undefined };
    },
  } as unknown as Bus;
  return { bus, subscribed };
}

const unused = async (): Promise<never> => {
  throw new Error('not called: the test only subscribes');
};

describe('deploy/kafka: topics.yaml and acls.md, from the event catalog', () => {
  it('when the event catalog or the topic plan changes, then the committed files are regenerated (pnpm exec tsx deploy/kafka/generate.ts)', () => {
    for (const [file, render] of Object.entries(GENERATED_FILES))
      expect({ file, content: readFileSync(join(KAFKA, file), 'utf8') }).toEqual({ file, content: render() });
  });

  it('when a platform team provisions topics.yaml, then every topic of the catalog is there with 6 partitions, 3 replicas, min.insync.replicas 2 and 7 days, and its dead-letter topic with 1 partition and 30 days', () => {
    const topics = topicsOfFile();
    const expected = allTopics().flatMap((topic) => [topic, `${topic}.dead-letter`]);

    expect(topics.map((topic) => topic.name).sort()).toEqual(expected.sort());
    for (const topic of topics) {
      const deadLetter = topic.name.endsWith('.dead-letter');
      expect({
        name: topic.name,
        partitions: topic.partitions,
        replicationFactor: topic.replicationFactor,
        minInsync: topic.config['min.insync.replicas'],
        days: Number(topic.config['retention.ms']) / DAY_MS,
      }).toEqual({
        name: topic.name,
        partitions: deadLetter ? 1 : 6,
        replicationFactor: 3,
        minInsync: '2',
        days: deadLetter ? 30 : 7,
      });
    }
  });

  it("when a group reads its topics again from their start, then every event there is younger than the consumers' processed-event marks (retention 7 days < PROCESSED_EVENTS_RETENTION_DAYS' default)", () => {
    const marksDays = runtimeConfigSchema.parse({}).PROCESSED_EVENTS_RETENTION_DAYS;
    const eventTopics = parse(readFileSync(join(KAFKA, 'topics.yaml'), 'utf8')).topics.filter(
      (topic: { name: string }) => !topic.name.endsWith('.dead-letter'),
    );

    for (const topic of eventTopics) expect(Number(topic.config['retention.ms'])).toBeLessThan(marksDays * DAY_MS);
  });

  it("when the services subscribe, then their groups and topics are the ones the ACLs grant (vault, orchestrator and notifier from their consumers, the importer's group by name)", async () => {
    const vault = recordingBus();
    await checkoutEventsConsumer(
      { bus: vault.bus, store: new MemoryDocumentStore(), logger },
      {
        openCheckoutSession: unused,
        recordPaymentProgress: unused,
        closeCanceledSession: unused,
        recordAuthenticationRequired: unused,
        reopenAfterFailedAttempt: unused,
      },
    );
    const orchestrator = recordingBus();
    await checkoutSessionCompletedConsumer({
      bus: orchestrator.bus,
      store: new MemoryDocumentStore(),
      logger,
      completeCheckoutSession: unused,
      returnFromAuthentication: unused,
      abandonCheckoutSession: unused,
      runPayment: () => undefined,
    });
    const notifierEvents = Object.keys(merchantEventConsumer(unused, () => undefined)).sort();

    const declared = Object.fromEntries(
      CONSUMER_GROUPS.map((group) => [group.group, { service: group.service, topics: topicsOf(group), events: [...group.events].sort() }]),
    );
    expect(vault.subscribed).toEqual([{ group: VAULT_CONSUMER_GROUP, topics: declared[VAULT_CONSUMER_GROUP]?.topics }]);
    expect(orchestrator.subscribed).toEqual([{ group: CHECKOUT_SESSIONS_GROUP, topics: declared[CHECKOUT_SESSIONS_GROUP]?.topics }]);
    expect(declared[MERCHANT_EVENTS_GROUP]?.events).toEqual(notifierEvents);
    expect(declared[TOKEN_CREATED_GROUP]).toMatchObject({ service: 'importer', events: ['token.created'] });
    expect(Object.keys(declared).sort()).toEqual([CHECKOUT_SESSIONS_GROUP, MERCHANT_EVENTS_GROUP, TOKEN_CREATED_GROUP, VAULT_CONSUMER_GROUP].sort());
  });

  it('when acls.md grants a service, then it may write exactly its own event topics and the dead letters of what it reads, and read what its groups consume', () => {
    const acls = Object.fromEntries(serviceAcls(SERVICE_NAMES).map((acl) => [acl.service, acl]));
    const markdown = readFileSync(join(KAFKA, 'acls.md'), 'utf8');

    for (const [type, definition] of Object.entries(eventCatalog)) {
      const writers = Object.values(acls).filter((acl) => acl.write.includes(definition.topic));
      expect({ type, writers: writers.map((acl) => acl.service) }).toEqual({ type, writers: [expect.any(String)] });
    }
    for (const group of CONSUMER_GROUPS) {
      const acl = acls[group.service]!;
      expect(acl.groups).toContain(group.group);
      for (const topic of topicsOf(group)) {
        expect(acl.read).toContain(topic);
        expect(acl.write).toContain(`${topic}.dead-letter`);
      }
    }
    expect(acls['payment-orchestrator']!.write).toEqual(
      expect.arrayContaining([
        'payments.payments',
        'payments.refunds',
        'payments.disputes',
        'payments.checkout-sessions',
        'vault.checkout-sessions.dead-letter',
      ]),
    );
    expect(acls.gateway).toMatchObject({ write: [], read: [], groups: [] });
    expect(markdown).toContain('| group | `notifier.merchant-events` | Read, Describe |');
    expect(markdown).toContain('--allow-principal User:vault --operation Read --operation Describe --group "${KAFKA_GROUP_PREFIX}vault"');
  });
});
