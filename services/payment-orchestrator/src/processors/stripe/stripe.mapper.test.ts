import { authorizationInputOf } from '../../../test/support/processor-fixtures';
import type { ConsumerAuthentication } from '../../domain/payment-vocabulary/authentication';
import type { ProcessorPayment } from '../../domain/processor-port/processor-port';
import {
  fromStripeCancelResponse,
  fromStripeCaptureResponse,
  fromStripePaymentIntentResponse,
  fromStripeRefundResponse,
  stripeFailureReason,
  toStripeCancelRequest,
  toStripeCaptureRequest,
  toStripePaymentIntentRequest,
  toStripeRefundRequest,
  toStripeRefundRetrieveRequest,
  toStripeRetrieveRequest,
  unansweredQuestion,
} from './stripe.mapper';
import { STRIPE_API_VERSION } from './stripe.api-version';

/*
 * Every field below is pinned against Stripe's public API reference:
 * - Create a PaymentIntent, https://docs.stripe.com/api/payment_intents/create — amount (smallest currency
 *   unit), currency (three-letter ISO code, lower case), confirm ("set to true to attempt to confirm this
 *   PaymentIntent immediately"; with it the confirm parameters are accepted), capture_method (automatic |
 *   automatic_async | manual), payment_method_data[type] and payment_method_data[card][…] (the card
 *   inline: raw card data access), setup_future_usage (off_session | on_session), off_session ("the
 *   customer isn't in your checkout flow … can only be used with confirm=true"), return_url ("redirect your
 *   customer back to after they authenticate … only with confirm=true"), error_on_requires_action,
 *   payment_method_options[card][request_three_d_secure] (automatic | any), metadata, expand[].
 * - payment_method_options[card][mit_exemption][network_transaction_id] with off_session=true: the
 *   merchant-initiated payment names the network transaction id of the series' first payment; Stripe
 *   enables the parameter per account (docs.hyperswitch.io, network-transaction-id MIT routing: "Received
 *   unknown parameter: payment_method_options[card][mit_exemption]" until Stripe activates it).
 * - The PaymentIntent object, https://docs.stripe.com/api/payment_intents/object — status
 *   (requires_payment_method, requires_confirmation, requires_action, processing, requires_capture,
 *   canceled, succeeded), next_action.type redirect_to_url with next_action.redirect_to_url.url and
 *   .return_url, last_payment_error.code / .decline_code, latest_charge.
 * - The Charge's payment_method_details.card.network_transaction_id,
 *   https://docs.stripe.com/changelog/acacia/2024-12-18/charge-display-network-transaction-id, and
 *   payment_method_details.card.three_d_secure (result, version, electronic_commerce_indicator,
 *   transaction_id), as stripe-java models the Charge,
 *   https://stripe.dev/stripe-java/com/stripe/model/Charge.PaymentMethodDetails.Card.html.
 * - Capture a PaymentIntent, https://docs.stripe.com/api/payment_intents/capture — POST
 *   /v1/payment_intents/{id}/capture, amount_to_capture ("must be less than or equal to the original
 *   amount; defaults to the full amount_capturable"), final_capture ("Defaults to true. … setting
 *   final_capture to false notifies Stripe to not release the remaining uncaptured funds … only when
 *   multicapture is available"; stripe-node v16.12.0, PaymentIntentCaptureParams).
 * - Multicapture, https://docs.stripe.com/payments/multicapture — requested at creation with
 *   payment_method_options[card][request_multicapture] (if_available | never: stripe-node v16.12.0,
 *   PaymentIntentCreateParams.PaymentMethodOptions.Card.RequestMulticapture); the PaymentIntent stays
 *   requires_capture between captures; cancel on requires_capture releases the remaining amount_capturable.
 * - Versioning, https://docs.stripe.com/api/versioning — the Stripe-Version header sets the version of a
 *   request (stripe-node sends it on every call: RequestSender 'Stripe-Version'); 2024-06-20 is the version
 *   stripe-node v16.12.0 is generated for (src/apiVersion.ts). payment_method_types ("defaults to
 *   ["card"]" at that version; automatic_payment_methods otherwise).
 * - Retrieve a refund, https://docs.stripe.com/api/refunds/retrieve — GET /v1/refunds/{refund}.
 * - Cancel a PaymentIntent, https://docs.stripe.com/api/payment_intents/cancel — POST …/{id}/cancel on
 *   requires_capture (and the other unfinished statuses), status canceled.
 * - Create a refund, https://docs.stripe.com/api/refunds/create — POST /v1/refunds with payment_intent,
 *   amount, reason (duplicate | fraudulent | requested_by_customer), metadata; the Refund's status
 *   (pending, requires_action, succeeded, failed, canceled).
 * - Idempotent requests, https://docs.stripe.com/idempotency — the Idempotency-Key header (keys up to 255
 *   characters, kept at least 24 hours; a repeat answers the first answer).
 * - Errors, https://docs.stripe.com/api/errors — 402 "Request Failed" (a declined card), error.type
 *   card_error, error.code, error.decline_code and the PaymentIntent in error.payment_intent.
 */

