// Exits 0 when the Kafka broker at the given address answers a metadata request (kafkajs, the client the
// services use: so "started" means usable by them), 1 otherwise. scripts/kafka polls it while the broker starts.
//   node scripts/kafka-broker/answers.mjs 127.0.0.1:9092
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;
const broker = process.argv[2];
const kafka = new Kafka({
  clientId: 'vaultline-kafka-script',
  brokers: [broker],
  logLevel: logLevel.NOTHING,
  connectionTimeout: 2_000,
  requestTimeout: 5_000,
  retry: { retries: 0 },
});
const admin = kafka.admin();
try {
  await admin.connect();
  const { brokers } = await admin.describeCluster();
  await admin.disconnect();
  process.exit(brokers.length > 0 ? 0 : 1);
} catch {
  process.exit(1);
}
