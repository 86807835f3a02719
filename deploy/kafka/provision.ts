/**
 * Creates the topics of deploy/kafka/topics.yaml that are missing on a cluster, as the file says them:
 *
 *   KAFKA_BROKERS=b1:9092,b2:9092 KAFKA_TOPIC_PREFIX=prod. pnpm exec tsx deploy/kafka/provision.ts [--fit]
 *
 * With TLS and SASL it reads the services' variables (KAFKA_SSL_CA_FILE, KAFKA_SSL, KAFKA_SASL_MECHANISM,
 * KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD or _FILE): run it as a user allowed to create topics. Existing topics
 * are left as they are (their partitions are listed when they differ). `--fit`: a development cluster of fewer
 * brokers than the file's replication factor gets as many replicas as it has brokers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { parse } from 'yaml';
import { fitToCluster, type KafkaTopicSpec } from '../../libs/bus/src/kafka/topic-plan';
import { kafkajsSecurity } from '../../libs/bus/src/kafka/kafka-bus';
import { kafkaSecurityOf, loadRuntimeConfig } from '../../libs/runtime/src/runtime-config';
import { withSecretFiles } from '../../libs/runtime/src/secret-files';

interface TopicsFile {
  topics: Array<{ name: string; partitions: number; replication_factor: number; config: KafkaTopicSpec['config'] }>;
}

/** The topics of deploy/kafka/topics.yaml, as specs. */
export function topicsOfFile(file = join(__dirname, 'topics.yaml')): KafkaTopicSpec[] {
  const { topics } = parse(readFileSync(file, 'utf8')) as TopicsFile;
  return topics.map((topic) => ({ name: topic.name, partitions: topic.partitions, replicationFactor: topic.replication_factor, config: topic.config }));
}

export interface ProvisionOptions {
  brokers: string[];
  prefix?: string;
  fit?: boolean;
  security?: Parameters<typeof kafkajsSecurity>[0];
}

/** Creates what is missing; answers the names created and those that exist with other partitions. */
export async function provisionTopics(options: ProvisionOptions): Promise<{ created: string[]; differing: string[] }> {
  const admin = new Kafka({ clientId: 'vaultline-provision', brokers: options.brokers, ...kafkajsSecurity(options.security), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const prefix = options.prefix ?? '';
    const existing = new Set(await admin.listTopics());
    const { brokers } = await admin.describeCluster();
    const specs = topicsOfFile().map((spec) => (options.fit ? fitToCluster(spec, brokers.length) : spec));
    const missing = specs.filter((spec) => !existing.has(prefix + spec.name));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((spec) => ({
          topic: prefix + spec.name,
          numPartitions: spec.partitions,
          replicationFactor: spec.replicationFactor,
          configEntries: Object.entries(spec.config).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    const present = specs.filter((spec) => existing.has(prefix + spec.name));
    const metadata = present.length > 0 ? await admin.fetchTopicMetadata({ topics: present.map((spec) => prefix + spec.name) }) : { topics: [] };
    const differing = metadata.topics.filter((topic) => topic.partitions.length !== specs.find((spec) => prefix + spec.name === topic.name)?.partitions).map((topic) => topic.name);
    return { created: missing.map((spec) => prefix + spec.name), differing };
  } finally {
    await admin.disconnect();
  }
}

if (require.main === module) {
  const env = withSecretFiles(process.env);
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
  if (brokers.length === 0) {
    console.error('KAFKA_BROKERS is required (host:port,host:port)');
    process.exit(2);
  }
  const config = loadRuntimeConfig(env);
  const security = kafkaSecurityOf(config);
  provisionTopics({ brokers, prefix: config.KAFKA_TOPIC_PREFIX, fit: process.argv.includes('--fit'), ...(security ? { security } : {}) }).then(
    ({ created, differing }) => {
      console.log(created.length > 0 ? `created ${created.length} topics: ${created.join(', ')}` : 'every topic of deploy/kafka/topics.yaml exists');
      if (differing.length > 0) console.log(`left as they are, with another partition count than the file's: ${differing.join(', ')}`);
    },
    (error: unknown) => {
      console.error(`provisioning failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
