import type { CaptureOutcome, ProcessorPayment, RefundOutcome, StepOutcome } from '../../domain/processor-port/processor-port';
import { checkoutDecline, checkoutIssuerCountry } from './checkout.declines';
import {
  CARD_PLACEHOLDERS,
  field,
  isMerchantInitiated,
  text,
  transportOutcome,
  type AuthorizationInput,
  type ProcessorHttpRequest,
  type ProcessorHttpResponse,
} from '../processor-wire';
import type { CheckoutCredentials } from './checkout.account';
import { toProcessorAmount } from '../../domain/processor-port/processor-amounts';
import { checkoutAmounts } from './checkout.amounts';

/** An API amount (ISO minor units) in Checkout.com's units: the one conversion of every request (checkout.amounts.ts). */
const checkoutAmount = (amount: number, currency: string): number => toProcessorAmount(checkoutAmounts, amount, currency);

type PaymentTypeFields = { payment_type?: 'Regular' | 'Recurring' | 'Unscheduled'; merchant_initiated?: boolean };

/**
 * Stored-credential fields by use case, per Checkout.com's stored card details rules. A guest one-off
 * payment is Regular (the default, so not sent); a one-off that stores the card or pays with a stored one
 * is a cardholder-initiated Regular payment, said explicitly.
 */
function paymentTypeFields(payment: AuthorizationInput): PaymentTypeFields {
  switch (payment.use_case) {
    case 'ONE_OFF':
      return payment.stored_credential === 'none' ? {} : { payment_type: 'Regular', merchant_initiated: false };
    case 'RECURRING':
      return { payment_type: 'Recurring', merchant_initiated: false };
    case 'UNSCHEDULED':
      return { payment_type: 'Unscheduled', merchant_initiated: false };
    case 'SUBSEQUENT_RECURRING':
      return { payment_type: 'Recurring', merchant_initiated: true };
    case 'SUBSEQUENT_UNSCHEDULED':
      return { payment_type: 'Unscheduled', merchant_initiated: true };
  }
}

/**
 * The source's stored-credential flags: `stored: true` whenever the card details were stored by an
 * earlier payment (full card API, cardholder- and merchant-initiated alike); `store_for_future_use`
 * defaults to true at Checkout.com (the scheme is told the card is added), so a one-off payment says
 * true when it stores the card and false when it does not. Recurring and unscheduled initial payments
 * store by their payment_type and send neither.
 */
function sourceStorageFlags(payment: AuthorizationInput): { stored?: true; store_for_future_use?: boolean } {
  if (payment.stored_credential === 'stored') return { stored: true };
  if (payment.use_case !== 'ONE_OFF') return {};
  return { store_for_future_use: payment.stored_credential === 'storing' };
}

function headers(credentials: CheckoutCredentials, idempotencyKey: string): Record<string, string> {
  return { 'content-type': 'application/json', authorization: `Bearer ${credentials.secret_key}`, 'cko-idempotency-key': idempotencyKey };
}

/**
 * `POST /payments` as a forwarder template (pure): the card fields are placeholders (the forwarder types
 * the expiry ones as integers for this destination). `reference` is the payment id, so a webhook names the
 * payment even before its answer was stored. A subsequent payment names the initial one by its payment id
 * (`pay_…`), or, when that is unknown, by the scheme transaction id the initial answer returned.
 */
export function toCheckoutPaymentRequest(payment: AuthorizationInput, credentials: CheckoutCredentials): ProcessorHttpRequest {
  const merchantInitiated = isMerchantInitiated(payment.use_case);
  const source: Record<string, string | boolean> = {
    type: 'card',
    number: CARD_PLACEHOLDERS.account_number,
    expiry_month: CARD_PLACEHOLDERS.expiration_month,
    expiry_year: CARD_PLACEHOLDERS.expiration_year,
  };
  if (!merchantInitiated && payment.security_code_available) source.cvv = CARD_PLACEHOLDERS.security_code;
  if (payment.cardholder_name) source.name = payment.cardholder_name;
  Object.assign(source, sourceStorageFlags(payment));
  let previous: { previous_payment_id: string } | Record<string, never> = {};
  if (merchantInitiated) {
    const previousPaymentId = payment.initial_processor_reference ?? payment.network_transaction_reference;
    if (!previousPaymentId) throw new Error('A merchant-initiated Checkout.com payment needs the initial payment id or its scheme_id');
    previous = { previous_payment_id: previousPaymentId };
  }
  return {
    method: 'POST',
    path: '/payments',
    headers: headers(credentials, payment.idempotency_key),
    body: {
      source,
      amount: checkoutAmount(payment.amount, payment.currency_code),
      currency: payment.currency_code,
      reference: payment.payment_id,
      capture: payment.capture_mode === 'automatic',
      processing_channel_id: credentials.processing_channel_id,
      ...paymentTypeFields(payment),
      ...previous,
    },
    carries_card_data: true,
  };
}

/**
 * `POST /payments/{id}/captures` (pure). `partialAmount` only for a partial capture: without an amount
 * Checkout.com captures the whole authorized amount. `capture_type`: NonFinal keeps the rest of the
 * authorization for later captures; Final (Checkout.com's default, said explicitly) voids what is left.
 */
