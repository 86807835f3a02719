import { allTopics } from '@vaultline/contracts';
import { deadLetterTopic } from '../bus.port';

/**
 * How every Kafka topic of the system is shaped in production: deploy/kafka/topics.yaml is generated from
 * this plan over the event catalog (deploy/kafka/generate.ts, checked by a test), and the bus creates
 * topics with the same settings where it may (KAFKA_CREATE_TOPICS), fitted to the cluster's size.
 */
export interface TopicSettings {
  partitions: number;
  replicationFactor: number;
  /** With acks=all (the producer's), a write needs this many replicas in sync: with 3 replicas, 2 (one broker may be down). */
  minInsyncReplicas: number;
  retentionDays: number;
}

/**
 * Event topics. Six partitions: up to six members of a consumer group share the work (a service's replicas).
 * Kept 7 days, less than the consumers' processed-event marks (PROCESSED_EVENTS_RETENTION_DAYS, 14 by default):
 * a group that reads a topic from its beginning again (a renamed group, offsets reset) finds every event it
 * already applied still marked, and skips it, instead of applying it twice.
 */
export const EVENT_TOPIC_SETTINGS: TopicSettings = { partitions: 6, replicationFactor: 3, minInsyncReplicas: 2, retentionDays: 7 };

/** `<topic>.dead-letter`: what a consumer gave up on, kept 30 days for an operator to look at and replay. */
export const DEAD_LETTER_TOPIC_SETTINGS: TopicSettings = { partitions: 1, replicationFactor: 3, minInsyncReplicas: 2, retentionDays: 30 };

export interface KafkaTopicSpec {
  /** Without KAFKA_TOPIC_PREFIX (each environment puts its own before every name). */
  name: string;
  partitions: number;
  replicationFactor: number;
  /** Topic-level configuration, as the broker names it. */
  config: { 'min.insync.replicas': string; 'retention.ms': string; 'cleanup.policy': 'delete' };
}

const DAY_MS = 86_400_000;

export const isDeadLetterTopic = (topic: string): boolean => topic.endsWith('.dead-letter');

/** The settings of any topic the bus uses: a dead-letter topic's, or an event topic's. */
export function topicSpecOf(topic: string): KafkaTopicSpec {
  const settings = isDeadLetterTopic(topic) ? DEAD_LETTER_TOPIC_SETTINGS : EVENT_TOPIC_SETTINGS;
  return {
    name: topic,
    partitions: settings.partitions,
    replicationFactor: settings.replicationFactor,
    config: { 'min.insync.replicas': String(settings.minInsyncReplicas), 'retention.ms': String(settings.retentionDays * DAY_MS), 'cleanup.policy': 'delete' },
  };
}

/** Every topic of the event catalog, each followed by its dead-letter topic. */
export function kafkaTopicPlan(topics: string[] = allTopics()): KafkaTopicSpec[] {
  return [...new Set(topics)].sort().flatMap((topic) => [topicSpecOf(topic), topicSpecOf(deadLetterTopic(topic))]);
}

/**
 * A spec fitted to a cluster of `brokers` brokers (a development broker is one): no more replicas than
 * brokers, and no more in-sync replicas required than there are replicas. Production topics are created
 * from topics.yaml as they are.
 */
export function fitToCluster(spec: KafkaTopicSpec, brokers: number, partitions?: number): KafkaTopicSpec {
  const replicationFactor = Math.max(1, Math.min(spec.replicationFactor, brokers));
  return {
    ...spec,
    partitions: partitions ?? spec.partitions,
    replicationFactor,
    config: { ...spec.config, 'min.insync.replicas': String(Math.min(Number(spec.config['min.insync.replicas']), replicationFactor)) },
  };
}
