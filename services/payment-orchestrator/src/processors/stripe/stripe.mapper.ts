import type { AuthenticationResult } from '../../domain/payment-vocabulary/authentication';
import { stripeDecline, stripeIssuerCountry } from './stripe.declines';
import type { AuthorizationOutcome, CaptureOutcome, ProcessorPayment, RefundOutcome, StepOutcome } from '../../domain/processor-port/processor-port';
import type { RefundReason } from '../../domain/payment-vocabulary/refund-reason';
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
import type { StripeCredentials } from './stripe.account';
import { toProcessorAmount } from '../../domain/processor-port/processor-amounts';
import { stripeAmounts } from './stripe.amounts';
import { STRIPE_API_VERSION } from './stripe.api-version';

/**
 * Stripe's PaymentIntents API, form-encoded (https://docs.stripe.com/api/payment_intents). Pure: requests
 * as the forwarder's templates (the card fields are its placeholders), answers to the engine's outcomes.
 */

type Form = Record<string, string>;

/** The API's amount (ISO minor units) in Stripe's units, as form text: the one conversion of every request (stripe.amounts.ts). */
const stripeAmount = (payment: Pick<ProcessorPayment, 'amount' | 'currency_code'>): string =>
  String(toProcessorAmount(stripeAmounts, payment.amount, payment.currency_code));

/** The answer carries the charge, for its network transaction id and 3-D Secure result. */
const EXPAND_CHARGE: Form = { 'expand[]': 'latest_charge' };

/** The secret key, the pinned API version, and the idempotency key where the call changes something (Stripe keeps keys 24 hours). */
function headers(credentials: StripeCredentials, idempotencyKey?: string): Record<string, string> {
  return {
    authorization: `Bearer ${credentials.secret_key}`,
    'stripe-version': STRIPE_API_VERSION,
    ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
  };
}

/**
 * Stored credentials: the first payment of a series (or a one-off that stores the card) says so with
 * `setup_future_usage=off_session`; a merchant-initiated one is `off_session=true` and names the series'
 * first authorization by its network transaction id (`payment_method_options[card][mit_exemption]
 * [network_transaction_id]`, which Stripe enables per account), and sends no security code.
 */
function storedCredentialFields(payment: AuthorizationInput): Form {
  if (isMerchantInitiated(payment.use_case)) {
    return { off_session: 'true', 'payment_method_options[card][mit_exemption][network_transaction_id]': payment.network_transaction_reference ?? '' };
  }
  return payment.stored_credential === 'storing' ? { setup_future_usage: 'off_session' } : {};
}

/**
 * 3-D Secure of a consumer-present payment: with the hosted page's way back, the issuer may ask for it
 * (Stripe answers requires_action with next_action.redirect_to_url, and sends the consumer back to
 * `return_url`); `always` asks for it (`request_three_d_secure=any`). Without a way back, or with 3-D
 * Secure off, a payment that would need it fails instead of waiting (`error_on_requires_action=true`).
 */
function authenticationFields(payment: AuthorizationInput): Form {
  if (isMerchantInitiated(payment.use_case)) return {};
  const consumer = payment.consumer_authentication;
  if (!consumer || consumer.three_ds === 'off') return { error_on_requires_action: 'true' };
  return { return_url: consumer.return_url, ...(consumer.three_ds === 'always' ? { 'payment_method_options[card][request_three_d_secure]': 'any' } : {}) };
}

/**
 * `POST /v1/payment_intents` with the card inline and `confirm=true`, as a forwarder template (pure).
 * `capture_method` from the flow; our payment id in `metadata[payment_id]`, so a webhook names the payment.
 * `payment_method_types[]=card`: a card PaymentIntent whatever the account's dashboard enables (without it,
 * automatic_payment_methods may be on by default and ask for a return_url on every confirmation). A
 * manual-capture one asks for multicapture (`request_multicapture=if_available`), so several captures can
 * follow where Stripe offers it.
 */
