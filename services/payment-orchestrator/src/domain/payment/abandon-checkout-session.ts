import type { Clock, Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import { endingChanges } from './card-attempts';
import { effectiveTime, type Payment } from './payment';
import { paymentMovedEvent } from './payment-events';
import type { PaymentRepository } from './payment-ports';
import { movePayment } from './payment-status';

/** What checkout.session.abandoned carries. */
export interface AbandonedSession {
  session_id: string;
  payment_id: string;
}

/** Resolves with the failed payment, or null when the event changed nothing. */
export type AbandonCheckoutSession = (uow: UnitOfWork, scope: Scope, abandoned: AbandonedSession) => Promise<Payment | null>;

/**
 * The consumer left the hosted page while it waited for a card (after a failed one: "Return to the shop"):
 * the payment fails with the last card's reason (`session_abandoned` when none was tried), at once rather
 * than when the session expires, so the shop the consumer returns to reads a final status. A payment with
 * a card in flight, or no longer processing, is left to that card's outcome.
 */
export function abandonCheckoutSession({ payments, clock }: { payments: PaymentRepository; clock: Clock }): AbandonCheckoutSession {
  return async (uow, scope, abandoned) => {
    const payment = await payments.get(scope, abandoned.payment_id);
    if (!payment || payment.session?.id !== abandoned.session_id) return null;
    if (payment.status !== 'processing' || payment.token_id !== null) return null;
    const now = clock.now();
    const failed = movePayment(payment, 'failed', { ...endingChanges(payment, 'session_abandoned'), next_run_at: null }, now);
    uow.publish(paymentMovedEvent(failed, effectiveTime(payment, now)));
    return payments.update(uow, failed);
  };
}
