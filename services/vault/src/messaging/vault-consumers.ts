import { createEventConsumer, type EventHandler, type Subscription } from '@vaultline/bus';
import type { Bus } from '@vaultline/bus';
import type { Logger } from '@vaultline/logger';
import type { DocumentStore } from '@vaultline/store';
import { openCheckoutSession, recordPaymentProgress } from '../domain/checkout/checkout-flow';
import type { VaultDeps } from '../domain/ports';

export const VAULT_CONSUMER_GROUP = 'vault';

type PaymentEventType = 'payment.processing' | 'payment.authorized' | 'payment.capturing' | 'payment.captured' | 'payment.failed';

/**
 * checkout.session.opened (from the orchestrator) tells the vault which sessions exist;
 * payment.* events feed the progress the hosted page shows.
 */
export function startVaultConsumers(options: { bus: Bus; store: DocumentStore; logger: Logger; deps: VaultDeps }): Promise<Subscription> {
  const { deps } = options;
  const progress: EventHandler<PaymentEventType> = (event, uow) =>
    recordPaymentProgress(deps, uow, event.data.payment_id, event.data.status, event.data.failure_reason);
  return createEventConsumer({
    bus: options.bus,
    store: options.store,
    logger: options.logger,
    group: VAULT_CONSUMER_GROUP,
    handlers: {
      'checkout.session.opened': (event, uow) => openCheckoutSession(deps, uow, event.merchant_id, event.data),
      'payment.processing': progress,
      'payment.authorized': progress,
      'payment.capturing': progress,
      'payment.captured': progress,
      'payment.failed': progress,
    },
  });
}
