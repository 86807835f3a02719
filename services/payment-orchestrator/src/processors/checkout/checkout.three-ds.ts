import type { AuthenticationResult, ConsumerAuthentication } from '../../domain/payment-vocabulary/authentication';
import type { AuthorizationOutcome } from '../../domain/processor-port/processor-port';
import {
  field,
  isMerchantInitiated,
  text,
  transportOutcome,
  type AuthorizationInput,
  type ProcessorHttpRequest,
  type ProcessorHttpResponse,
} from '../processor-wire';
import { actionRequired, redirectOfResume, threeDsAuthenticationStatus } from '../three-ds-wire';
import type { CheckoutCredentials } from './checkout.account';
import { fromCheckoutPaymentResponse } from './checkout.mapper';
import { checkoutDecline } from './checkout.declines';

/*
 * Checkout.com's payments API, 3-D Secure through its redirect (the hosted 3DS page). Field names and
 * values are those of Checkout.com's published API reference (github.com/checkout/checkout-api-reference,
 * nas_spec): PaymentRequest `3ds` (3dsRequest.enabled, 3dsRequest.challenge_indicator: no_preference |
 * no_challenge_requested | challenge_requested | challenge_requested_mandate), success_url and failure_url
 * (format uri, maxLength 255), payment_ip; POST /payments answering 202 with PaymentAcceptedResponse { id, status:
 * Pending, _links.redirect.href }; GET /payments/{id} (paths/payments@{id}.yaml: the id may be the
 * `cko-session-id` the redirect back carries, `sid_…`) answering PaymentDetails { status, approved, 3ds
 * (3dsData: authentication_response Y | N | A | U, version, cryptogram, xid, enrolled, downgraded), eci,
 * scheme_id, actions }. The consumer's browser data is collected by Checkout.com's own 3DS page.
 */

/** `3ds.challenge_indicator` (3dsRequest.yaml). */
export type CheckoutChallengeIndicator = 'no_preference' | 'no_challenge_requested' | 'challenge_requested' | 'challenge_requested_mandate';

/** success_url and failure_url: format uri, at most 255 characters (PaymentRequest.yaml). */
const CHECKOUT_REDIRECT_URL_MAX = 255;

/**
 * The 3-D Secure fields of a consumer-present `POST /payments` (pure), merged into the forwarder
 * template. `off`: `3ds.enabled: false` (and no upgrade after a soft decline). Otherwise enabled, with `challenge_requested_mandate` on the
 * first payment of a recurring or unscheduled series (Checkout.com: "to prevent subsequent CNP
 * transactions from being declined"), `challenge_requested` under `always`, `no_preference` (the issuer
 * decides) under `if_required`. The consumer comes back to the hosted page on success and on failure
 * alike: the page resumes the payment and Checkout.com's answer says which it was.
 */
export function checkoutThreeDsFields(payment: AuthorizationInput, consumer: ConsumerAuthentication): Record<string, unknown> {
  if (isMerchantInitiated(payment.use_case)) return {};
  // allow_upgrade: false: Checkout.com would otherwise turn an issuer's SCA soft decline (20154) into a
  // 3-D Secure payment of its own (its "automated SCA soft decline retry"), which `off` does not run.
  if (consumer.three_ds === 'off') return { '3ds': { enabled: false, allow_upgrade: false } };
  const challenge_indicator: CheckoutChallengeIndicator = consumer.first_of_series
    ? 'challenge_requested_mandate'
    : consumer.three_ds === 'always'
      ? 'challenge_requested'
      : 'no_preference';
  if (consumer.return_url.length > CHECKOUT_REDIRECT_URL_MAX)
    throw new Error(`Checkout.com takes success_url and failure_url of at most ${CHECKOUT_REDIRECT_URL_MAX} characters`);
  const paymentIp = consumer.browser?.ip_address;
  return {
    '3ds': { enabled: true, challenge_indicator },
    success_url: consumer.return_url,
    failure_url: consumer.return_url,
    ...(paymentIp ? { payment_ip: paymentIp } : {}),
  };
}

/**
 * The `3ds` block (3dsData) and top-level `eci` of a payment answer → the authentication result (pure);
 * null when the payment was not authenticated (no authentication_response). Checkout.com states no
 * liability shift of its own: it follows the scheme rules, under which an authenticated (Y) or attempted
 * (A) 3-D Secure payment shifts liability to the issuer.
 */
function checkoutAuthentication(body: unknown): AuthenticationResult | null {
  const threeDs = field(body, '3ds');
  const response = text(field(threeDs, 'authentication_response'));
  if (response === null) return null;
  const status = threeDsAuthenticationStatus(response);
  return {
    type: '3ds',
    version: text(field(threeDs, 'version')),
    status,
    eci: text(field(body, 'eci')),
    liability_shift: status === 'authenticated' || status === 'attempted',
    authentication_value: text(field(threeDs, 'cryptogram')),
    ds_transaction_id: null,
  };
}

