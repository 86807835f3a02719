import { busContract } from '@vaultline/bus/testing';
import { describeWithKafka, kafkaTestPrefix } from '@vaultline/testing';
import { readFileSync } from 'node:fs';
import { openBus, type Bus, type KafkaSecurity } from '../src';

/**
 * The brokers' TLS and SASL for this run, from the variables the services read (KAFKA_SSL_CA_FILE,
 * KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD or _FILE): the contract then runs over
 * the listener and with a user like the services'.
 */
function securityFromEnv(env: NodeJS.ProcessEnv): KafkaSecurity | undefined {
  const password = env.KAFKA_SASL_PASSWORD_FILE ? readFileSync(env.KAFKA_SASL_PASSWORD_FILE, 'utf8').trim() : env.KAFKA_SASL_PASSWORD;
  const mechanism = env.KAFKA_SASL_MECHANISM as NonNullable<KafkaSecurity['sasl']>['mechanism'] | undefined;
  const ssl = env.KAFKA_SSL_CA_FILE ? { ca: readFileSync(env.KAFKA_SSL_CA_FILE) } : env.KAFKA_SSL === 'true' ? (true as const) : undefined;
  const sasl = mechanism && env.KAFKA_SASL_USERNAME && password ? { mechanism, username: env.KAFKA_SASL_USERNAME, password } : undefined;
  return ssl || sasl ? { ...(ssl ? { ssl } : {}), ...(sasl ? { sasl } : {}) } : undefined;
}

/**
 * Runs the bus contract against a real broker: KAFKA_BROKERS (scripts/test-all starts one with scripts/kafka),
 * else a testcontainers Kafka; never skipped in CI. The buses put this run's prefix before every topic and
 * group (KAFKA_TOPIC_PREFIX), so the contract holds with prefixes too and runs on the one broker never meet.
 */
describeWithKafka('Kafka', 'Kafka bus contract', (brokers) => {
  const topicPrefix = kafkaTestPrefix('contract');

  busContract(
    'kafka',
    async () => {
      const url = `kafka://${brokers()}`;
      const kafkaSecurity = securityFromEnv(process.env);
      const opened: Bus[] = [];
      const open = async () => {
        const bus = await openBus(url, { ...(kafkaSecurity ? { kafkaSecurity } : {}), kafka: { topicPrefix, clientId: 'bus-contract' } });
        opened.push(bus);
        return bus;
      };
      return {
        bus: await open(),
        reopen: open,
        cleanup: async () => {
          for (const bus of opened) await bus.close();
        },
      };
    },
    { durable: true },
  );
});
