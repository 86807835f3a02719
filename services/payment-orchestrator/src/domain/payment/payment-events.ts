import { scopeOfDocument } from '@vaultline/core';
import {
  checkoutSessionOpenedV1,
  paymentAuthorizedV1,
  paymentCanceledV1,
  paymentCapturedV1,
  paymentCaptureFailedV1,
  paymentCapturingV1,
  paymentActionRequiredV1,
  paymentFailedV1,
  paymentProcessingV1,
  type EventData,
  domainEvent,
  type DomainEvent,
} from '@vaultline/contracts';
import { earlierEventData, shownUseCaseOf } from '../earlier/earlier-payment';
import { shownAmounts, type Payment, type PaymentStatus, type PendingCapture } from './payment';
import type { AuthenticationResult } from '../payment-vocabulary/authentication';
import type { Decline } from '../declines/decline';

const definitions = {
  processing: paymentProcessingV1,
  authorized: paymentAuthorizedV1,
  capturing: paymentCapturingV1,
  // A capture that settled with more to come: payment.captured, one per capture.
  partially_captured: paymentCapturedV1,
  captured: paymentCapturedV1,
  failed: paymentFailedV1,
  canceled: paymentCanceledV1,
} as const;

/** One manual capture as events tell it (`capture`). */
export type CaptureData = NonNullable<EventData<typeof paymentProcessingV1>['capture']>;

/** A manual capture as events tell it. */
export function captureDataOf(capture: PendingCapture, status: CaptureData['status'], failureReason: string | null = null): CaptureData {
  return {
    sequence: capture.sequence ?? 1,
    amount: capture.amount,
    final: capture.final !== false,
    status,
    failure_reason: failureReason,
    reference: capture.reference,
  };
}

/** What every payment.* event says of the payment (the merchant's webhook maps it field by field). */
export function paymentEventData(payment: Payment, capture?: CaptureData): EventData<typeof paymentProcessingV1> {
  return {
    payment_id: payment.id,
    status: payment.status,
    amount: shownAmounts(payment),
    ...(capture ? { capture } : {}),
    currency_code: payment.currency_code,
    use_case: shownUseCaseOf(payment),
    reference: payment.reference,
    credential_id: payment.credential_id,
    initial_payment_id: payment.initial_payment_id,
    flow: payment.decision?.flow.name ?? null,
    failure_reason: payment.failure_reason,
    masked_account_number: payment.source?.masked_account_number ?? null,
    ...(payment.status === 'canceled' ? { cancellation_reason: payment.cancellation?.reason ?? null } : {}),
    ...(payment.earlier ? earlierEventData(payment.earlier) : {}),
    ...(payment.authentication ? { authentication: authenticationData(payment.authentication) } : {}),
    ...(payment.decline && payment.status === 'failed' ? { decline: declineData(payment.decline) } : {}),
  };
}

/** What events say of a decline (added within v1 on payment.failed and on payment.attempt_failed's attempt). */
export function declineData(decline: Decline) {
  return {
    category: decline.category,
    code: decline.code,
    processor_code: decline.processor_code,
    processor_message: decline.processor_message,
    advice_code: decline.advice_code,
    retryable: decline.retryable,
  };
}

/** What events say of an authentication: never the authentication value or the DS transaction id. */
function authenticationData(result: AuthenticationResult) {
  return { type: result.type, version: result.version, status: result.status, eci: result.eci, liability_shift: result.liability_shift };
}

/**
 * The consumer must authenticate: the hosted page (the vault hears this event) takes them to the action's
 * address and passes on the return parameters named here. The payment stays processing.
 */
export function paymentActionRequiredEvent(payment: Payment, at: Date): DomainEvent {
  const pending = payment.pending_authentication;
  if (!pending) throw new Error('payment.action_required needs a pending authentication');
  return domainEvent(paymentActionRequiredV1, {
    scope: scopeOfDocument(payment),
    occurredAt: at,
    data: { ...paymentEventData(payment), action: { ...pending.action, return_parameters: pending.return_parameters } },
  });
}

/**
 * The event of the move that put the payment in its current status (payment.<status>). `canceling` has
 * none: the merchant hears payment.canceled once the processor confirmed the void.
 */
export function paymentMovedEvent(payment: Payment, at: Date, capture?: CaptureData): DomainEvent {
  const status: PaymentStatus = payment.status;
  if (status === 'canceling') throw new Error('canceling publishes no event');
  const definition = definitions[status];
  return domainEvent(definition, { scope: scopeOfDocument(payment), data: paymentEventData(payment, capture), occurredAt: at });
}

/** A manual capture failed: the payment is back to authorized (or partially_captured), capturable again. */
export function paymentCaptureFailedEvent(payment: Payment, at: Date, capture: CaptureData): DomainEvent {
  return domainEvent(paymentCaptureFailedV1, { scope: scopeOfDocument(payment), data: paymentEventData(payment, capture), occurredAt: at });
}

export function checkoutSessionOpenedEvent(payment: Payment, at: Date): DomainEvent {
  const session = payment.session!;
  return domainEvent(checkoutSessionOpenedV1, {
    scope: scopeOfDocument(payment),
    occurredAt: at,
    data: {
      session_id: session.id,
      payment_id: payment.id,
      amount: payment.amount.requested,
      currency: payment.currency_code,
      expires_at: session.expires_at,
      return_url: session.return_url,
      allowed_origins: session.allowed_origins ?? [],
      ...(session.description ? { description: session.description } : {}),
      ...(session.locale ? { locale: session.locale } : {}),
      ...(session.merchant_name ? { merchant_name: session.merchant_name } : {}),
      ...(session.stored_card ? { stored_card: { ...session.stored_card } } : {}),
    },
  });
}
