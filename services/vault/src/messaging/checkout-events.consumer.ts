import { createEventConsumer, type Bus, type EventHandler, type Subscription } from '@vaultline/bus';
import { scopeOfEvent } from '@vaultline/contracts';
import type { Logger } from '@vaultline/logger';
import type { DocumentStore } from '@vaultline/store';
import type { PaymentProgress } from '../domain/checkout/checkout-session';
import type { CloseCanceledSession, OpenCheckoutSession, RecordPaymentProgress, ReopenAfterFailedAttempt } from '../domain/checkout/checkout-flow';
import type { RecordAuthenticationRequired } from '../domain/checkout/checkout-authentication';

export const VAULT_CONSUMER_GROUP = 'vault';

type PaymentEventType = 'payment.authorized' | 'payment.capturing' | 'payment.captured' | 'payment.failed';

/**
 * checkout.session.opened (from the orchestrator) tells the vault which sessions exist;
 * payment.* events feed the progress the hosted page shows (payment.action_required: where the consumer
 * must authenticate; payment.attempt_failed: the card failed, the session takes another). payment.processing is not handled: a
 * session starts as processing and progress only moves forward, so it could never change one, and
 * an unhandled type is passed over before it is validated or looked up (one per payment).
 */
export function checkoutEventsConsumer(
  runtime: { bus: Bus; store: DocumentStore; logger: Logger },
  useCases: {
    openCheckoutSession: OpenCheckoutSession;
    recordPaymentProgress: RecordPaymentProgress;
    closeCanceledSession: CloseCanceledSession;
    recordAuthenticationRequired: RecordAuthenticationRequired;
    reopenAfterFailedAttempt: ReopenAfterFailedAttempt;
  },
): Promise<Subscription> {
  // The consumer's page knows one capture: a payment partially captured (more to come) is paid as far as the consumer is concerned.
  const progress: EventHandler<PaymentEventType> = (event, uow) =>
    useCases.recordPaymentProgress(
      uow,
      event.data.payment_id,
      (event.data.status === 'partially_captured' ? 'captured' : event.data.status) as PaymentProgress,
      event.data.failure_reason,
    );
  return createEventConsumer({
    bus: runtime.bus,
    store: runtime.store,
    logger: runtime.logger,
    group: VAULT_CONSUMER_GROUP,
    handlers: {
      'checkout.session.opened': (event, uow) => useCases.openCheckoutSession(uow, scopeOfEvent(event), event.data),
      'payment.authorized': progress,
      'payment.capturing': progress,
      'payment.captured': progress,
      'payment.failed': progress,
      'payment.canceled': (event, uow) => useCases.closeCanceledSession(uow, event.data.payment_id),
      // 3-D Secure: the page takes the consumer to the issuer's page.
      'payment.action_required': (event, uow) => useCases.recordAuthenticationRequired(uow, event.data.payment_id, event.data.action, event.occurred_at),
      // A card failed and the payment takes another: the page shows the form again.
      'payment.attempt_failed': (event, uow) => useCases.reopenAfterFailedAttempt(uow, event.data.payment_id, event.data.attempt),
    },
  });
}