/** The return parameter Checkout.com appends to success_url and failure_url (paths/payments@{id}.yaml). */
const CHECKOUT_RETURN_PARAMETERS = ['cko-session-id'];

/** A succeeded or failed outcome with the authentication that ran, if one did. */
function withAuthentication(outcome: AuthorizationOutcome, authentication: AuthenticationResult | null): AuthorizationOutcome {
  return authentication && (outcome.status === 'succeeded' || outcome.status === 'failed') ? { ...outcome, authentication } : outcome;
}

/**
 * The `POST /payments` answer with 3-D Secure (pure): 202 Pending with a redirect link sends the consumer
 * to `_links.redirect.href` (a GET), the payment id kept to look it up later; a 201 is the usual outcome,
 * with the frictionless authentication result.
 */
export function fromCheckoutThreeDsPaymentResponse(response: ProcessorHttpResponse): AuthorizationOutcome {
  if (response.status === 202 && field(response.body, 'status') === 'Pending') {
    const id = text(field(response.body, 'id'));
    const href = text(field(field(field(response.body, '_links'), 'redirect'), 'href'));
    if (!id || !href) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: id };
    return actionRequired({ type: 'redirect', url: href, method: 'GET', data: {} }, id, { payment_id: id }, CHECKOUT_RETURN_PARAMETERS);
  }
  return withAuthentication(fromCheckoutPaymentResponse(response), transportOutcome(response.status) ? null : checkoutAuthentication(response.body));
}

/** A payment or 3-D Secure session id as Checkout.com writes them (payments@{id}.yaml: ^(pay|sid)_(\w{26})$). */
const CHECKOUT_PAYMENT_OR_SESSION_ID = /^(pay|sid)_\w{26}$/;

/**
 * `GET /payments/{cko-session-id}` (pure): the redirect back names the payment by the session id
 * Checkout.com appended; without one (or one that is no session id), the payment's own id. Null when
 * neither is known. No card data: through egress.
 */
export function toCheckoutPaymentLookup(
  credentials: CheckoutCredentials,
  returnParameters: Record<string, string>,
  paymentId: string | null,
): ProcessorHttpRequest | null {
  const sessionId = returnParameters['cko-session-id'];
  const id = typeof sessionId === 'string' && CHECKOUT_PAYMENT_OR_SESSION_ID.test(sessionId) ? sessionId : paymentId;
  if (!id || !CHECKOUT_PAYMENT_OR_SESSION_ID.test(id)) return null;
  return {
    method: 'GET',
    path: `/payments/${encodeURIComponent(id)}`,
    headers: { authorization: `Bearer ${credentials.secret_key}` },
    carries_card_data: false,
  };
}

/** The response code of the payment's latest Authorization action (PaymentActionSummary), listed when asked by session id. */
function authorizationResponseCode(body: unknown): unknown {
  const actions = field(body, 'actions');
  if (!Array.isArray(actions)) return undefined;
  return actions.find((action) => field(action, 'type') === 'Authorization')?.response_code;
}

/**
 * GET /payments/{id} after the consumer came back (pure): Authorized, Captured (and their partial and
 * verified forms) succeeded; Declined failed, `authentication_failed` when the cardholder was not
 * authenticated (authentication_response other than Y or A, or response code 20151). Pending (the
 * consumer came back before finishing, or Checkout.com has not settled yet): the consumer is sent to the
 * same page again (`resume`, from the 202 answer).
 */
export function fromCheckoutPaymentLookup(response: ProcessorHttpResponse, resume: Record<string, string>): AuthorizationOutcome {
  const transport = transportOutcome(response.status);
  if (transport) return transport;
  const id = text(field(response.body, 'id'));
  const authentication = checkoutAuthentication(response.body);
  const status = field(response.body, 'status');
  if (status === 'Pending') {
    const redirect = redirectOfResume(resume);
    if (redirect) return actionRequired(redirect, id, { payment_id: id ?? resume.payment_id ?? '' }, CHECKOUT_RETURN_PARAMETERS);
    return { status: 'error', failure_reason: 'processor_pending' };
  }
  if (status === 'Declined') {
    const notAuthenticated = authentication !== null && authentication.status === 'failed';
    if (notAuthenticated) return withAuthentication({ status: 'failed', failure_reason: 'authentication_failed', processor_reference: id }, authentication);
    // The Authorization action's response code, normalised (checkout.declines.ts).
    const decline = checkoutDecline(response.body, authorizationResponseCode(response.body));
    return withAuthentication({ status: 'failed', failure_reason: decline.code, processor_reference: id, decline }, authentication);
  }
  if (['Authorized', 'Captured', 'Card Verified', 'Partially Captured'].includes(String(status)) && field(response.body, 'approved') === true && id) {
    return withAuthentication(
      { status: 'succeeded', processor_reference: id, network_transaction_reference: text(field(response.body, 'scheme_id')) },
      authentication,
    );
  }
  return withAuthentication({ status: 'failed', failure_reason: 'processor_unexpected_result', processor_reference: id }, authentication);
}
