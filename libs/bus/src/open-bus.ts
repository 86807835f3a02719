import type { Logger } from '@vaultline/logger';
import type { Bus } from './bus.port';
import { LogBus } from './log/log-bus';
import { MemoryLogStorage } from './log/memory-log-storage';
import type { WakeSource } from './log/wake-source';
import type { KafkaNaming, KafkaSecurity } from './kafka/kafka-bus';

export interface OpenBusOptions {
  /** Redis: stable consumer name of this process (default `<group>-1`). */
  consumerName?: string;
  logger?: Logger;
  /** sqlite: only — the other buses of this file in the process (embedded profile's service threads); the bus closes it. */
  wakeSource?: WakeSource;
  /** kafka:// only: TLS and SASL towards the brokers. */
  kafkaSecurity?: KafkaSecurity;
  /** kafka:// only: topic and group prefixes, client id, whether topics may be created (KAFKA_TOPIC_PREFIX …). */
  kafka?: KafkaNaming;
}

/**
 * Picks the adapter from a bus URL:
 *   memory://                       in-process log, lost on exit (tests)
 *   sqlite:/path/bus.db             in-process log in a SQLite file, survives restarts (embedded)
 *   redis://host:6379               Redis Streams (local profile)
 *   kafka://b1:9092,b2:9092         Kafka (production); ?partitions=N for topics it creates
 * Redis and Kafka clients are loaded only when their scheme is used.
 */
export async function openBus(url: string, options: OpenBusOptions = {}): Promise<Bus> {
  const { logger } = options;
  if (url.startsWith('memory:')) return new LogBus(new MemoryLogStorage(), { logger });
  if (url.startsWith('sqlite:')) {
    const { SqliteLogStorage } = await import('./log/sqlite-log-storage');
    const { CachedLogStorage } = await import('./log/cached-log-storage');
    const { wakeSource } = options;
    const storage = new CachedLogStorage(new SqliteLogStorage(url.slice('sqlite:'.length)), { wakeSource });
    return new LogBus(storage, { logger, wakeSource });
  }
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    const { RedisStreamsBus } = await import('./redis/redis-streams-bus');
    return RedisStreamsBus.connect(url, { consumerName: options.consumerName, logger });
  }
  if (url.startsWith('kafka://')) {
    const { KafkaBus, parseKafkaUrl } = await import('./kafka/kafka-bus');
    const { brokers, partitions } = parseKafkaUrl(url);
    return KafkaBus.connect({
      brokers,
      logger,
      ...options.kafka,
      ...(partitions !== undefined ? { partitions } : {}),
      ...(options.kafkaSecurity ? { security: options.kafkaSecurity } : {}),
    });
  }
  throw new Error(`unsupported bus URL scheme: ${url.split(':')[0]}: (use memory://, sqlite:<file>, redis://, kafka://)`);
}