export function toStripePaymentIntentRequest(payment: AuthorizationInput, credentials: StripeCredentials): ProcessorHttpRequest {
  const merchantInitiated = isMerchantInitiated(payment.use_case);
  const card: Form = {
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': CARD_PLACEHOLDERS.account_number,
    'payment_method_data[card][exp_month]': CARD_PLACEHOLDERS.expiration_month,
    'payment_method_data[card][exp_year]': CARD_PLACEHOLDERS.expiration_year,
    ...(!merchantInitiated && payment.security_code_available ? { 'payment_method_data[card][cvc]': CARD_PLACEHOLDERS.security_code } : {}),
    ...(payment.cardholder_name ? { 'payment_method_data[billing_details][name]': payment.cardholder_name } : {}),
  };
  return {
    method: 'POST',
    path: '/v1/payment_intents',
    headers: headers(credentials, payment.idempotency_key),
    format: 'form',
    body: {
      amount: stripeAmount(payment),
      currency: payment.currency_code.toLowerCase(),
      confirm: 'true',
      capture_method: payment.capture_mode,
      'payment_method_types[]': 'card',
      ...(payment.capture_mode === 'manual' ? { 'payment_method_options[card][request_multicapture]': 'if_available' } : {}),
      ...card,
      ...storedCredentialFields(payment),
      ...authenticationFields(payment),
      'metadata[payment_id]': payment.payment_id,
      ...EXPAND_CHARGE,
    },
    carries_card_data: true,
  };
}

/** `GET /v1/payment_intents/{id}` with its charge: how it stands after the consumer's return, or a capture's. */
export function toStripeRetrieveRequest(credentials: StripeCredentials, intentId: string): ProcessorHttpRequest {
  return {
    method: 'GET',
    path: `/v1/payment_intents/${encodeURIComponent(intentId)}?expand%5B%5D=latest_charge`,
    headers: headers(credentials),
    carries_card_data: false,
  };
}

/**
 * `POST /v1/payment_intents/{id}/capture` with `amount_to_capture` (the engine's amount: partial or whole).
 * Multicapture: `final_capture=false` keeps the rest of the authorization for later captures; the last
 * capture after such ones says `final_capture=true` (Stripe then releases the rest). A single capture sends
 * neither (Stripe's default is true, and the field is taken only where multicapture is available).
 */
export function toStripeCaptureRequest(payment: ProcessorPayment, credentials: StripeCredentials, intentId: string): ProcessorHttpRequest {
  const capture = payment.capture;
  const finalCapture = capture && !capture.final ? { final_capture: 'false' } : capture && capture.sequence > 1 ? { final_capture: 'true' } : {};
  return {
    method: 'POST',
    path: `/v1/payment_intents/${encodeURIComponent(intentId)}/capture`,
    headers: headers(credentials, payment.idempotency_key),
    format: 'form',
    body: { amount_to_capture: stripeAmount(payment), ...finalCapture, ...EXPAND_CHARGE },
    carries_card_data: false,
  };
}

/** `GET /v1/refunds/{id}`: how a pending refund stands now (its status: pending, requires_action, succeeded, failed, canceled). */
export function toStripeRefundRetrieveRequest(credentials: StripeCredentials, refundId: string): ProcessorHttpRequest {
  return { method: 'GET', path: `/v1/refunds/${encodeURIComponent(refundId)}`, headers: headers(credentials), carries_card_data: false };
}

/** `POST /v1/payment_intents/{id}/cancel`: releases the authorization (Stripe answers it canceled at once). */
export function toStripeCancelRequest(payment: ProcessorPayment, credentials: StripeCredentials, intentId: string): ProcessorHttpRequest {
  return {
    method: 'POST',
    path: `/v1/payment_intents/${encodeURIComponent(intentId)}/cancel`,
    headers: headers(credentials, payment.idempotency_key),
    format: 'form',
    body: {},
    carries_card_data: false,
  };
}

/** Our refund reasons are Stripe's words. */
const REFUND_REASONS: Record<RefundReason, string> = { requested_by_customer: 'requested_by_customer', duplicate: 'duplicate', fraudulent: 'fraudulent' };

