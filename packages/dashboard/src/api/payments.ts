// A payment's figures read the same way from both shapes the API answers (a Payment, whose amount is an
// object, and an EarlierPayment, whose amount is a number).
import type { Payment } from './types';

export function requestedAmount(payment: Payment): number {
  return typeof payment.amount === 'number' ? payment.amount : payment.amount.requested;
}

export function capturedAmount(payment: Payment): number | undefined {
  return typeof payment.amount === 'number' ? (payment.status === 'captured' ? payment.amount : undefined) : payment.amount.captured;
}

/** What a capture may still take (amount.capturable); undefined for a payment that says none (not authorized yet, or the earlier interface's). */
export function capturableAmount(payment: Payment): number | undefined {
  return typeof payment.amount === 'number' ? undefined : payment.amount.capturable;
}

export function refundedAmount(payment: Payment): number {
  return (typeof payment.amount === 'number' ? ('amount_refunded' in payment ? payment.amount_refunded : undefined) : payment.amount.refunded) ?? 0;
}

/** What open or lost chargebacks hold or took of the payment (amount.disputed; the earlier interface shows none). */
export function disputedAmount(payment: Payment): number {
  return typeof payment.amount === 'number' ? 0 : (payment.amount.disputed ?? 0);
}

/** What the processor has not settled yet of the payment's refunds (from its refunds: both interfaces list them). */
export function refundPendingAmount(refunds: Array<{ status: string; amount: number }>): number {
  return refunds.filter((refund) => refund.status === 'pending').reduce((sum, refund) => sum + refund.amount, 0);
}

/**
 * The status a person reads: a captured payment whose refunds add up to what was captured is `refunded`,
 * one partly refunded `partially_refunded` (the API keeps `captured`; amount.refunded says it); else the status.
 */
export function shownStatus(payment: Payment): string {
  const captured = capturedAmount(payment);
  const refunded = refundedAmount(payment);
  if (payment.status !== 'captured' || !captured || refunded <= 0) return payment.status;
  return refunded >= captured ? 'refunded' : 'partially_refunded';
}

/** Whether the payment is still moving by itself (a capture or a void the processor has not confirmed, a refund pending). */
export function isSettling(payment: Payment, refundPending: number): boolean {
  return payment.status === 'capturing' || payment.status === 'canceling' || refundPending > 0;
}

/** The 3-D Secure (or 3RI) result in words: "authenticated · ECI 05 · liability shift". */
export function authenticationOf(payment: Payment): string | null {
  const result = 'authentication' in payment ? payment.authentication : undefined;
  if (!result) return null;
  return [
    result.status.replace(/_/g, ' '),
    result.eci ? `ECI ${result.eci}` : null,
    result.liability_shift ? 'liability shift' : 'no liability shift',
    result.version ? `3DS ${result.version}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The cards tried on the hosted page: "2 cards; card 1 (400000******0002) card declined". */
export function attemptsOf(payment: Payment): string | null {
  const attempts = 'attempts' in payment ? payment.attempts : undefined;
  const failed = 'last_failed_attempt' in payment ? payment.last_failed_attempt : undefined;
  if (!attempts && !failed) return null;
  const cards = `${attempts ?? failed?.number ?? 1} ${(attempts ?? 1) === 1 ? 'card' : 'cards'}`;
  return failed
    ? `${cards}; card ${failed.number}${failed.masked_account_number ? ` (${failed.masked_account_number})` : ''} ${failed.failure_reason.replace(/_/g, ' ')}`
    : cards;
}

export function flowOf(payment: Payment): string | null {
  return 'flow' in payment && typeof payment.flow === 'string' ? payment.flow : null;
}

export function maskedCardOf(payment: Payment): string | null {
  if ('source' in payment && payment.source) return payment.source.masked_account_number;
  if ('payment_method' in payment && payment.payment_method?.card) return payment.payment_method.card.masked_number;
  return null;
}