const credentials = { secret_key: 'sk_test_mapperKey9Q1', webhook_secret: 'whsec_mapperSecret0123456789abcdefghij' };
const hostedPage: ConsumerAuthentication = {
  three_ds: 'if_required',
  browser: null,
  return_url: 'https://pay.example/checkout/s1/return',
  first_of_series: false,
};
const form = (input: Parameters<typeof toStripePaymentIntentRequest>[0]) => toStripePaymentIntentRequest(input, credentials).body as Record<string, string>;
const cardFields = {
  'payment_method_data[type]': 'card',
  'payment_method_data[card][number]': '{{ account_number }}',
  'payment_method_data[card][exp_month]': '{{ expiration_month }}',
  'payment_method_data[card][exp_year]': '{{ expiration_year }}',
};
const STORED_KEYS = ['setup_future_usage', 'off_session', 'payment_method_options[card][mit_exemption][network_transaction_id]'];
const storedFields = (body: Record<string, string>) => Object.fromEntries(Object.entries(body).filter(([key]) => STORED_KEYS.includes(key)));

describe('Stripe mapper: the PaymentIntent request, per use case', () => {
  it("when a guest one-off payment is authorized, then it is a form POST /v1/payment_intents with the card as the forwarder's placeholders, confirm=true, the amount and lower-case currency, our payment id in metadata, the charge expanded, and the idempotency key", () => {
    const request = toStripePaymentIntentRequest(authorizationInputOf({ consumer_authentication: hostedPage }), credentials);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/payment_intents', format: 'form', carries_card_data: true });
    expect(request.headers).toEqual({
      authorization: 'Bearer sk_test_mapperKey9Q1',
      'stripe-version': '2024-06-20',
      'idempotency-key': '01a208ee-5f6c-74c8-b99c-a50679101e09:authorization',
    });
    expect(request.body).toEqual({
      amount: '1250',
      currency: 'eur',
      confirm: 'true',
      capture_method: 'automatic',
      'payment_method_types[]': 'card',
      ...cardFields,
      'payment_method_data[card][cvc]': '{{ security_code }}',
      'payment_method_data[billing_details][name]': 'Ada Lovelace',
      return_url: 'https://pay.example/checkout/s1/return',
      'metadata[payment_id]': '01a208ee-5f6c-74c8-b99c-a50679101e09',
      'expand[]': 'latest_charge',
    });
  });

  it.each([
    ['a one-off that stores the card', 'ONE_OFF', 'storing', { setup_future_usage: 'off_session' }],
    ['a one-off paid with a stored card while the consumer is present', 'ONE_OFF', 'stored', {}],
    ['the first payment of a recurring series', 'RECURRING', 'storing', { setup_future_usage: 'off_session' }],
    ['the first payment of an unscheduled series', 'UNSCHEDULED', 'storing', { setup_future_usage: 'off_session' }],
  ] as const)('when %s is authorized, then its stored-credential fields are %j and the security code goes along', (_what, useCase, stored, expected) => {
    const body = form(authorizationInputOf({ use_case: useCase, stored_credential: stored, consumer_authentication: hostedPage }));
    expect(storedFields(body)).toEqual(expected);
    expect(body['payment_method_data[card][cvc]']).toBe('{{ security_code }}');
  });

  it.each(['SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'] as const)(
    "when a %s payment is authorized, then it is off_session=true with the first payment's network transaction id as mit_exemption, no cvc, no 3-D Secure fields",
    (useCase) => {
      const body = form(
        authorizationInputOf({
          use_case: useCase,
          stored_credential: 'stored',
          network_transaction_reference: '483297105682216',
          security_code_available: true,
        }),
      );
      expect(storedFields(body)).toEqual({ off_session: 'true', 'payment_method_options[card][mit_exemption][network_transaction_id]': '483297105682216' });
      expect(body).not.toHaveProperty(['payment_method_data[card][cvc]']);
      expect(['return_url', 'error_on_requires_action', 'payment_method_options[card][request_three_d_secure]'].filter((key) => key in body)).toEqual([]);
      expect(body).toMatchObject(cardFields);
    },
  );

  it('when the vault no longer holds the security code, then no cvc is sent', () => {
    expect(form(authorizationInputOf({ security_code_available: false }))).not.toHaveProperty(['payment_method_data[card][cvc]']);
  });

  it.each([
    ['automatic', 'automatic'],
    ['manual', 'manual'],
  ] as const)('when the flow captures %s, then capture_method is %s', (mode, expected) => {
    expect(form(authorizationInputOf({ capture_mode: mode })).capture_method).toBe(expected);
  });
});

