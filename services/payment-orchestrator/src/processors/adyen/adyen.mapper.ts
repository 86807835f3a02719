import type { CaptureOutcome, ProcessorPayment, RefundOutcome, StepOutcome } from '../../domain/processor-port/processor-port';
import { adyenDecline, adyenIssuerCountry, adyenRefusalOf } from './adyen.declines';
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
import type { AdyenCredentials } from './adyen.account';
import { toProcessorAmount } from '../../domain/processor-port/processor-amounts';
import { adyenAmounts } from './adyen.amounts';

/** Checkout API version every path is built on. */
export const ADYEN_API_VERSION = 'v69';

/** The API's amount (ISO minor units) as Adyen's amount object: the one conversion of every request (adyen.amounts.ts). */
const adyenAmount = (payment: Pick<ProcessorPayment, 'amount' | 'currency_code'>) => ({
  currency: payment.currency_code,
  value: toProcessorAmount(adyenAmounts, payment.amount, payment.currency_code),
});

type StoredCredentialFields = {
  shopperInteraction: 'Ecommerce' | 'ContAuth';
  recurringProcessingModel?: 'CardOnFile' | 'Subscription' | 'UnscheduledCardOnFile';
};

/**
 * The stored-credential fields, per Adyen's rules for card details stored with a third party (the vault):
 * the shopper enters the details (Ecommerce) on a one-off payment and on the initial payment that stores
 * them, with the model they are stored for; a payment on details stored earlier is ContAuth with its model
 * (a shopper-present one-click is ContAuth + CardOnFile, with the cvc when there is one). An initial
 * recurring or unscheduled payment on a stored card (earlier rule 5) starts a new agreement with the
 * shopper in session, so it stays Ecommerce.
 */
function storedCredentialFields(payment: AuthorizationInput): StoredCredentialFields {
  switch (payment.use_case) {
    case 'ONE_OFF':
      if (payment.stored_credential === 'storing') return { shopperInteraction: 'Ecommerce', recurringProcessingModel: 'CardOnFile' };
      if (payment.stored_credential === 'stored') return { shopperInteraction: 'ContAuth', recurringProcessingModel: 'CardOnFile' };
      return { shopperInteraction: 'Ecommerce' };
    case 'RECURRING':
      return { shopperInteraction: 'Ecommerce', recurringProcessingModel: 'Subscription' };
    case 'UNSCHEDULED':
      return { shopperInteraction: 'Ecommerce', recurringProcessingModel: 'UnscheduledCardOnFile' };
    case 'SUBSEQUENT_RECURRING':
      return { shopperInteraction: 'ContAuth', recurringProcessingModel: 'Subscription' };
    case 'SUBSEQUENT_UNSCHEDULED':
      return { shopperInteraction: 'ContAuth', recurringProcessingModel: 'UnscheduledCardOnFile' };
  }
}

function headers(credentials: AdyenCredentials, idempotencyKey: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-api-key': credentials.api_key, 'idempotency-key': idempotencyKey };
}

/**
 * `POST /v69/payments` as a forwarder template (pure): the card fields are placeholders. `reference` is
 * the payment id, so a notification names the payment even before its answer was stored.
 */
export function toAdyenPaymentRequest(payment: AuthorizationInput, credentials: AdyenCredentials): ProcessorHttpRequest {
  const merchantInitiated = isMerchantInitiated(payment.use_case);
  const additionalData: Record<string, string> = {};
  if (payment.capture_mode === 'manual') additionalData.manualCapture = 'true';
  if (merchantInitiated) {
    // The connection answers processor_configuration before mapping (adyenConfigurationProblem); reaching here without one is a bug.
    if (!payment.network_transaction_reference) throw new Error("A merchant-initiated Adyen payment needs the initial payment's networkTxReference");
    additionalData.networkTxReference = payment.network_transaction_reference;
  }
  const paymentMethod: Record<string, string> = {
    type: 'scheme',
    number: CARD_PLACEHOLDERS.account_number,
    expiryMonth: CARD_PLACEHOLDERS.expiration_month,
    expiryYear: CARD_PLACEHOLDERS.expiration_year,
  };
  if (!merchantInitiated && payment.security_code_available) paymentMethod.cvc = CARD_PLACEHOLDERS.security_code;
  if (payment.cardholder_name) paymentMethod.holderName = payment.cardholder_name;
  return {
    method: 'POST',
    path: `/${ADYEN_API_VERSION}/payments`,
    headers: headers(credentials, payment.idempotency_key),
    body: {
      amount: adyenAmount(payment),
      reference: payment.payment_id,
      paymentMethod,
      merchantAccount: credentials.merchant_account,
      ...storedCredentialFields(payment),
      // Automatic capture says so: an account set to capture manually (or with a delay) would otherwise leave it uncaptured.
      ...(payment.capture_mode === 'automatic' ? { captureDelayHours: 0 } : {}),
      ...(Object.keys(additionalData).length > 0 ? { additionalData } : {}),
    },
    carries_card_data: true,
  };
}

