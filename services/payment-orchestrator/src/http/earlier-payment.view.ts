import type { Customer } from '../domain/customers/customer';
import type { PaymentMethod } from '../domain/customers/payment-method';
import { shownPaymentMethod, storedCardOf } from '../domain/earlier/earlier-payment';
import type { Payment } from '../domain/payment/payment';
import { actionRequirementView, authenticationView, cancellationView, cardAttemptsView, toPaymentView } from './payment.view';

/** A payment in the shape of the interface that created it. */
export function toAnyPaymentView(payment: Payment): Record<string, unknown> {
  return payment.earlier ? toEarlierPaymentView(payment) : toPaymentView(payment);
}

/**
 * The earlier interface's payment: the spec's fields (id, amount as an integer, currency_code, customer,
 * payment_method, use_case) plus status, created_at, the session of a consumer-present payment and, once
 * failed, failure_reason. payment_method is null until the card is known; it carries an id once stored.
 */
export function toEarlierPaymentView(payment: Payment): Record<string, unknown> {
  const earlier = payment.earlier!;
  const livemode = payment.mode === 'live';
  // A stored method (with its id) is a merchant object of the payment's mode; a card not stored is part of the payment.
  const paymentMethod = earlier.payment_method
    ? { ...earlier.payment_method, livemode }
    : payment.source
      ? { type: 'card', card: storedCardOf(payment.source) }
      : null;
  return {
    id: payment.id,
    livemode,
    amount: payment.amount.requested,
    // The earlier interface's amount is an integer: what was refunded of a captured payment stands beside it.
    ...(payment.amount.refunded !== undefined ? { amount_refunded: payment.amount.refunded } : {}),
    ...actionRequirementView(payment),
    created_at: payment.created_at,
    currency_code: payment.currency_code,
    ...(earlier.customer ? { customer: { ...earlier.customer } } : {}),
    payment_method: paymentMethod,
    ...(payment.reference !== null ? { reference: payment.reference } : {}),
    status: payment.status,
    use_case: earlier.use_case,
    ...(payment.status === 'failed' ? { failure_reason: payment.failure_reason } : {}),
    ...cancellationView(payment),
    ...authenticationView(payment),
    ...cardAttemptsView(payment),
    ...(payment.metadata ? { metadata: { ...payment.metadata } } : {}),
  };
}

export function toCustomerView(customer: Customer): Record<string, unknown> {
  return {
    id: customer.id,
    livemode: customer.mode === 'live',
    name: customer.name,
    email: customer.email,
    metadata: customer.metadata ?? {},
    created_at: customer.created_at,
  };
}

/** The spec's shape (id, type, and card or npr_mandate) and livemode. */
export function toPaymentMethodView(method: PaymentMethod): Record<string, unknown> {
  return { ...shownPaymentMethod(method), livemode: method.mode === 'live' };
}
