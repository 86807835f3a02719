export * from './bus.port';
export { openBus, type OpenBusOptions } from './open-bus';
export { assertSubscriptionsConsuming, withHealthGrace } from './subscriptions';
export { LogBus, type LogBusOptions } from './log/log-bus';
export type { LogStorage, LogRecord, LogAppend, GroupOffset } from './log/log-storage.port';
export { BroadcastWakeSource, type WakeSource, type AppendedRecord } from './log/wake-source';
export { MemoryLogStorage } from './log/memory-log-storage';
export { partitionOf } from './log/partition-of';
export {
  deliverWithRetry,
  deadLetterOf,
  describeError,
  defaultRetryDelayMs,
  retryPolicyOf,
  handlerRetryPolicy,
  jitteredRetryDelay,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_HANDLER_RETRY,
  type DeliveryOutcome,
  type DeliverWithRetryInput,
  type HandlerRetrySettings,
  type RetryPolicy,
} from './retry/deliver-with-retry';
export { withRetryDefaults } from './retry/with-retry-defaults';
export { eventMessage, type EventMessageInput } from './messaging/event-message';
export { EVENT_HEADERS } from '@vaultline/store';
export {
  startOutboxRelay,
  OUTBOX_BACKLOG_CAP,
  PARKED_OUTBOX_COLLECTION,
  type OutboxRelay,
  type OutboxRelayOptions,
  type ParkedOutboxMessage,
} from './messaging/outbox-relay';
export {
  DEAD_LETTERS_COLLECTION,
  getDeadLetter,
  listDeadLetters,
  listParkedMessages,
  replayDeadLetter,
  unparkMessage,
  deadLetterIdOf,
  type DeadLetterFilter,
  type DeadLetterRecord,
  type DeadLetterReplay,
} from './messaging/dead-letters';
export { createEventConsumer, type EventConsumerOptions, type EventHandler, type EventHandlers, type EventOf, type RawEvent } from './messaging/event-consumer';
// Types only: the adapters themselves load their clients lazily through openBus.
export type { SqliteLogStorage } from './log/sqlite-log-storage';
export type { CachedLogStorage } from './log/cached-log-storage';
export type { RedisStreamsBus, RedisStreamsBusOptions } from './redis/redis-streams-bus';
export type { KafkaBus, KafkaBusOptions, KafkaClient, KafkaConsumer, KafkaProducer, KafkaAdmin, KafkaSecurity, KafkaNaming } from './kafka/kafka-bus';
export {
  kafkaTopicPlan,
  topicSpecOf,
  fitToCluster,
  EVENT_TOPIC_SETTINGS,
  DEAD_LETTER_TOPIC_SETTINGS,
  type KafkaTopicSpec,
  type TopicSettings,
} from './kafka/topic-plan';
export { observedBus } from './metrics/observed-bus';
export { goesToDeadLetter } from './retry/deliver-with-retry';