export function toCheckoutCaptureRequest(
  payment: ProcessorPayment,
  credentials: CheckoutCredentials,
  paymentId: string,
  partialAmount: number | null,
): ProcessorHttpRequest {
  return {
    method: 'POST',
    path: `/payments/${encodeURIComponent(paymentId)}/captures`,
    headers: headers(credentials, payment.idempotency_key),
    body: {
      ...(partialAmount === null ? {} : { amount: checkoutAmount(partialAmount, payment.currency_code) }),
      reference: payment.payment_id,
      capture_type: payment.capture?.final === false ? 'NonFinal' : 'Final',
    },
    carries_card_data: false,
  };
}

/** `POST /payments/{id}/voids` (pure): releases an authorization this payment does not use. */
export function toCheckoutVoidRequest(payment: ProcessorPayment, credentials: CheckoutCredentials, paymentId: string): ProcessorHttpRequest {
  return {
    method: 'POST',
    path: `/payments/${encodeURIComponent(paymentId)}/voids`,
    headers: headers(credentials, payment.idempotency_key),
    body: { reference: payment.payment_id },
    carries_card_data: false,
  };
}

/** The /voids answer: 202 with an action_id once Checkout.com accepted the void. */
export function fromCheckoutVoidResponse(response: ProcessorHttpResponse): StepOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const actionId = text(field(response.body, 'action_id'));
  if (response.status !== 202 || !actionId) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: actionId };
  return { status: 'succeeded', processor_reference: actionId };
}

/** A response code's failure_reason (checkout.declines.ts: Checkout.com's list). */
export { checkoutFailureReason } from './checkout.declines';

/** The /payments answer → our step outcome (pure). */
export function fromCheckoutPaymentResponse(response: ProcessorHttpResponse): StepOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const id = text(field(response.body, 'id'));
  switch (field(response.body, 'status')) {
    case 'Authorized':
    case 'Captured':
      if (!id || field(response.body, 'approved') !== true) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: id };
      return {
        status: 'succeeded',
        processor_reference: id,
        network_transaction_reference: text(field(response.body, 'scheme_id')),
        ...countryOf(response.body),
      };
    case 'Declined': {
      // The decline normalised (checkout.declines.ts): its category, Checkout.com's code and summary, the scheme's advice.
      const decline = checkoutDecline(response.body);
      return { status: 'failed', failure_reason: decline.code, processor_reference: id, decline, ...countryOf(response.body) };
    }
    default:
      // Pending (a 3-D Secure redirect) or anything else: a payment sent without a shopper session cannot complete it.
      return { status: 'failed', failure_reason: 'processor_unexpected_result', processor_reference: id };
  }
}

/** The card's country of issue when Checkout.com reports it (routing's segment). */
function countryOf(body: unknown): { issuer_country?: string } {
  const country = checkoutIssuerCountry(body);
  return country ? { issuer_country: country } : {};
}

/** Checkout.com confirms a capture by webhook (payment_captured / payment_capture_declined), so until then it is pending. */
export const CHECKOUT_CAPTURE_RECHECK_MS = 5 * 60_000;

/** The /captures answer (202 with an action_id) → pending until the webhook settles it (pure). */
export function fromCheckoutCaptureResponse(response: ProcessorHttpResponse): CaptureOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const actionId = text(field(response.body, 'action_id'));
  if (response.status !== 202 || !actionId) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: actionId };
  return { status: 'pending', processor_reference: actionId, poll_after_ms: CHECKOUT_CAPTURE_RECHECK_MS };
}

/**
 * `POST /payments/{id}/refunds` (pure): the refund's amount, and the refund's id as `reference`; the
 * idempotency key (Cko-Idempotency-Key) is the refund's own.
 */
export function toCheckoutRefundRequest(
  payment: ProcessorPayment,
  credentials: CheckoutCredentials,
  paymentId: string,
  refundId: string,
): ProcessorHttpRequest {
  return {
    method: 'POST',
    path: `/payments/${encodeURIComponent(paymentId)}/refunds`,
    headers: headers(credentials, payment.idempotency_key),
    body: { amount: checkoutAmount(payment.amount, payment.currency_code), reference: refundId },
    carries_card_data: false,
  };
}

/**
 * Checkout.com confirms a refund by webhook (payment_refunded / payment_refund_declined); without one the
 * payment's actions are asked (GET /payments/{id}/actions), first this soon, then on a backoff.
 */
export const CHECKOUT_REFUND_RECHECK_MS = 60_000;

/** The /refunds answer (202 with an action_id) → pending until the webhook settles it (pure). */
export function fromCheckoutRefundResponse(response: ProcessorHttpResponse): RefundOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const actionId = text(field(response.body, 'action_id'));
  if (response.status !== 202 || !actionId) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: actionId };
  return { status: 'pending', processor_reference: actionId, poll_after_ms: CHECKOUT_REFUND_RECHECK_MS };
}

/** The headers every request of this API carries (credentials; the idempotency key where given), for the plugin's other requests. */
export const checkoutHeaders = headers;
