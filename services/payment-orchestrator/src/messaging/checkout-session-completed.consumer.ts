import { type Scope, scopeOfDocument } from '@vaultline/core';
import { createEventConsumer, type Bus, type Subscription } from '@vaultline/bus';
import { scopeOfEvent } from '@vaultline/contracts';
import type { Logger } from '@vaultline/logger';
import type { DocumentStore } from '@vaultline/store';
import type { CompleteCheckoutSession } from '../domain/payment/complete-checkout-session';
import type { ReturnFromAuthentication } from '../domain/payment/return-from-authentication';
import type { AbandonCheckoutSession } from '../domain/payment/abandon-checkout-session';

export const CHECKOUT_SESSIONS_GROUP = 'payment-orchestrator.checkout-sessions';

export interface CheckoutSessionCompletedConsumerOptions {
  bus: Bus;
  store: DocumentStore;
  logger: Logger;
  completeCheckoutSession: CompleteCheckoutSession;
  returnFromAuthentication: ReturnFromAuthentication;
  abandonCheckoutSession: AbandonCheckoutSession;
  /** Starts the payment's flow once the card is committed on it. */
  runPayment: (scope: Scope, paymentId: string) => void;
}

/**
 * checkout.session.completed (from the vault): the card is on the payment; the flow runs.
 * checkout.session.returned: the consumer is back from authenticating; the authorization resumes.
 * checkout.session.abandoned: the consumer left the page while it waited for a card; the payment fails.
 */
export function checkoutSessionCompletedConsumer(options: CheckoutSessionCompletedConsumerOptions): Promise<Subscription> {
  return createEventConsumer({
    bus: options.bus,
    store: options.store,
    logger: options.logger,
    group: CHECKOUT_SESSIONS_GROUP,
    handlers: {
      'checkout.session.completed': async (event, uow) => {
        const payment = await options.completeCheckoutSession(uow, scopeOfEvent(event), event.data);
        if (payment) uow.afterCommit(() => options.runPayment(scopeOfDocument(payment), payment.id));
      },
      'checkout.session.returned': async (event, uow) => {
        const payment = await options.returnFromAuthentication(uow, scopeOfEvent(event), event.data);
        if (payment) uow.afterCommit(() => options.runPayment(scopeOfDocument(payment), payment.id));
      },
      'checkout.session.abandoned': async (event, uow) => {
        await options.abandonCheckoutSession(uow, scopeOfEvent(event), event.data);
      },
    },
  });
}