describe('Stripe mapper: 3-D Secure fields', () => {
  it("when the hosted page can take the consumer back (three_ds if_required), then return_url is the hosted page's and Stripe decides", () => {
    const body = form(authorizationInputOf({ consumer_authentication: hostedPage }));
    expect([body.return_url, body.error_on_requires_action, body['payment_method_options[card][request_three_d_secure]']]).toEqual([
      'https://pay.example/checkout/s1/return',
      undefined,
      undefined,
    ]);
  });

  it('when the flow says three_ds always, then request_three_d_secure=any asks for it', () => {
    expect(form(authorizationInputOf({ consumer_authentication: { ...hostedPage, three_ds: 'always' } }))).toMatchObject({
      return_url: hostedPage.return_url,
      'payment_method_options[card][request_three_d_secure]': 'any',
    });
  });

  it.each([
    ['the flow turns 3-D Secure off', { ...hostedPage, three_ds: 'off' as const }],
    ['no hosted page can take the consumer back', null],
  ])('when %s, then error_on_requires_action=true makes a payment that would need it fail instead of wait, and no return_url is sent', (_what, consumer) => {
    const body = form(authorizationInputOf({ consumer_authentication: consumer }));
    expect([body.error_on_requires_action, body.return_url]).toEqual(['true', undefined]);
  });
});

const intent = (overrides: Record<string, unknown>) => ({
  id: 'pi_3MtwBwLkdIwHu7ix28a3tqPa',
  object: 'payment_intent',
  amount: 1250,
  currency: 'eur',
  status: 'succeeded',
  latest_charge: null,
  next_action: null,
  last_payment_error: null,
  ...overrides,
});
const chargeWith = (card: Record<string, unknown>) => ({ id: 'ch_3MtwBw', object: 'charge', payment_method_details: { type: 'card', card } });

