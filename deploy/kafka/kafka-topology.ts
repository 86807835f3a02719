/**
 * Who writes and who reads each Kafka topic, from the event catalog: what deploy/kafka/topics.yaml provisions and
 * deploy/kafka/acls.md grants (deploy/kafka/generate.ts writes both; test-e2e/kafka-deploy-files.test.ts checks
 * them against the catalog and the services, and the Kafka e2e checks the groups the running services form).
 *
 * A topic is written by the service that owns its aggregate (its name's first part); a consumer group reads the
 * topics of the event types it handles and writes their dead-letter topics (deliverWithRetry). One consumer per
 * group, subscribed to all of the group's topics (a kafkajs group leader assigns only the topics it subscribed).
 */
import { eventCatalog, merchantEventTypes, type EventType } from '../../libs/contracts/src';

import { kafkaTopicPlan, type KafkaTopicSpec } from '../../libs/bus/src/kafka/topic-plan';
import type { ServiceName } from '../../libs/runtime/src/service-runtime';

/** The owner of a topic by its name's first part (`payments.refunds` → payment-orchestrator). */
const OWNER_OF_PREFIX: Record<string, ServiceName> = {
  vault: 'vault',
  forwarder: 'forwarder',
  importer: 'importer',
  payments: 'payment-orchestrator',
};

export interface ConsumerGroup {
  service: ServiceName;
  /** As the service names it; on the brokers KAFKA_GROUP_PREFIX (default KAFKA_TOPIC_PREFIX) comes first. */
  group: string;
  events: readonly EventType[];
}

/** Every consumer group of the system and the events it handles (each service's messaging/ folder). */
export const CONSUMER_GROUPS: readonly ConsumerGroup[] = [
  {
    service: 'vault',
    group: 'vault',
    events: ['checkout.session.opened', 'payment.authorized', 'payment.capturing', 'payment.captured', 'payment.failed', 'payment.canceled', 'payment.action_required'],
  },
  { service: 'payment-orchestrator', group: 'payment-orchestrator.checkout-sessions', events: ['checkout.session.completed', 'checkout.session.returned'] },
  { service: 'importer', group: 'importer.token-created', events: ['token.created'] },
  { service: 'notifier', group: 'notifier.merchant-events', events: merchantEventTypes },
];

/** The service that writes `topic` (an event topic of the catalog). */
export function ownerOf(topic: string): ServiceName {
  const owner = OWNER_OF_PREFIX[topic.split('.')[0] ?? ''];
  if (!owner) throw new Error(`topic ${topic} of the event catalog has no owner: add its first part to OWNER_OF_PREFIX in deploy/kafka/kafka-topology.ts`);
  return owner;
}

/** The topics a group subscribes to: those of its event types, each once, sorted. */
export function topicsOf(group: ConsumerGroup): string[] {
  return [...new Set(group.events.map((type) => eventCatalog[type].topic))].sort();
}

export interface TopicUse extends KafkaTopicSpec {
  /** The services that write it (the owner; for a dead-letter topic, the services whose groups read the topic). */
  writers: ServiceName[];
  /** The consumer groups that read it. */
  readers: string[];
}

/** The topic plan over the catalog, with each topic's writers and readers. */
export function topicUses(): TopicUse[] {
  return kafkaTopicPlan().map((spec) => {
    const deadLetter = spec.name.endsWith('.dead-letter');
    const eventTopic = deadLetter ? spec.name.slice(0, -'.dead-letter'.length) : spec.name;
    const readingGroups = CONSUMER_GROUPS.filter((group) => topicsOf(group).includes(eventTopic));
    return {
      ...spec,
      writers: deadLetter ? [...new Set(readingGroups.map((group) => group.service))].sort() : [ownerOf(spec.name)],
      readers: deadLetter ? [] : readingGroups.map((group) => group.group).sort(),
    };
  });
}

/** What one service may do on the cluster (its Kafka user's ACLs). */
export interface ServiceAcl {
  service: ServiceName;
  /** Topics it publishes to: its own event topics, and the dead-letter topics of what its groups read. */
  write: string[];
  /** Topics its groups read. */
  read: string[];
  /** Its consumer groups. */
  groups: string[];
}

export function serviceAcls(services: readonly ServiceName[]): ServiceAcl[] {
  const uses = topicUses();
  return services.map((service) => {
    const groups = CONSUMER_GROUPS.filter((group) => group.service === service);
    return {
      service,
      write: uses.filter((use) => use.writers.includes(service)).map((use) => use.name),
      read: [...new Set(groups.flatMap(topicsOf))].sort(),
      groups: groups.map((group) => group.group),
    };
  });
}


