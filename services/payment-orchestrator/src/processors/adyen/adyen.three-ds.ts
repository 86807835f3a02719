import {
  AUTHENTICATION_FAILURES,
  type AuthenticationResult,
  type ConsumerAuthentication,
  type RedirectAction,
} from '../../domain/payment-vocabulary/authentication';
import type { AuthorizationOutcome } from '../../domain/processor-port/processor-port';
import { field, isMerchantInitiated, text, type AuthorizationInput, type ProcessorHttpRequest, type ProcessorHttpResponse } from '../processor-wire';
import { actionRequired, threeDsAuthenticationStatus } from '../three-ds-wire';
import type { AdyenCredentials } from './adyen.account';
import { ADYEN_API_VERSION, fromAdyenPaymentResponse } from './adyen.mapper';

/*
 * Adyen Checkout API v69, 3-D Secure 2 through the redirect flow (the default when
 * `authenticationData.threeDSRequestData.nativeThreeDS` is not `preferred`). Field names and values are
 * those of Adyen's published OpenAPI document, json/CheckoutService-v69.json (github.com/Adyen/adyen-openapi):
 * PaymentRequest.authenticationData (AuthenticationData.attemptAuthentication: always | never),
 * PaymentRequest.browserInfo (BrowserInfo, all eight fields required for web), channel (iOS | Android | Web),
 * origin (maxLength 80, no path, no trailing slash), returnUrl, shopperIP, threeDS2RequestData (ThreeDS2RequestFields
 * .threeDSRequestorChallengeInd: 01–06); PaymentResponse.resultCode RedirectShopper with action
 * CheckoutRedirectAction { type: redirect, url, method, data }; PaymentDetailsRequest { details:
 * PaymentCompletionDetails.redirectResult }; the results in additionalData (ResponseAdditionalDataCommon:
 * eci, liabilityShift, threeDAuthenticated, threeDAuthenticatedResponse, threeDOffered, threeDSVersion,
 * dsTransID; ResponseAdditionalData3DSecure: cavv).
 */

/** threeDSRequestorChallengeInd: 03 challenge requested (requestor preference), 04 challenge requested (mandate). */
const ADYEN_CHALLENGE_REQUESTED = '03';
const ADYEN_CHALLENGE_MANDATE = '04';

/** The origin of the hosted page: scheme, host and port, as Adyen's `origin` takes it. */
function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * The 3-D Secure fields of a consumer-present `/payments` request (pure), merged into the forwarder
 * template. `off`: `attemptAuthentication: never`. `if_required`: Adyen's (dynamic 3-D Secure) rules and
 * the issuer decide, so no attemptAuthentication. `always`: `always`, with a challenge requested (03).
 * The first payment of a recurring or unscheduled series asks for the challenge as a mandate (04), the
 * way the schemes want a series set up. Merchant-initiated payments get nothing: the consumer is absent.
 */
export function adyenThreeDsFields(payment: AuthorizationInput, consumer: ConsumerAuthentication): Record<string, unknown> {
  if (isMerchantInitiated(payment.use_case)) return {};
  if (consumer.three_ds === 'off') return { authenticationData: { attemptAuthentication: 'never' } };
  const challengeInd = consumer.first_of_series ? ADYEN_CHALLENGE_MANDATE : consumer.three_ds === 'always' ? ADYEN_CHALLENGE_REQUESTED : null;
  const browser = consumer.browser;
  return {
    ...(consumer.three_ds === 'always' ? { authenticationData: { attemptAuthentication: 'always' } } : {}),
    ...(challengeInd ? { threeDS2RequestData: { threeDSRequestorChallengeInd: challengeInd } } : {}),
    ...(browser
      ? {
          browserInfo: {
            userAgent: browser.user_agent,
            acceptHeader: browser.accept_header,
            language: browser.language,
            colorDepth: browser.color_depth,
            screenHeight: browser.screen_height,
            screenWidth: browser.screen_width,
            timeZoneOffset: browser.time_zone_offset,
            javaEnabled: browser.java_enabled,
          },
        }
      : {}),
    ...(browser?.ip_address ? { shopperIP: browser.ip_address } : {}),
    channel: 'Web',
    origin: originOf(consumer.return_url),
    returnUrl: consumer.return_url,
  };
}

/**
 * The 3-D Secure result Adyen reports in `additionalData` (pure); null when the payment was not
 * authenticated (no 3-D Secure field at all). The raw transStatus (`threeDAuthenticatedResponse`) decides
 * the status; without it `threeDAuthenticated`. Adyen returns these when the account's additional-data
 * settings include them (Customer Area → Developers → Additional data: "3D Secure").
 */