describe('Stripe mapper: the PaymentIntent answer', () => {
  it.each(['succeeded', 'requires_capture'])(
    "when the PaymentIntent is %s, then the authorization succeeded with its id and the charge's network transaction id",
    (status) => {
      const outcome = fromStripePaymentIntentResponse({
        status: 200,
        body: intent({ status, latest_charge: chargeWith({ network_transaction_id: '483297105682216', three_d_secure: null }) }),
      });
      expect(outcome).toEqual({ status: 'succeeded', processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa', network_transaction_reference: '483297105682216' });
    },
  );

  it('when the issuer asks for authentication, then action_required redirects (GET) to next_action.redirect_to_url.url, keeps the PaymentIntent id to resume and reads payment_intent on the way back', () => {
    const outcome = fromStripePaymentIntentResponse({
      status: 200,
      body: intent({
        status: 'requires_action',
        next_action: {
          type: 'redirect_to_url',
          redirect_to_url: { url: 'https://hooks.stripe.com/3d_secure_2/hosted?merchant=acct_1', return_url: hostedPage.return_url },
        },
      }),
    });
    expect(outcome).toEqual({
      status: 'action_required',
      action: { type: 'redirect', url: 'https://hooks.stripe.com/3d_secure_2/hosted?merchant=acct_1', method: 'GET', data: {} },
      processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa',
      resume: { payment_intent: 'pi_3MtwBwLkdIwHu7ix28a3tqPa' },
      return_parameters: ['payment_intent'],
    });
  });

  it("when the consumer authenticated and the PaymentIntent is retrieved, then the authentication result comes from the charge's three_d_secure", () => {
    const threeDs = {
      authentication_flow: 'challenge',
      result: 'authenticated',
      version: '2.2.0',
      electronic_commerce_indicator: '05',
      transaction_id: 'f879ea1c-aa2c-4441-806d-e30406466d79',
    };
    const outcome = fromStripePaymentIntentResponse({
      status: 200,
      body: intent({ status: 'requires_capture', latest_charge: chargeWith({ network_transaction_id: '483297105682216', three_d_secure: threeDs }) }),
    });
    expect(outcome).toMatchObject({
      status: 'succeeded',
      authentication: {
        type: '3ds',
        status: 'authenticated',
        version: '2.2.0',
        eci: '05',
        liability_shift: true,
        authentication_value: null,
        ds_transaction_id: 'f879ea1c-aa2c-4441-806d-e30406466d79',
      },
    });
  });

  it('when the challenge failed, then the retrieved PaymentIntent (requires_payment_method, payment_intent_authentication_failure) is authentication_failed with a failed authentication', () => {
    const outcome = fromStripePaymentIntentResponse({
      status: 200,
      body: intent({ status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'payment_intent_authentication_failure' } }),
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      failure_reason: 'authentication_failed',
      processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa',
      authentication: { status: 'failed', liability_shift: false },
    });
  });

  it.each([
    [{ code: 'card_declined', decline_code: 'generic_decline' }, 'card_declined'],
    [{ code: 'card_declined', decline_code: 'insufficient_funds' }, 'insufficient_funds'],
    [{ code: 'card_declined', decline_code: 'stolen_card' }, 'card_blocked'],
    [{ code: 'expired_card', decline_code: null }, 'expired_card'],
    [{ code: 'incorrect_cvc', decline_code: null }, 'invalid_security_code'],
    [{ code: 'authentication_required', decline_code: 'authentication_required' }, 'authentication_required'],
  ])("when Stripe declines with %j (HTTP 402), then the authorization failed with %s and the PaymentIntent's id", (error, reason) => {
    const outcome = fromStripePaymentIntentResponse({
      status: 402,
      body: { error: { type: 'card_error', ...error, payment_intent: intent({ status: 'requires_payment_method' }) } },
    });
    // The decline beside it is stripe.declines.test.ts's.
    expect(outcome).toMatchObject({ status: 'failed', failure_reason: reason, processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa' });
  });

  it.each([
    [500, { status: 'error', failure_reason: 'processor_unavailable' }],
    [429, { status: 'error', failure_reason: 'processor_rate_limited' }],
    [401, { status: 'failed', failure_reason: 'processor_authentication_failed', processor_reference: null }],
    [400, { status: 'failed', failure_reason: 'processor_request_rejected', processor_reference: null }],
  ])('when Stripe answers %i, then the outcome is %j', (status, expected) => {
    expect(fromStripePaymentIntentResponse({ status, body: { error: { type: 'api_error' } } })).toEqual(expected);
  });

  it('when a confirmed PaymentIntent is still processing, then it is not taken for an authorization', () => {
    expect(fromStripePaymentIntentResponse({ status: 200, body: intent({ status: 'processing' }) })).toMatchObject({
      status: 'failed',
      failure_reason: 'processor_unexpected_result',
    });
  });

  it('when the failure reason is asked of an unknown decline, then it is card_declined', () => {
    expect(stripeFailureReason({ code: 'card_declined', decline_code: 'something_new' })).toBe('card_declined');
  });
});

const payment = (overrides: Partial<ProcessorPayment> = {}): ProcessorPayment => ({ ...authorizationInputOf(), idempotency_key: 'p1:capture', ...overrides });

describe('Stripe mapper: one API version', () => {
  it('when any request is built, then it carries Stripe-Version 2024-06-20 (at least 2022-11-15: latest_charge, no refunds embedded in a Charge), the one constant of the plugin', () => {
    expect(STRIPE_API_VERSION).toBe('2024-06-20');
    expect(STRIPE_API_VERSION >= '2022-11-15').toBe(true);
    const requests = [
      toStripePaymentIntentRequest(authorizationInputOf(), credentials),
      toStripeRetrieveRequest(credentials, 'pi_1'),
      toStripeCaptureRequest(payment(), credentials, 'pi_1'),
      toStripeCancelRequest(payment(), credentials, 'pi_1'),
      toStripeRefundRequest(payment(), credentials, 'pi_1', 'r1'),
      toStripeRefundRetrieveRequest(credentials, 're_1'),
    ];
    expect(requests.map((request) => request.headers['stripe-version'])).toEqual(Array(requests.length).fill(STRIPE_API_VERSION));
  });

  it('when a manual-capture PaymentIntent is created, then it asks for multicapture where available; an automatic one does not', () => {
    expect(form(authorizationInputOf({ capture_mode: 'manual' }))['payment_method_options[card][request_multicapture]']).toBe('if_available');
    expect(form(authorizationInputOf({ capture_mode: 'automatic' }))).not.toHaveProperty(['payment_method_options[card][request_multicapture]']);
  });
});

describe('Stripe mapper: capture, cancel, retrieve and refund', () => {
  it("when a manual-capture payment is captured, then POST /v1/payment_intents/{id}/capture carries amount_to_capture (the amount to capture, partial or whole) and the capture's idempotency key", () => {
    const request = toStripeCaptureRequest(payment({ amount: 800 }), credentials, 'pi_123');
    expect(request).toEqual({
      method: 'POST',
      path: '/v1/payment_intents/pi_123/capture',
      headers: { authorization: 'Bearer sk_test_mapperKey9Q1', 'stripe-version': STRIPE_API_VERSION, 'idempotency-key': 'p1:capture' },
      format: 'form',
      body: { amount_to_capture: '800', 'expand[]': 'latest_charge' },
      carries_card_data: false,
    });
  });

  it('when captures follow one another (multicapture), then each but the last says final_capture=false and the last after them final_capture=true; a single capture sends neither', () => {
    const body = (capture: ProcessorPayment['capture']) =>
      toStripeCaptureRequest(payment({ amount: 400, capture }), credentials, 'pi_123').body as Record<string, string>;
    expect(body({ sequence: 1, final: false, captured_before: 0, uncaptured_after: 850 })).toMatchObject({ amount_to_capture: '400', final_capture: 'false' });
    expect(body({ sequence: 2, final: false, captured_before: 400, uncaptured_after: 450 })).toMatchObject({ final_capture: 'false' });
    expect(body({ sequence: 3, final: true, captured_before: 800, uncaptured_after: 50 })).toMatchObject({ final_capture: 'true' });
    expect(body({ sequence: 1, final: true, captured_before: 0, uncaptured_after: 850 })).not.toHaveProperty('final_capture');
  });

  it('when a capture with final_capture=false is answered requires_capture (the rest still capturable), then that capture succeeded; the same status after a final capture is still pending', () => {
    expect(
      fromStripeCaptureResponse({ status: 200, body: intent({ status: 'requires_capture', amount_received: 400, amount_capturable: 850 }) }, true),
    ).toEqual({ status: 'succeeded', processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa' });
    expect(fromStripeCaptureResponse({ status: 200, body: intent({ status: 'requires_capture' }) })).toMatchObject({ status: 'pending' });
  });

  it('when a PaymentIntent with earlier captures is canceled, then an answer succeeded with nothing capturable is the rest released', () => {
    expect(fromStripeCancelResponse({ status: 200, body: intent({ status: 'succeeded', amount_capturable: 0, amount_received: 400 }) })).toEqual({
      status: 'succeeded',
      processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa',
    });
    expect(fromStripeCancelResponse({ status: 200, body: intent({ status: 'requires_capture', amount_capturable: 850 }) })).toMatchObject({
      status: 'failed',
      failure_reason: 'void_failed',
    });
  });

  it('when a pending refund is asked about, then GET /v1/refunds/{id} carries no body; a 200 tells its status, any other answer (404, 5xx) tells nothing and it stays pending', () => {
    expect(toStripeRefundRetrieveRequest(credentials, 're_1')).toEqual({
      method: 'GET',
      path: '/v1/refunds/re_1',
      headers: { authorization: 'Bearer sk_test_mapperKey9Q1', 'stripe-version': STRIPE_API_VERSION },
      carries_card_data: false,
    });
    expect(unansweredQuestion({ status: 404, body: { error: { code: 'resource_missing' } } })).toMatchObject({ status: 'error' });
    expect(unansweredQuestion({ status: 503, body: null })).toMatchObject({ status: 'error' });
    expect(unansweredQuestion({ status: 200, body: { id: 're_1', status: 'pending' } })).toBeNull();
  });

  it.each([
    ['succeeded', { status: 'succeeded', processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa' }],
    ['processing', { status: 'pending', processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa', poll_after_ms: 5_000 }],
    ['canceled', { status: 'failed', failure_reason: 'capture_failed', processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa' }],
  ])("when the capture answer's PaymentIntent is %s, then the capture is %j", (status, expected) => {
    expect(fromStripeCaptureResponse({ status: 200, body: intent({ status }) })).toEqual(expected);
  });

  it('when Stripe refuses a capture (400 payment_intent_unexpected_state), then the capture failed', () => {
    expect(fromStripeCaptureResponse({ status: 400, body: { error: { code: 'payment_intent_unexpected_state' } } })).toMatchObject({
      status: 'failed',
      failure_reason: 'capture_failed',
    });
  });

  it('when an authorization is voided, then POST /v1/payment_intents/{id}/cancel is sent and the canceled PaymentIntent confirms it in the answer', () => {
    expect(toStripeCancelRequest(payment({ idempotency_key: 'p1:void' }), credentials, 'pi_123')).toMatchObject({
      method: 'POST',
      path: '/v1/payment_intents/pi_123/cancel',
      headers: { 'idempotency-key': 'p1:void' },
      format: 'form',
    });
    expect(fromStripeCancelResponse({ status: 200, body: intent({ status: 'canceled' }) })).toEqual({
      status: 'succeeded',
      processor_reference: 'pi_3MtwBwLkdIwHu7ix28a3tqPa',
    });
    expect(fromStripeCancelResponse({ status: 400, body: { error: { code: 'payment_intent_unexpected_state' } } })).toMatchObject({
      status: 'failed',
      failure_reason: 'void_failed',
    });
  });

  it("when a PaymentIntent is retrieved (the consumer's return, a capture that settles), then GET carries no body and asks for the charge", () => {
    expect(toStripeRetrieveRequest(credentials, 'pi_123')).toEqual({
      method: 'GET',
      path: '/v1/payment_intents/pi_123?expand%5B%5D=latest_charge',
      headers: { authorization: 'Bearer sk_test_mapperKey9Q1', 'stripe-version': STRIPE_API_VERSION },
      carries_card_data: false,
    });
  });

  it("when a refund is sent, then POST /v1/refunds names the PaymentIntent, the refund's amount, its reason in Stripe's words, our refund id in metadata, with the refund's idempotency key", () => {
    const request = toStripeRefundRequest(
      payment({ amount: 500, idempotency_key: 'refund:r1', refund_reason: 'requested_by_customer' }),
      credentials,
      'pi_123',
      'r1',
    );
    expect(request).toEqual({
      method: 'POST',
      path: '/v1/refunds',
      headers: { authorization: 'Bearer sk_test_mapperKey9Q1', 'stripe-version': STRIPE_API_VERSION, 'idempotency-key': 'refund:r1' },
      format: 'form',
      body: { payment_intent: 'pi_123', amount: '500', reason: 'requested_by_customer', 'metadata[refund_id]': 'r1' },
      carries_card_data: false,
    });
    expect(toStripeRefundRequest(payment({ refund_reason: null }), credentials, 'pi_123', 'r2').body).not.toHaveProperty('reason');
  });

  it.each([
    ['succeeded', { status: 'succeeded', processor_reference: 're_1' }],
    ['pending', { status: 'pending', processor_reference: 're_1', poll_after_ms: 5_000 }],
    ['requires_action', { status: 'pending', processor_reference: 're_1', poll_after_ms: 5_000 }],
    ['canceled', { status: 'failed', failure_reason: 'refund_failed', processor_reference: 're_1' }],
    ['failed', { status: 'failed', failure_reason: 'refund_failed', processor_reference: 're_1' }],
  ])('when the Refund answered is %s, then the refund is %j', (status, expected) => {
    expect(fromStripeRefundResponse({ status: 200, body: { id: 're_1', object: 'refund', status } })).toEqual(expected);
  });
});