/** `POST /v1/refunds` for the PaymentIntent: `payment.amount` is the refund's, its idempotency key the refund's; our refund id in metadata. */
export function toStripeRefundRequest(payment: ProcessorPayment, credentials: StripeCredentials, intentId: string, refundId: string): ProcessorHttpRequest {
  return {
    method: 'POST',
    path: '/v1/refunds',
    headers: headers(credentials, payment.idempotency_key),
    format: 'form',
    body: {
      payment_intent: intentId,
      amount: stripeAmount(payment),
      ...(payment.refund_reason ? { reason: REFUND_REASONS[payment.refund_reason] } : {}),
      'metadata[refund_id]': refundId,
    },
    carries_card_data: false,
  };
}

/** A PaymentIntent's last_payment_error (or a 402's error) → our failure_reason (stripe.declines.ts). */
export function stripeFailureReason(error: unknown): string {
  return stripeDecline(error).code;
}

/** The expanded charge's 3-D Secure result → the engine's (no authentication value: Stripe keeps it). */
function stripeAuthenticationResult(charge: unknown): AuthenticationResult | null {
  const threeDs = field(field(field(charge, 'payment_method_details'), 'card'), 'three_d_secure');
  if (!threeDs || typeof threeDs !== 'object') return null;
  const result = text(field(threeDs, 'result'));
  const status =
    result === 'authenticated'
      ? 'authenticated'
      : result === 'attempt_acknowledged'
        ? 'attempted'
        : result === 'not_supported' || result === 'exempted'
          ? 'not_required'
          : 'failed';
  return {
    type: '3ds',
    version: text(field(threeDs, 'version')),
    status,
    eci: text(field(threeDs, 'electronic_commerce_indicator')),
    liability_shift: status === 'authenticated' || status === 'attempted',
    authentication_value: null,
    ds_transaction_id: text(field(threeDs, 'transaction_id')),
  };
}

/** What the consumer's return must carry for the resume: Stripe appends `payment_intent` (and its client secret) to return_url. */
const STRIPE_RETURN_PARAMETERS = ['payment_intent'];

/**
 * A PaymentIntent answer (create, or retrieve after the consumer's return) → the authorization's outcome
 * (pure). requires_capture (manual) and succeeded (automatic) are authorized, with the charge's network
 * transaction id; requires_action with a redirect asks the consumer to authenticate; a 402 is a decline,
 * with the PaymentIntent in the error.
 */
export function fromStripePaymentIntentResponse(response: ProcessorHttpResponse): AuthorizationOutcome {
  if (response.status === 402) {
    const error = field(response.body, 'error');
    const intent = field(error, 'payment_intent');
    const decline = stripeDecline(error);
    const country = stripeIssuerCountry(field(field(error, 'payment_method'), 'card'));
    return {
      status: 'failed',
      failure_reason: decline.code,
      processor_reference: text(field(intent, 'id')),
      decline,
      ...(country ? { issuer_country: country } : {}),
    };
  }
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const intent = response.body;
  const id = text(field(intent, 'id'));
  if (!id) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: null };
  const charge = field(intent, 'latest_charge');
  const authentication = stripeAuthenticationResult(charge);
  switch (field(intent, 'status')) {
    case 'requires_capture':
    case 'succeeded': {
      const card = field(field(charge, 'payment_method_details'), 'card');
      const country = stripeIssuerCountry(card);
      return {
        status: 'succeeded',
        processor_reference: id,
        network_transaction_reference: text(field(card, 'network_transaction_id')),
        ...(authentication ? { authentication } : {}),
        ...(country ? { issuer_country: country } : {}),
      };
    }
    case 'requires_action': {
      const next = field(intent, 'next_action');
      const url = text(field(field(next, 'redirect_to_url'), 'url'));
      if (field(next, 'type') !== 'redirect_to_url' || !url)
        return { status: 'failed', failure_reason: 'processor_unexpected_result', processor_reference: id };
      return {
        status: 'action_required',
        action: { type: 'redirect', url, method: 'GET', data: {} },
        processor_reference: id,
        resume: { payment_intent: id },
        return_parameters: STRIPE_RETURN_PARAMETERS,
      };
    }
    case 'requires_payment_method':
    case 'canceled': {
      const decline = stripeDecline(field(intent, 'last_payment_error'));
      const failure_reason = decline.code;
      const failed =
        failure_reason === 'authentication_failed'
          ? {
              type: '3ds' as const,
              version: null,
              status: 'failed' as const,
              eci: null,
              liability_shift: false,
              authentication_value: null,
              ds_transaction_id: null,
            }
          : authentication;
      return { status: 'failed', failure_reason, processor_reference: id, decline, ...(failed ? { authentication: failed } : {}) };
    }
    default:
      // processing, requires_confirmation: not an answer a confirmed card payment gives.
      return { status: 'failed', failure_reason: 'processor_unexpected_result', processor_reference: id };
  }
}

