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

export function flowOf(payment: Payment): string | null {
  return 'flow' in payment && typeof payment.flow === 'string' ? payment.flow : null;
}

export function maskedCardOf(payment: Payment): string | null {
  if ('source' in payment && payment.source) return payment.source.masked_account_number;
  if ('payment_method' in payment && payment.payment_method?.card) return payment.payment_method.card.masked_number;
  return null;
}
