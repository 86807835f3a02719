import { resolve } from 'node:path';
import { startLocal, type LocalOptions, type LocalSystem } from './local';

export interface KafkaProfileOptions extends LocalOptions {
  /** The brokers, host:port,… (default KAFKA_BROKERS). */
  brokers?: string;
}

export interface KafkaProfileSystem extends LocalSystem {
  brokers: string;
}

/**
 * The production shape on one machine: the local profile's process per service (SQLite stores under
 * DATA_DIR, Redis for the TTL store, started on a free port unless REDIS_URL names one, mutual TLS between
 * the services), with the bus on the Kafka brokers of KAFKA_BROKERS (scripts/kafka start runs one here).
 * Topic and group names, the client ids and topic creation follow KAFKA_TOPIC_PREFIX, KAFKA_GROUP_PREFIX,
 * KAFKA_CLIENT_ID and KAFKA_CREATE_TOPICS, as in production.
 */
export async function startKafkaProfile(options: KafkaProfileOptions = {}): Promise<KafkaProfileSystem> {
  const brokers = options.brokers ?? process.env.KAFKA_BROKERS;
  if (!brokers)
    throw new Error(
      'KAFKA_BROKERS is required: the Kafka brokers, host:port,… (scripts/kafka start runs one on this machine and prints KAFKA_BROKERS=127.0.0.1:9092)',
    );
  const system = await startLocal({
    ...options,
    dataDir: resolve(options.dataDir ?? process.env.DATA_DIR ?? './data/kafka'),
    env: { BUS_URL: `kafka://${brokers}`, ...options.env },
  });
  return { ...system, brokers };
}