/** `POST /v69/payments/{pspReference}/captures` (pure); `payment.amount` is the amount to capture (partial or full). */
export function toAdyenCaptureRequest(payment: ProcessorPayment, credentials: AdyenCredentials, pspReference: string): ProcessorHttpRequest {
  return {
    method: 'POST',
    path: `/${ADYEN_API_VERSION}/payments/${encodeURIComponent(pspReference)}/captures`,
    headers: headers(credentials, payment.idempotency_key),
    body: { merchantAccount: credentials.merchant_account, amount: adyenAmount(payment), reference: payment.payment_id },
    carries_card_data: false,
  };
}

/**
 * `POST /v69/payments/{pspReference}/cancels` (pure): releases an authorisation this payment does not use
 * (one that answered after the engine had moved on to a fallback account).
 */
export function toAdyenCancelRequest(payment: ProcessorPayment, credentials: AdyenCredentials, pspReference: string): ProcessorHttpRequest {
  return {
    method: 'POST',
    path: `/${ADYEN_API_VERSION}/payments/${encodeURIComponent(pspReference)}/cancels`,
    headers: headers(credentials, payment.idempotency_key),
    body: { merchantAccount: credentials.merchant_account, reference: payment.payment_id },
    carries_card_data: false,
  };
}

/** The /cancels answer (`status: received`): Adyen has taken the cancel; its CANCELLATION notification confirms it later. */
export function fromAdyenCancelResponse(response: ProcessorHttpResponse): StepOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const pspReference = text(field(response.body, 'pspReference'));
  if (field(response.body, 'status') !== 'received' || !pspReference)
    return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: pspReference };
  return { status: 'succeeded', processor_reference: pspReference };
}

/** A refusal reason's failure_reason (adyen.declines.ts); one we do not know is still a decline, never a retryable error. */
export function adyenFailureReason(refusalReason: unknown): string {
  return adyenRefusalOf(refusalReason, undefined)?.code ?? 'card_declined';
}

/** The /payments answer → our step outcome (pure). */
export function fromAdyenPaymentResponse(response: ProcessorHttpResponse): StepOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const pspReference = text(field(response.body, 'pspReference'));
  switch (field(response.body, 'resultCode')) {
    case 'Authorised': {
      if (!pspReference) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: null };
      const networkTxReference = text(field(field(response.body, 'additionalData'), 'networkTxReference'));
      const country = adyenIssuerCountry(response.body);
      return {
        status: 'succeeded',
        processor_reference: pspReference,
        network_transaction_reference: networkTxReference,
        ...(country ? { issuer_country: country } : {}),
      };
    }
    case 'Refused': {
      // The refusal normalised (adyen.declines.ts): its category, Adyen's code and words, the scheme's advice.
      const decline = adyenDecline(response.body);
      const country = adyenIssuerCountry(response.body);
      return { status: 'failed', failure_reason: decline.code, processor_reference: pspReference, decline, ...(country ? { issuer_country: country } : {}) };
    }
    case 'Error':
      return { status: 'failed', failure_reason: 'processor_error', processor_reference: pspReference };
    case 'Cancelled':
      return { status: 'failed', failure_reason: 'cancelled', processor_reference: pspReference };
    default:
      // Pending, Received or an action (3-D Secure, redirect): a card payment sent without a shopper session cannot complete those.
      return { status: 'failed', failure_reason: 'processor_unexpected_result', processor_reference: pspReference };
  }
}

