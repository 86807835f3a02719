import type { Payment, PaymentStatus } from './payment';
import { IllegalPaymentMove } from './payment-errors';

/**
 * The one place that says which move is legal (the spec's table, plus processing → failed for
 * declines, errors and expired sessions). Every state change goes through movePayment.
 *
 * Canceling: processing → canceled (the merchant cancels before the consumer entered a card: the
 * session closes), authorized → canceled (the void is confirmed in its answer: the simulator),
 * authorized → canceling → canceled (the processor confirms the void by notification: Adyen
 * CANCELLATION, Checkout.com payment_voided), canceling → authorized (the processor refused the void:
 * the authorization stands). A captured payment is refunded, never canceled: refunds leave it captured.
 *
 * Manual captures, several per payment (capture-payment.ts): authorized → capturing → partially_captured
 * (a capture with final_capture false settled: more may follow) or captured (the final one settled: the
 * processor released the rest). A capture that fails does not fail the payment: capturing → authorized
 * (or partially_captured, when earlier captures settled), so it can be captured again while the
 * authorization is valid, or canceled. Canceling a partially captured payment releases what is left:
 * partially_captured → captured (confirmed in the answer) or → canceling → captured (confirmed by
 * notification), canceling → partially_captured when the processor refused.
 */
export const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  processing: ['authorized', 'captured', 'failed', 'canceled'],
  authorized: ['capturing', 'canceling', 'canceled'],
  capturing: ['captured', 'partially_captured', 'authorized'],
  partially_captured: ['capturing', 'canceling', 'captured'],
  captured: [],
  // Only a capture reported failed and then succeeded after all (a processor's own recapture): see
  // domain/payment/settle-late-capture.ts, the one caller that makes this move.
  failed: ['captured'],
  canceling: ['canceled', 'authorized', 'captured', 'partially_captured'],
  canceled: [],
};

export function canMove(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The payment after a legal move (pure); throws IllegalPaymentMove for any other. */
export function movePayment(payment: Payment, to: PaymentStatus, changes: Partial<Payment>, at: Date): Payment {
  if (!canMove(payment.status, to)) throw new IllegalPaymentMove(payment.status, to);
  return { ...payment, ...changes, status: to, updated_at: at.toISOString() };
}
