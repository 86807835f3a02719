import type { Payment, ProcessorTransaction } from '../domain/payment/payment';
import { capturableAmount, isConsumerPresent } from '../domain/payment/payment';

/** What a merchant sees of a payment: the spec's fields for its use case, nothing internal (token, progress, decision). */
export function toPaymentView(payment: Payment): Record<string, unknown> {
  const subsequent = payment.initial_payment_id !== null;
  return {
    id: payment.id,
    livemode: payment.mode === 'live',
    // amount.refunded appears with the payment's first refund (the sum of its succeeded refunds);
    // amount.capturable with the authorization (what a capture may still take; 0 when nothing can).
    amount: { ...payment.amount, ...capturableView(payment) },
    ...(isConsumerPresent(payment.use_case) && payment.session ? { action_requirement: { type: 'use_sdk', session_id: payment.session.id } } : {}),
    ...(subsequent ? { authentication_preference: payment.authentication_preference } : {}),
    created_at: payment.created_at,
    ...(payment.credential_id !== null ? { credential_id: payment.credential_id } : {}),
    currency_code: payment.currency_code,
    ...(payment.decision ? { flow: payment.decision.flow.name, flow_decision: { matrix_version: payment.decision.matrix_version, rule: payment.decision.rule } } : {}),
    ...(subsequent ? { initial_payment_id: payment.initial_payment_id } : {}),
    ...(payment.use_case === 'RECURRING' ? { recurring_expiry: payment.recurring_expiry, recurring_frequency: payment.recurring_frequency } : {}),
    reference: payment.reference,
    ...(payment.source ? { source: { ...payment.source } } : {}),
    status: payment.status,
    use_case: payment.use_case,
    ...(payment.status === 'failed' ? { failure_reason: payment.failure_reason } : {}),
    ...cancellationView(payment),
    ...authenticationView(payment),
    ...(payment.metadata ? { metadata: { ...payment.metadata } } : {}),
  };
}

export function toTransactionView(transaction: ProcessorTransaction): Record<string, unknown> {
  return {
    id: transaction.id,
    livemode: transaction.mode === 'live',
    processor: transaction.processor,
    kind: transaction.kind,
    status: transaction.status,
    failure_reason: transaction.failure_reason,
    amount: transaction.amount,
    ...(transaction.use_case ? { use_case: transaction.use_case } : {}),
    created_at: transaction.created_at,
  };
}

/** amount.capturable, once the payment is authorized. */
export function capturableView(payment: Payment): { capturable?: number } {
  return payment.amount.authorized !== undefined ? { capturable: capturableAmount(payment) } : {};
}

/** A canceling or canceled payment says why (requested_by_merchant, authorization_expired). */
export function cancellationView(payment: Payment): Record<string, unknown> {
  return payment.cancellation && (payment.status === 'canceled' || payment.status === 'canceling') ? { cancellation_reason: payment.cancellation.reason } : {};
}

/**
 * The 3-D Secure (or 3RI) authentication that ran, once known: never the authentication value or the DS
 * transaction id. A payment waiting for its consumer says so (status processing, the action on the hosted page).
 */
export function authenticationView(payment: Payment): Record<string, unknown> {
  const result = payment.authentication;
  return {
    ...(result ? { authentication: { type: result.type, version: result.version, status: result.status, eci: result.eci, liability_shift: result.liability_shift } } : {}),
    ...(payment.pending_authentication && payment.status === 'processing' ? { next_action: { type: 'consumer_authentication' } } : {}),
  };
}
