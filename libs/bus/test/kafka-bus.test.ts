import { busContract } from '@vaultline/bus/testing';
import { kafkaAvailability, reportSkipped, resolveKafka, type KafkaResolution } from '@vaultline/testing';
import { openBus, type Bus } from '../src';

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
      const opened: Bus[] = [];
      const open = async () => {
        const bus = await openBus(url);
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
