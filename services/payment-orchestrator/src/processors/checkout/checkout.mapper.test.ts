import { authorizationInputOf } from '../../../test/support/processor-fixtures';
import { checkoutBaseUrl, checkoutCredentialsSchema, type CheckoutCredentials } from './checkout.account';
import {
  CHECKOUT_CAPTURE_RECHECK_MS,
  CHECKOUT_REFUND_RECHECK_MS,
  fromCheckoutCaptureResponse,
  fromCheckoutPaymentResponse,
  fromCheckoutRefundResponse,
  fromCheckoutVoidResponse,
  toCheckoutCaptureRequest,
  toCheckoutPaymentRequest,
  toCheckoutRefundRequest,
  toCheckoutVoidRequest,
} from './checkout.mapper';

const credentials: CheckoutCredentials = {
  secret_key: 'sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e',
  processing_channel_id: 'pc_q4dbxom5jbgudnjzjpz7j2z6uq',
  webhook_secret: 'whsec-10123456789abcdefghijklmnopqrstu',
};

const input = authorizationInputOf;

const consumerPresentSource = {
  type: 'card',
  number: '{{ account_number }}',
  expiry_month: '{{ expiration_month }}',
  expiry_year: '{{ expiration_year }}',
  cvv: '{{ security_code }}',
  name: 'Ada Lovelace',
};
/** A guest one-off: Checkout.com would store the card by default, so it is told not to. */
const guestSource = { ...consumerPresentSource, store_for_future_use: false };
const merchantInitiatedSource = {
  type: 'card',
  number: '{{ account_number }}',
  expiry_month: '{{ expiration_month }}',
  expiry_year: '{{ expiration_year }}',
  name: 'Ada Lovelace',
  stored: true,
};
const common = { amount: 1250, currency: 'EUR', reference: '01a208ee-5f6c-74c8-b99c-a50679101e09', processing_channel_id: 'pc_q4dbxom5jbgudnjzjpz7j2z6uq' };