/**
 * Stripe captures in its answer; `processing` (asynchronous capture) waits for payment_intent.succeeded,
 * and the PaymentIntent is asked again this soon (then on a backoff: settlement-backoff.ts).
 */
export const STRIPE_CAPTURE_RECHECK_MS = 5_000;

/**
 * The /capture answer (or a retrieve while a capture settles) → the capture's outcome (pure). `succeeded`
 * is captured; `requires_capture` after a capture with final_capture false is captured too (multicapture: the
 * rest stays capturable); `processing` is still pending.
 */
export function fromStripeCaptureResponse(response: ProcessorHttpResponse, nonFinalCapture = false): CaptureOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport.status === 'failed' ? { ...transport, failure_reason: 'capture_failed' } : transport;
  const id = text(field(response.body, 'id'));
  if (!id) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: null };
  switch (field(response.body, 'status')) {
    case 'succeeded':
      return { status: 'succeeded', processor_reference: id };
    case 'requires_capture':
      return nonFinalCapture
        ? { status: 'succeeded', processor_reference: id }
        : { status: 'pending', processor_reference: id, poll_after_ms: STRIPE_CAPTURE_RECHECK_MS };
    case 'processing':
      return { status: 'pending', processor_reference: id, poll_after_ms: STRIPE_CAPTURE_RECHECK_MS };
    default:
      return { status: 'failed', failure_reason: 'capture_failed', processor_reference: id };
  }
}

/**
 * The /cancel answer: the authorization released, confirmed in the answer. A PaymentIntent with captures
 * made before (multicapture) may answer `succeeded` with nothing left capturable: its rest was released.
 */
export function fromStripeCancelResponse(response: ProcessorHttpResponse): StepOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport.status === 'failed' ? { ...transport, failure_reason: 'void_failed' } : transport;
  const id = text(field(response.body, 'id'));
  const status = field(response.body, 'status');
  const released = status === 'canceled' || (status === 'succeeded' && field(response.body, 'amount_capturable') === 0);
  return released ? { status: 'succeeded', processor_reference: id } : { status: 'failed', failure_reason: 'void_failed', processor_reference: id };
}

/**
 * A pending refund settles by webhook (charge.refund.updated, refund.updated) or by asking Stripe
 * (`GET /v1/refunds/{id}`): first this soon, then on a backoff (settlement-backoff.ts) until it is final.
 */
export const STRIPE_REFUND_RECHECK_MS = 5_000;

/**
 * A question's answer (GET of a PaymentIntent or a Refund): only a 200 tells how things stand; any other
 * answer (a 404, a key refused, a 5xx) says nothing about the capture or refund, which waits for the next question.
 */
export function unansweredQuestion(response: ProcessorHttpResponse): { status: 'error'; failure_reason: string } | null {
  return response.status === 200
    ? null
    : { status: 'error', failure_reason: transportOutcome(response.status)?.failure_reason ?? 'processor_invalid_response' };
}

/** The /refunds answer (a Refund: succeeded, pending, failed) → the refund's outcome (pure). */
export function fromStripeRefundResponse(response: ProcessorHttpResponse): RefundOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport.status === 'failed' ? { ...transport, failure_reason: 'refund_failed' } : transport;
  const id = text(field(response.body, 'id'));
  if (!id) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: null };
  switch (field(response.body, 'status')) {
    case 'succeeded':
      return { status: 'succeeded', processor_reference: id };
    case 'pending':
    case 'requires_action':
      return { status: 'pending', processor_reference: id, poll_after_ms: STRIPE_REFUND_RECHECK_MS };
    default:
      return { status: 'failed', failure_reason: 'refund_failed', processor_reference: id };
  }
}

/** The headers every request of this API carries (credentials; the idempotency key where given), for the plugin's other requests. */
export const stripeHeaders = headers;
