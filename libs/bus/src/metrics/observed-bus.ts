import { METRIC, type ServiceMetrics } from '@vaultline/metrics';
import type { Bus, BusHealth, BusMessage, ConsumerLag, SubscribeOptions, Subscription } from '../bus.port';
import { goesToDeadLetter, retryPolicyOf } from '../retry/deliver-with-retry';

export const DEAD_LETTERS_HELP = 'Bus messages sent to <topic>.dead-letter; group "outbox": outbox messages parked by the relay.';

/**
 * The bus as one service sees it, counted: handled messages, handler failures and dead letters per
 * group and topic, and the consumer lag of the service's own groups (read at scrape time from the
 * adapter). In the embedded profile every service wraps the one shared bus, so each service's series
 * carry its own name. Closing it closes the bus underneath (the launcher's, when shared: it does not
 * close a service's view).
 */
export function observedBus(bus: Bus, metrics: ServiceMetrics): Bus {
  const labels = ['group', 'topic'];
  const handled = metrics.counter(METRIC.busMessagesHandled, 'Bus messages a consumer group handled.', labels);
  const failures = metrics.counter(METRIC.busHandlerFailures, 'Bus handler attempts that threw (every retry counts).', labels);
  const deadLetters = metrics.counter(METRIC.busDeadLetters, DEAD_LETTERS_HELP, labels);
  const subscriptions = new Set<{ group: string; topics: string[] }>();
  metrics.gauge(
    METRIC.busConsumerLag,
    'Bus messages appended and not yet committed by the group (log bus, Redis Streams, Kafka admin offsets).',
    labels,
    async () => (await bus.consumerLag([...subscriptions])).map(({ group, topic, lag }: ConsumerLag) => ({ labels: { group, topic }, value: lag })),
  );

  return {
    ensureTopics: (topics: string[]) => bus.ensureTopics(topics),
    publish: (messages: BusMessage[]) => bus.publish(messages),
    ping: () => bus.ping(),
    health: (): BusHealth => bus.health(),
    consumerLag: (groups) => bus.consumerLag(groups),
    close: () => bus.close(),
    async subscribe(options: SubscribeOptions): Promise<Subscription> {
      const policy = retryPolicyOf(options);
      const entry = { group: options.group, topics: [...new Set(options.topics)] };
      const subscription = await bus.subscribe({
        ...options,
        handler: async (delivery) => {
          const series = { group: options.group, topic: delivery.topic };
          try {
            await options.handler(delivery);
            handled.inc(series);
          } catch (error) {
            failures.inc(series);
            if (goesToDeadLetter(error, delivery.attempt, policy)) deadLetters.inc(series);
            throw error;
          }
        },
      });
      subscriptions.add(entry);
      return {
        stop: async () => {
          subscriptions.delete(entry);
          await subscription.stop();
        },
      };
    },
  };
}