describe('Checkout.com POST /payments request', () => {
  it('when a guest one-off automatic-capture payment is mapped, then the template has every field pinned, the Bearer key and Cko-Idempotency-Key, placeholders for the card, and store_for_future_use false', () => {
    expect(toCheckoutPaymentRequest(input(), credentials)).toEqual({
      method: 'POST',
      path: '/payments',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e',
        'cko-idempotency-key': '01a208ee-5f6c-74c8-b99c-a50679101e09:authorization',
      },
      body: { source: guestSource, ...common, capture: true },
      carries_card_data: true,
    });
  });

  it('when the flow captures manually, then capture is false', () => {
    expect(toCheckoutPaymentRequest(input({ capture_mode: 'manual' }), credentials).body).toEqual({ source: guestSource, ...common, capture: false });
  });

  it('when a one-off payment stores the card for COF payments (earlier rule 2), then it is a cardholder-initiated Regular payment with store_for_future_use true', () => {
    expect(toCheckoutPaymentRequest(input({ stored_credential: 'storing' }), credentials).body).toEqual({
      source: { ...consumerPresentSource, store_for_future_use: true },
      ...common,
      capture: true,
      payment_type: 'Regular',
      merchant_initiated: false,
    });
  });

  it('when a one-off payment pays with a stored card (earlier rule 3), then it is a cardholder-initiated Regular payment with source.stored true and the cvv, without previous_payment_id', () => {
    expect(toCheckoutPaymentRequest(input({ stored_credential: 'stored' }), credentials).body).toEqual({
      source: { ...consumerPresentSource, stored: true },
      ...common,
      capture: true,
      payment_type: 'Regular',
      merchant_initiated: false,
    });
  });

  it.each([
    ['RECURRING', 'Recurring'],
    ['UNSCHEDULED', 'Unscheduled'],
  ] as const)(
    'when an initial %s payment is made from a stored card (earlier rule 5), then it is %s, cardholder-initiated, with source.stored true',
    (use_case, payment_type) => {
      expect(toCheckoutPaymentRequest(input({ use_case, stored_credential: 'stored' }), credentials).body).toEqual({
        source: { ...consumerPresentSource, stored: true },
        ...common,
        capture: true,
        payment_type,
        merchant_initiated: false,
      });
    },
  );

  it('when an initial recurring payment is mapped, then payment_type Recurring and merchant_initiated false', () => {
    expect(toCheckoutPaymentRequest(input({ use_case: 'RECURRING', stored_credential: 'storing' }), credentials).body).toEqual({
      source: consumerPresentSource,
      ...common,
      capture: true,
      payment_type: 'Recurring',
      merchant_initiated: false,
    });
  });

  it('when an initial unscheduled payment is mapped, then payment_type Unscheduled and merchant_initiated false', () => {
    expect(toCheckoutPaymentRequest(input({ use_case: 'UNSCHEDULED', stored_credential: 'storing' }), credentials).body).toEqual({
      source: consumerPresentSource,
      ...common,
      capture: true,
      payment_type: 'Unscheduled',
      merchant_initiated: false,
    });
  });

  it('when a subsequent recurring payment is mapped, then merchant_initiated true, previous_payment_id the initial payment id, source.stored true, no cvv', () => {
    expect(
      toCheckoutPaymentRequest(
        input({
          use_case: 'SUBSEQUENT_RECURRING',
          stored_credential: 'stored',
          initial_processor_reference: 'pay_mbabizu24mvu3mela5njyhpit4',
          network_transaction_reference: '483425347823432',
        }),
        credentials,
      ).body,
    ).toEqual({
      source: merchantInitiatedSource,
      ...common,
      capture: true,
      payment_type: 'Recurring',
      merchant_initiated: true,
      previous_payment_id: 'pay_mbabizu24mvu3mela5njyhpit4',
    });
  });

  it('when a subsequent unscheduled payment knows only the scheme_id, then previous_payment_id is the scheme_id', () => {
    expect(
      toCheckoutPaymentRequest(
        input({ use_case: 'SUBSEQUENT_UNSCHEDULED', stored_credential: 'stored', network_transaction_reference: '483425347823432' }),
        credentials,
      ).body,
    ).toEqual({
      source: merchantInitiatedSource,
      ...common,
      capture: true,
      payment_type: 'Unscheduled',
      merchant_initiated: true,
      previous_payment_id: '483425347823432',
    });
  });

  it('when a subsequent payment knows neither, then no request is built', () => {
    expect(() => toCheckoutPaymentRequest(input({ use_case: 'SUBSEQUENT_UNSCHEDULED' }), credentials)).toThrow(/scheme_id/);
  });

  it('when the security code is gone and no name is known, then the source has neither cvv nor name', () => {
    expect(
      (toCheckoutPaymentRequest(input({ security_code_available: false, cardholder_name: null }), credentials).body as { source: unknown }).source,
    ).toEqual({
      type: 'card',
      number: '{{ account_number }}',
      expiry_month: '{{ expiration_month }}',
      expiry_year: '{{ expiration_year }}',
      store_for_future_use: false,
    });
  });
});

