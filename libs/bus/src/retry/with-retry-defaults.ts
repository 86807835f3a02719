import type { Bus, SubscribeOptions, Subscription } from '../bus.port';
import type { RetryPolicy } from './deliver-with-retry';

/**
 * The bus with a service's retry policy (handlerRetryPolicy of BUS_RETRY_*) for every subscription that names
 * none of its own. Wraps the observed bus, so the dead-letter metric counts by the same policy.
 */
export function withRetryDefaults(bus: Bus, policy: RetryPolicy): Bus {
  return {
    ensureTopics: (topics) => bus.ensureTopics(topics),
    publish: (messages) => bus.publish(messages),
    ping: () => bus.ping(),
    health: () => bus.health(),
    consumerLag: (groups) => bus.consumerLag(groups),
    close: () => bus.close(),
    subscribe: (options: SubscribeOptions): Promise<Subscription> =>
      bus.subscribe({ ...options, maxAttempts: options.maxAttempts ?? policy.maxAttempts, retryDelayMs: options.retryDelayMs ?? policy.retryDelayMs }),
  };
}
