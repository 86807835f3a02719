import type { Payment, ProcessorTransaction } from '../domain/payment/payment';
import { shownAmounts } from '../domain/payment/payment';
import { isConsumerPresent } from '../domain/payment-vocabulary/use-case';
import type { AuthenticationResult } from '../domain/payment-vocabulary/authentication';
import { declineView, routingView } from './routing.view';

/** What a merchant sees of a payment: the spec's fields for its use case, nothing internal (token, progress, decision). */
export function toPaymentView(payment: Payment): Record<string, unknown> {
  const subsequent = payment.initial_payment_id !== null;
  return {
    id: payment.id,
    livemode: payment.mode === 'live',
    amount: shownAmounts(payment),
    ...actionRequirementView(payment),
    ...(subsequent ? { authentication_preference: payment.authentication_preference } : {}),
    created_at: payment.created_at,
    ...(payment.credential_id !== null ? { credential_id: payment.credential_id } : {}),
    currency_code: payment.currency_code,
    ...(payment.decision
      ? { flow: payment.decision.flow.name, flow_decision: { matrix_version: payment.decision.matrix_version, rule: payment.decision.rule } }
      : {}),
    ...(subsequent ? { initial_payment_id: payment.initial_payment_id } : {}),
    ...(payment.use_case === 'RECURRING' ? { recurring_expiry: payment.recurring_expiry, recurring_frequency: payment.recurring_frequency } : {}),
    reference: payment.reference,
    ...(payment.source ? { source: { ...payment.source } } : {}),
    status: payment.status,
    use_case: payment.use_case,
    ...(payment.status === 'failed' ? { failure_reason: payment.failure_reason } : {}),
    ...cancellationView(payment),
    ...authenticationView(payment),
    ...cardAttemptsView(payment),
    ...(payment.status === 'failed' && payment.decline ? { decline: declineView(payment.decline) } : {}),
    ...(payment.routing ? { routing: routingView(payment.routing) } : {}),
    ...(payment.metadata ? { metadata: { ...payment.metadata } } : {}),
  };
}

/**
 * Consumer-present payments: the session that starts the hosted page (or the SDK), and the page's address
 * (absent on payments made before it was recorded).
 */
export function actionRequirementView(payment: Payment): Record<string, unknown> {
  if (!isConsumerPresent(payment.use_case) || !payment.session) return {};
  return {
    action_requirement: {
      type: 'use_sdk',
      session_id: payment.session.id,
      ...(payment.session.checkout_url ? { checkout_url: payment.session.checkout_url } : {}),
    },
  };
}

/**
 * The cards tried on the hosted page: `attempts` once a card was entered, `last_failed_attempt` once one
 * failed (the payment then waits for another, or failed with that reason when the session ended).
 */
export function cardAttemptsView(payment: Payment): Record<string, unknown> {
  const failed = payment.last_failed_attempt;
  return {
    ...(payment.card_attempts ? { attempts: payment.card_attempts } : {}),
    ...(failed
      ? {
          last_failed_attempt: {
            number: failed.number,
            failure_reason: failed.failure_reason,
            masked_account_number: failed.masked_account_number,
            failed_at: failed.failed_at,
            ...(failed.authentication ? { authentication: authenticationResultView(failed.authentication) } : {}),
            ...(failed.decline ? { decline: declineView(failed.decline) } : {}),
          },
        }
      : {}),
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
    ...(transaction.attempt ? { attempt: transaction.attempt } : {}),
    ...(transaction.decline ? { decline: declineView(transaction.decline) } : {}),
    created_at: transaction.created_at,
  };
}

/** A canceling or canceled payment says why (requested_by_merchant, authorization_expired). */
export function cancellationView(payment: Payment): Record<string, unknown> {
  return payment.cancellation && (payment.status === 'canceled' || payment.status === 'canceling') ? { cancellation_reason: payment.cancellation.reason } : {};
}

/** What a merchant sees of an authentication: never the authentication value or the DS transaction id. */
function authenticationResultView(result: AuthenticationResult): Record<string, unknown> {
  return { type: result.type, version: result.version, status: result.status, eci: result.eci, liability_shift: result.liability_shift };
}

/**
 * The 3-D Secure (or 3RI) authentication that ran, once known: never the authentication value or the DS
 * transaction id. A payment waiting for its consumer says so (status processing, the action on the hosted page).
 */
export function authenticationView(payment: Payment): Record<string, unknown> {
  const result = payment.authentication;
  return {
    ...(result ? { authentication: authenticationResultView(result) } : {}),
    ...(payment.pending_authentication && payment.status === 'processing' ? { next_action: { type: 'consumer_authentication' } } : {}),
  };
}