describe('Checkout.com POST /payments answer', () => {
  it('when Authorized and approved, then it succeeds with the payment id and the scheme_id', () => {
    expect(
      fromCheckoutPaymentResponse({
        status: 201,
        body: {
          id: 'pay_mbabizu24mvu3mela5njyhpit4',
          action_id: 'act_1',
          approved: true,
          status: 'Authorized',
          response_code: '10000',
          scheme_id: '483425347823432',
        },
      }),
    ).toEqual({
      status: 'succeeded',
      processor_reference: 'pay_mbabizu24mvu3mela5njyhpit4',
      network_transaction_reference: '483425347823432',
    });
    expect(fromCheckoutPaymentResponse({ status: 201, body: { id: 'pay_2', approved: true, status: 'Captured' } })).toEqual({
      status: 'succeeded',
      processor_reference: 'pay_2',
      network_transaction_reference: null,
    });
  });

  it.each([
    ['20051', 'insufficient_funds'],
    ['20005', 'card_declined'],
    ['20054', 'expired_card'],
    ['20087', 'invalid_security_code'],
    ['20999', 'card_declined'],
  ])('when Declined with response code %s, then it fails with %s', (response_code, failure_reason) => {
    // The decline beside it is checkout.declines.test.ts's.
    expect(fromCheckoutPaymentResponse({ status: 201, body: { id: 'pay_3', approved: false, status: 'Declined', response_code } })).toMatchObject({
      status: 'failed',
      failure_reason,
      processor_reference: 'pay_3',
    });
  });

  it('when Pending (a 3-D Secure redirect), then it fails: no shopper session can complete it', () => {
    expect(fromCheckoutPaymentResponse({ status: 202, body: { id: 'pay_4', status: 'Pending' } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_unexpected_result',
      processor_reference: 'pay_4',
    });
  });

  it('when Authorized is not approved, then the answer is invalid', () => {
    expect(fromCheckoutPaymentResponse({ status: 201, body: { id: 'pay_5', status: 'Authorized', approved: false } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_invalid_response',
      processor_reference: 'pay_5',
    });
  });

  it.each([500, 502, 503, 429])('when the answer is HTTP %i, then it is a retryable processor error', (status) => {
    expect(fromCheckoutPaymentResponse({ status, body: {} })).toMatchObject({ status: 'error' });
  });

  it('when the key is refused or the request invalid (422), then it fails without a retry', () => {
    expect(fromCheckoutPaymentResponse({ status: 401, body: {} })).toMatchObject({ status: 'failed', failure_reason: 'processor_authentication_failed' });
    expect(fromCheckoutPaymentResponse({ status: 422, body: { error_type: 'request_invalid', error_codes: ['card_number_invalid'] } })).toMatchObject({
      status: 'failed',
      failure_reason: 'processor_request_rejected',
    });
  });
});

describe('Checkout.com captures', () => {
  it('when a full capture is mapped, then it names the payment id and sends no amount; a partial capture sends the amount; both are Final (the rest voided)', () => {
    expect(toCheckoutCaptureRequest({ ...input(), idempotency_key: 'p1:capture' }, credentials, 'pay_mbabizu24mvu3mela5njyhpit4', null)).toEqual({
      method: 'POST',
      path: '/payments/pay_mbabizu24mvu3mela5njyhpit4/captures',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e', 'cko-idempotency-key': 'p1:capture' },
      body: { reference: '01a208ee-5f6c-74c8-b99c-a50679101e09', capture_type: 'Final' },
      carries_card_data: false,
    });
    expect(toCheckoutCaptureRequest(input(), credentials, 'pay_1', 700).body).toEqual({
      amount: 700,
      reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
      capture_type: 'Final',
    });
  });

  /*
   * Capture a payment, https://www.checkout.com/docs/payments/manage-payments/capture-a-payment — "To perform
   * multiple partial captures, set the capture_type field to NonFinal. The default value is Final, which voids
   * any remaining amount on partial captures" (American Express, Mastercard, Visa; at most 150 partial
   * actions per payment).
   */
  it('when captures follow one another, then each but the last is capture_type NonFinal and the last Final', () => {
    const body = (final: boolean) =>
      toCheckoutCaptureRequest({ ...input(), capture: { sequence: 1, final, captured_before: 0, uncaptured_after: 500 } }, credentials, 'pay_1', 400).body;
    expect(body(false)).toEqual({ amount: 400, reference: '01a208ee-5f6c-74c8-b99c-a50679101e09', capture_type: 'NonFinal' });
    expect(body(true)).toMatchObject({ capture_type: 'Final' });
  });

  it('when Checkout.com accepts the capture (202 with an action_id), then it is pending until the webhook', () => {
    expect(fromCheckoutCaptureResponse({ status: 202, body: { action_id: 'act_y3oqhf46pyzuxjbcn2giaqnb44', reference: 'p1' } })).toEqual({
      status: 'pending',
      processor_reference: 'act_y3oqhf46pyzuxjbcn2giaqnb44',
      poll_after_ms: CHECKOUT_CAPTURE_RECHECK_MS,
    });
    expect(fromCheckoutCaptureResponse({ status: 503, body: {} })).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
    expect(fromCheckoutCaptureResponse({ status: 403, body: {} })).toMatchObject({ status: 'failed', failure_reason: 'processor_authentication_failed' });
  });
});

describe('Checkout.com voids (an authorization the payment does not use)', () => {
  it("when a void is mapped, then it goes to /payments/{id}/voids with the payment as reference, the secret key and the void's own idempotency key", () => {
    expect(
      toCheckoutVoidRequest({ ...input(), idempotency_key: 'p1:void:pay_mbabizu24mvu3mela5njyhpit4' }, credentials, 'pay_mbabizu24mvu3mela5njyhpit4'),
    ).toEqual({
      method: 'POST',
      path: '/payments/pay_mbabizu24mvu3mela5njyhpit4/voids',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e',
        'cko-idempotency-key': 'p1:void:pay_mbabizu24mvu3mela5njyhpit4',
      },
      body: { reference: '01a208ee-5f6c-74c8-b99c-a50679101e09' },
      carries_card_data: false,
    });
  });

  it('when Checkout.com answers 202 with an action id, then the void succeeded; a 503 is retryable; a 403 fails', () => {
    expect(fromCheckoutVoidResponse({ status: 202, body: { action_id: 'act_y3oqhf46pyzuxjbcn2giaqnb44', reference: 'p1' } })).toEqual({
      status: 'succeeded',
      processor_reference: 'act_y3oqhf46pyzuxjbcn2giaqnb44',
    });
    expect(fromCheckoutVoidResponse({ status: 503, body: null })).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
    expect(fromCheckoutVoidResponse({ status: 403, body: null })).toEqual({
      status: 'failed',
      failure_reason: 'processor_authentication_failed',
      processor_reference: null,
    });
  });
});

describe('Checkout.com refunds', () => {
  it("when a refund is mapped, then it goes to /payments/{id}/refunds with the amount, the refund id as reference and the refund's Cko-Idempotency-Key, and no card data", () => {
    expect(toCheckoutRefundRequest({ ...input(), amount: 200, idempotency_key: 'p1:refund:r1' }, credentials, 'pay_mbabizu24mvu3mela5njyhpit4', 'r1')).toEqual({
      method: 'POST',
      path: '/payments/pay_mbabizu24mvu3mela5njyhpit4/refunds',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.secret_key}`, 'cko-idempotency-key': 'p1:refund:r1' },
      body: { amount: 200, reference: 'r1' },
      carries_card_data: false,
    });
  });

  it('when Checkout.com answers 202 with an action_id, then the refund is pending until its webhook; a 503 is retryable; a 422 fails', () => {
    expect(fromCheckoutRefundResponse({ status: 202, body: { action_id: 'act_r1', reference: 'r1' } })).toEqual({
      status: 'pending',
      processor_reference: 'act_r1',
      poll_after_ms: CHECKOUT_REFUND_RECHECK_MS,
    });
    expect(fromCheckoutRefundResponse({ status: 503, body: {} })).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
    expect(fromCheckoutRefundResponse({ status: 422, body: { error_codes: ['refund_amount_exceeds_balance'] } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_request_rejected',
      processor_reference: null,
    });
  });
});

describe('Checkout.com account', () => {
  it('when credentials are valid, then they parse; a key that is not sk_, a channel that is not pc_ or an unknown field are refused', () => {
    expect(checkoutCredentialsSchema.safeParse(credentials).success).toBe(true);
    expect(checkoutCredentialsSchema.safeParse({ ...credentials, secret_key: 'pk_sbox_x' }).success).toBe(false);
    expect(checkoutCredentialsSchema.safeParse({ ...credentials, processing_channel_id: 'channel' }).success).toBe(false);
    expect(checkoutCredentialsSchema.safeParse({ ...credentials, extra: 1 }).success).toBe(false);
  });

  it('when no base_url is set, then test mode goes to the sandbox and live mode to the live host', () => {
    expect(checkoutBaseUrl('test', null)).toBe('https://api.sandbox.checkout.com');
    expect(checkoutBaseUrl('live', null)).toBe('https://api.checkout.com');
    expect(checkoutBaseUrl('test', 'http://127.0.0.1:4020/')).toBe('http://127.0.0.1:4020');
  });
});
