import { busContract } from '@vaultline/bus/testing';
import { kafkaAvailability, reportSkipped, resolveKafka, type KafkaResolution } from '@vaultline/testing';
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
 * Runs the bus contract against a real broker: KAFKA_BROKERS, else a testcontainers Kafka. jest
 * registers tests synchronously, so run-or-skip is decided by kafkaAvailability() (env, or a
 * container runtime answering); resolveKafka() then starts the broker in beforeAll and, should it
 * still fail, the suite fails with its reason instead of passing silently.
 */
const availability = kafkaAvailability();
if (!availability.available) reportSkipped('Kafka bus contract', availability.reason);

(availability.available ? describe : describe.skip)('Kafka', () => {
  let kafka: KafkaResolution | undefined;

  beforeAll(async () => {
    kafka = await resolveKafka();
    if (!kafka.available) throw new Error(`Kafka was expected (env or container runtime) but: ${kafka.reason}`);
  }, 180_000);

  afterAll(async () => {
    if (kafka?.available) await kafka.stop();
  });

  busContract(
    'kafka',
    async () => {
      if (!kafka?.available) throw new Error('Kafka is not resolved');
      const url = `kafka://${kafka.brokers}`;
      const kafkaSecurity = securityFromEnv(process.env);
      const opened: Bus[] = [];
      const open = async () => {
        const bus = await openBus(url, kafkaSecurity ? { kafkaSecurity } : {});
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