/** Adyen confirms a capture by notification (CAPTURE / CAPTURE_FAILED), so until then it is pending. */
export const ADYEN_CAPTURE_RECHECK_MS = 5 * 60_000;

/** The /captures answer (`status: received`) → pending until the notification settles it (pure). */
export function fromAdyenCaptureResponse(response: ProcessorHttpResponse): CaptureOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const pspReference = text(field(response.body, 'pspReference'));
  if (field(response.body, 'status') !== 'received' || !pspReference)
    return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: pspReference };
  return { status: 'pending', processor_reference: pspReference, poll_after_ms: ADYEN_CAPTURE_RECHECK_MS };
}

/**
 * Adyen returns the scheme's `networkTxReference` only when the account's "Network transaction reference"
 * additional-data setting is on (Customer Area → Developers → Additional data). Without it an initial
 * recurring or unscheduled payment cannot be followed by merchant-initiated ones: that is the account's
 * configuration, not a passing error, so it fails at once (`processor_configuration`) and is not retried
 * or sent to a fallback account. Pure; null when there is no problem.
 */
export function adyenConfigurationProblem(
  payment: Pick<ProcessorPayment, 'use_case' | 'network_transaction_reference'>,
  outcome?: StepOutcome,
): StepOutcome | null {
  const problem: StepOutcome = {
    status: 'failed',
    failure_reason: 'processor_configuration',
    processor_reference: outcome && outcome.status !== 'error' ? outcome.processor_reference : null,
  };
  // A subsequent payment on credentials whose initial payment came back without the reference.
  if (!outcome) return isMerchantInitiated(payment.use_case) && !payment.network_transaction_reference ? problem : null;
  const initial = payment.use_case === 'RECURRING' || payment.use_case === 'UNSCHEDULED';
  return initial && outcome.status === 'succeeded' && !outcome.network_transaction_reference ? problem : null;
}

/** Our refund reasons in Adyen's merchantRefundReason words. */
const ADYEN_REFUND_REASONS: Record<RefundReason, string> = { requested_by_customer: 'CUSTOMER REQUEST', duplicate: 'DUPLICATE', fraudulent: 'FRAUD' };

/**
 * `POST /v69/payments/{pspReference}/refunds` (pure): `payment.amount` is the refund's amount,
 * `reference` the refund's id (Adyen's notifications name it as merchantReference), the idempotency key
 * the refund's own.
 */
export function toAdyenRefundRequest(
  payment: ProcessorPayment,
  credentials: AdyenCredentials,
  pspReference: string,
  refundId: string,
  reason: RefundReason | null,
): ProcessorHttpRequest {
  return {
    method: 'POST',
    path: `/${ADYEN_API_VERSION}/payments/${encodeURIComponent(pspReference)}/refunds`,
    headers: headers(credentials, payment.idempotency_key),
    body: {
      merchantAccount: credentials.merchant_account,
      amount: adyenAmount(payment),
      reference: refundId,
      ...(reason ? { merchantRefundReason: ADYEN_REFUND_REASONS[reason] } : {}),
    },
    carries_card_data: false,
  };
}

/** Adyen settles a refund by notification only (REFUND, REFUND_FAILED, REFUNDED_REVERSED): the runner asks again this late. */
export const ADYEN_REFUND_RECHECK_MS = 5 * 60_000;

/** The /refunds answer (201, `status: received`) → pending until the REFUND notification (pure). */
export function fromAdyenRefundResponse(response: ProcessorHttpResponse): RefundOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const pspReference = text(field(response.body, 'pspReference'));
  if (field(response.body, 'status') !== 'received' || !pspReference)
    return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: pspReference };
  return { status: 'pending', processor_reference: pspReference, poll_after_ms: ADYEN_REFUND_RECHECK_MS };
}

/** The headers every request of this API carries (credentials; the idempotency key where given), for the plugin's other requests. */
export const adyenHeaders = headers;