export function adyenAuthentication(body: unknown): AuthenticationResult | null {
  const data = field(body, 'additionalData');
  const value = (name: string) => text(field(data, name));
  const transStatus = value('threeDAuthenticatedResponse');
  const authenticatedFlag = value('threeDAuthenticated');
  if (transStatus === null && authenticatedFlag === null) return null;
  const status = transStatus !== null ? threeDsAuthenticationStatus(transStatus) : authenticatedFlag === 'true' ? 'authenticated' : 'failed';
  return {
    type: '3ds',
    version: value('threeDSVersion'),
    status,
    eci: value('eci'),
    liability_shift: value('liabilityShift') === 'true',
    authentication_value: value('cavv'),
    ds_transaction_id: value('dsTransID'),
  };
}

/** A RedirectShopper answer's redirect action (pure); null when the answer is no redirect. */
function adyenRedirect(body: unknown): RedirectAction | null {
  if (field(body, 'resultCode') !== 'RedirectShopper') return null;
  const action = field(body, 'action');
  const url = text(field(action, 'url'));
  if (field(action, 'type') !== 'redirect' || !url) return null;
  const method = String(field(action, 'method') ?? 'GET').toUpperCase() === 'POST' ? 'POST' : 'GET';
  const data = field(action, 'data');
  const formData: Record<string, string> = {};
  if (method === 'POST' && typeof data === 'object' && data !== null)
    for (const [name, member] of Object.entries(data)) if (typeof member === 'string') formData[name] = member;
  return { type: 'redirect', url, method, data: formData };
}

/** The return parameter Adyen appends to the returnUrl (PaymentCompletionDetails.redirectResult). */
export const ADYEN_RETURN_PARAMETERS = ['redirectResult'];

/**
 * The `/payments` or `/payments/details` answer with 3-D Secure (pure): RedirectShopper sends the consumer
 * to the issuer (no pspReference yet: Adyen gives it with the details answer, and v69 needs no
 * paymentData to resume); anything else is the usual outcome (`3D Not Authenticated` →
 * authentication_failed), with the authentication result.
 */
export function fromAdyenThreeDsResponse(response: ProcessorHttpResponse): AuthorizationOutcome {
  const redirect = response.status === 200 ? adyenRedirect(response.body) : null;
  if (redirect) return actionRequired(redirect, null, {}, ADYEN_RETURN_PARAMETERS);
  if (field(response.body, 'resultCode') === 'RedirectShopper')
    return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: null };
  const outcome = fromAdyenPaymentResponse(response);
  const authentication = response.status === 200 ? adyenAuthentication(response.body) : null;
  return outcome.status === 'error' || !authentication ? outcome : { ...outcome, authentication };
}

/**
 * Under `off` Adyen was told `attemptAuthentication: never`: a "3D Not Authenticated" refusal then says
 * the issuer (or the rules) required an authentication this payment does not run — the engine's
 * `authentication_required`, not a challenge the consumer failed (pure).
 */
export function withoutAuthenticationUnderOff(outcome: AuthorizationOutcome, threeDs: ConsumerAuthentication['three_ds'] | undefined): AuthorizationOutcome {
  if (threeDs !== 'off' || outcome.status !== 'failed' || outcome.failure_reason !== AUTHENTICATION_FAILURES.failed) return outcome;
  return {
    ...outcome,
    failure_reason: AUTHENTICATION_FAILURES.required,
    ...(outcome.decline ? { decline: { ...outcome.decline, category: 'authentication_required', code: AUTHENTICATION_FAILURES.required } } : {}),
  };
}

/**
 * `POST /v69/payments/details` with the `redirectResult` Adyen appended to the returnUrl (pure); null
 * when the return carries none (the consumer came back some other way: nothing to send). No card data:
 * it goes through egress, not the forwarder.
 */
export function toAdyenPaymentDetailsRequest(
  credentials: AdyenCredentials,
  idempotencyKey: string,
  returnParameters: Record<string, string>,
): ProcessorHttpRequest | null {
  const redirectResult = returnParameters.redirectResult;
  if (typeof redirectResult !== 'string' || redirectResult === '' || redirectResult.length > 20_000) return null;
  return {
    method: 'POST',
    path: `/${ADYEN_API_VERSION}/payments/details`,
    headers: { 'content-type': 'application/json', 'x-api-key': credentials.api_key, 'idempotency-key': idempotencyKey },
    body: { details: { redirectResult } },
    carries_card_data: false,
  };
}
