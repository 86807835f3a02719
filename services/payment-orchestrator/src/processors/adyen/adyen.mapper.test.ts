import { authorizationInputOf } from '../../../test/support/processor-fixtures';
import { adyenBaseUrl, adyenCredentialsSchema, type AdyenCredentials } from './adyen.account';
import {
  ADYEN_CAPTURE_RECHECK_MS,
  ADYEN_REFUND_RECHECK_MS,
  adyenConfigurationProblem,
  adyenFailureReason,
  fromAdyenCancelResponse,
  fromAdyenCaptureResponse,
  fromAdyenPaymentResponse,
  fromAdyenRefundResponse,
  toAdyenCancelRequest,
  toAdyenCaptureRequest,
  toAdyenPaymentRequest,
  toAdyenRefundRequest,
} from './adyen.mapper';
import { adyen } from '.';

const credentials: AdyenCredentials = {
  api_key: 'AQE_test_key',
  merchant_account: 'ShopECOM',
  hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

const input = authorizationInputOf;

const consumerPresentCard = {
  type: 'scheme',
  number: '{{ account_number }}',
  expiryMonth: '{{ expiration_month }}',
  expiryYear: '{{ expiration_year }}',
  cvc: '{{ security_code }}',
  holderName: 'Ada Lovelace',
};
const merchantInitiatedCard = {
  type: 'scheme',
  number: '{{ account_number }}',
  expiryMonth: '{{ expiration_month }}',
  expiryYear: '{{ expiration_year }}',
  holderName: 'Ada Lovelace',
};
/** Every field of the body of the fixture's payment: the card as given, then the stored-credential fields. */
const bodyWith = (paymentMethod: Record<string, string>, storedCredentialFields: Record<string, string>) => ({
  amount: { currency: 'EUR', value: 1250 },
  reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
  paymentMethod,
  merchantAccount: 'ShopECOM',
  captureDelayHours: 0,
  ...storedCredentialFields,
});

describe('Adyen v69 /payments request', () => {
  it('when a one-off payment is mapped, then the request is a forwarder template with every field pinned and only placeholders for the card', () => {
    expect(toAdyenPaymentRequest(input(), credentials)).toEqual({
      method: 'POST',
      path: '/v69/payments',
      headers: { 'content-type': 'application/json', 'x-api-key': 'AQE_test_key', 'idempotency-key': '01a208ee-5f6c-74c8-b99c-a50679101e09:authorization' },
      body: {
        amount: { currency: 'EUR', value: 1250 },
        reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
        paymentMethod: consumerPresentCard,
        merchantAccount: 'ShopECOM',
        captureDelayHours: 0,
        shopperInteraction: 'Ecommerce',
      },
      carries_card_data: true,
    });
  });

  it('when a one-off payment stores the card for COF payments (earlier rule 2), then it is Ecommerce with recurringProcessingModel CardOnFile and the cvc', () => {
    expect(toAdyenPaymentRequest(input({ stored_credential: 'storing' }), credentials).body).toEqual(
      bodyWith(consumerPresentCard, { shopperInteraction: 'Ecommerce', recurringProcessingModel: 'CardOnFile' }),
    );
  });

  it('when a one-off payment pays with a stored card, the shopper present (earlier rule 3), then it is ContAuth with CardOnFile and the cvc, and no networkTxReference', () => {
    expect(toAdyenPaymentRequest(input({ stored_credential: 'stored' }), credentials).body).toEqual(
      bodyWith(consumerPresentCard, { shopperInteraction: 'ContAuth', recurringProcessingModel: 'CardOnFile' }),
    );
  });

  it('when a stored-card COF payment goes after the security code is gone, then it is still ContAuth with CardOnFile, without cvc', () => {
    expect(toAdyenPaymentRequest(input({ stored_credential: 'stored', security_code_available: false }), credentials).body).toEqual(
      bodyWith(merchantInitiatedCard, { shopperInteraction: 'ContAuth', recurringProcessingModel: 'CardOnFile' }),
    );
  });

  it.each([
    ['RECURRING', 'Subscription'],
    ['UNSCHEDULED', 'UnscheduledCardOnFile'],
  ] as const)(
    'when an initial %s payment is made from a stored card (earlier rule 5), then it starts the agreement as Ecommerce with %s and the cvc',
    (use_case, recurringProcessingModel) => {
      expect(toAdyenPaymentRequest(input({ use_case, stored_credential: 'stored' }), credentials).body).toEqual(
        bodyWith(consumerPresentCard, { shopperInteraction: 'Ecommerce', recurringProcessingModel }),
      );
    },
  );

  it('when an initial recurring payment is mapped, then it is Ecommerce with recurringProcessingModel Subscription', () => {
    expect(toAdyenPaymentRequest(input({ use_case: 'RECURRING', stored_credential: 'storing' }), credentials).body).toEqual({
      amount: { currency: 'EUR', value: 1250 },
      reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
      paymentMethod: consumerPresentCard,
      merchantAccount: 'ShopECOM',
      captureDelayHours: 0,
      shopperInteraction: 'Ecommerce',
      recurringProcessingModel: 'Subscription',
    });
  });

  it('when an initial unscheduled payment is mapped, then it is Ecommerce with UnscheduledCardOnFile', () => {
    expect(toAdyenPaymentRequest(input({ use_case: 'UNSCHEDULED', stored_credential: 'storing' }), credentials).body).toEqual({
      amount: { currency: 'EUR', value: 1250 },
      reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
      paymentMethod: consumerPresentCard,
      merchantAccount: 'ShopECOM',
      captureDelayHours: 0,
      shopperInteraction: 'Ecommerce',
      recurringProcessingModel: 'UnscheduledCardOnFile',
    });
  });

  it('when a subsequent recurring payment is mapped, then it is ContAuth with Subscription, the initial networkTxReference and no cvc', () => {
    expect(
      toAdyenPaymentRequest(
        input({ use_case: 'SUBSEQUENT_RECURRING', stored_credential: 'stored', network_transaction_reference: 'MCC123456789', amount: 1000 }),
        credentials,
      ).body,
    ).toEqual({
      amount: { currency: 'EUR', value: 1000 },
      reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
      paymentMethod: merchantInitiatedCard,
      merchantAccount: 'ShopECOM',
      captureDelayHours: 0,
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'Subscription',
      additionalData: { networkTxReference: 'MCC123456789' },
    });
  });

  it('when a subsequent unscheduled payment is mapped, then it is ContAuth with UnscheduledCardOnFile and the initial networkTxReference, even while a security code would be available', () => {
    expect(
      toAdyenPaymentRequest(
        input({
          use_case: 'SUBSEQUENT_UNSCHEDULED',
          stored_credential: 'stored',
          network_transaction_reference: '559381749327',
          security_code_available: true,
        }),
        credentials,
      ).body,
    ).toEqual({
      amount: { currency: 'EUR', value: 1250 },
      reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
      paymentMethod: merchantInitiatedCard,
      merchantAccount: 'ShopECOM',
      captureDelayHours: 0,
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'UnscheduledCardOnFile',
      additionalData: { networkTxReference: '559381749327' },
    });
  });

  it('when a subsequent payment has no network transaction reference, then no request is built', () => {
    expect(() => toAdyenPaymentRequest(input({ use_case: 'SUBSEQUENT_RECURRING' }), credentials)).toThrow(/networkTxReference/);
  });

  it('when the flow captures automatically, then captureDelayHours is 0 (an account set to manual capture would otherwise leave it uncaptured); a manual flow sends none', () => {
    expect(toAdyenPaymentRequest(input({ capture_mode: 'automatic' }), credentials).body).toMatchObject({ captureDelayHours: 0 });
    expect(toAdyenPaymentRequest(input({ capture_mode: 'manual' }), credentials).body).not.toHaveProperty('captureDelayHours');
  });

  it('when the flow captures manually, then additionalData.manualCapture is the string "true" (beside the networkTxReference of a subsequent payment)', () => {
    expect(toAdyenPaymentRequest(input({ capture_mode: 'manual' }), credentials).body).toMatchObject({ additionalData: { manualCapture: 'true' } });
    expect(
      (
        toAdyenPaymentRequest(input({ capture_mode: 'manual', use_case: 'SUBSEQUENT_UNSCHEDULED', network_transaction_reference: 'N1' }), credentials).body as {
          additionalData: unknown;
        }
      ).additionalData,
    ).toEqual({
      manualCapture: 'true',
      networkTxReference: 'N1',
    });
  });

  it('when the security code is no longer available, then no cvc is sent; with no cardholder name, no holderName', () => {
    const body = toAdyenPaymentRequest(input({ security_code_available: false, cardholder_name: null }), credentials).body as {
      paymentMethod: Record<string, string>;
    };
    expect(body.paymentMethod).toEqual({
      type: 'scheme',
      number: '{{ account_number }}',
      expiryMonth: '{{ expiration_month }}',
      expiryYear: '{{ expiration_year }}',
    });
  });
});

describe('Adyen accounts configured without the network transaction reference', () => {
  const authorised = { status: 'succeeded' as const, processor_reference: 'QFQTPCQ8HXSKGK82', network_transaction_reference: null };

  it.each(['RECURRING', 'UNSCHEDULED'] as const)(
    'when an initial %s payment is Authorised without networkTxReference, then it fails processor_configuration (a decline: no retry, no fallback)',
    (use_case) => {
      expect(adyenConfigurationProblem(input({ use_case }), authorised)).toEqual({
        status: 'failed',
        failure_reason: 'processor_configuration',
        processor_reference: 'QFQTPCQ8HXSKGK82',
      });
    },
  );

  it('when the answer carries the reference, or the payment is one-off, then there is no problem', () => {
    expect(adyenConfigurationProblem(input({ use_case: 'RECURRING' }), { ...authorised, network_transaction_reference: 'MCC1' })).toBeNull();
    expect(adyenConfigurationProblem(input({ use_case: 'ONE_OFF' }), authorised)).toBeNull();
  });

  it("when a subsequent payment's credentials have no reference, then it fails processor_configuration before anything is sent", () => {
    expect(adyenConfigurationProblem(input({ use_case: 'SUBSEQUENT_RECURRING', network_transaction_reference: null }))).toEqual({
      status: 'failed',
      failure_reason: 'processor_configuration',
      processor_reference: null,
    });
    expect(adyenConfigurationProblem(input({ use_case: 'SUBSEQUENT_RECURRING', network_transaction_reference: 'MCC1' }))).toBeNull();
  });
});

describe('Adyen v69 /payments answer', () => {
  it('when Authorised, then the payment succeeds with the pspReference and the networkTxReference', () => {
    expect(
      fromAdyenPaymentResponse({
        status: 200,
        body: { pspReference: 'QFQTPCQ8HXSKGK82', resultCode: 'Authorised', additionalData: { networkTxReference: 'MCC123456789' }, merchantReference: 'p1' },
      }),
    ).toEqual({
      status: 'succeeded',
      processor_reference: 'QFQTPCQ8HXSKGK82',
      network_transaction_reference: 'MCC123456789',
    });
  });

  it('when Authorised without additionalData, then the network transaction reference is null', () => {
    expect(fromAdyenPaymentResponse({ status: 200, body: { pspReference: 'P1', resultCode: 'Authorised' } })).toEqual({
      status: 'succeeded',
      processor_reference: 'P1',
      network_transaction_reference: null,
    });
  });

  it.each([
    ['Not enough balance', 'insufficient_funds'],
    ['Refused', 'card_declined'],
    ['Expired Card', 'expired_card'],
    ['CVC Declined', 'invalid_security_code'],
    ['FRAUD', 'suspected_fraud'],
    ['Something new', 'card_declined'],
  ])('when Refused with refusalReason %s, then it fails with %s (a decline, never retried elsewhere)', (refusalReason, failure_reason) => {
    // The decline beside it is adyen.declines.test.ts's.
    expect(fromAdyenPaymentResponse({ status: 200, body: { pspReference: 'P2', resultCode: 'Refused', refusalReason, refusalReasonCode: '2' } })).toMatchObject(
      { status: 'failed', failure_reason, processor_reference: 'P2' },
    );
  });

  it('when Error or Cancelled, then it fails with processor_error or cancelled', () => {
    expect(fromAdyenPaymentResponse({ status: 200, body: { pspReference: 'P3', resultCode: 'Error' } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_error',
      processor_reference: 'P3',
    });
    expect(fromAdyenPaymentResponse({ status: 200, body: { pspReference: 'P4', resultCode: 'Cancelled' } })).toEqual({
      status: 'failed',
      failure_reason: 'cancelled',
      processor_reference: 'P4',
    });
  });

  it('when an action is asked for (no shopper session to run it in), then it fails rather than waits', () => {
    expect(fromAdyenPaymentResponse({ status: 200, body: { resultCode: 'RedirectShopper', action: {} } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_unexpected_result',
      processor_reference: null,
    });
  });

  it.each([500, 502, 503, 504, 429])('when the answer is HTTP %i, then it is a retryable processor error', (status) => {
    expect(fromAdyenPaymentResponse({ status, body: { status, errorCode: '000', message: 'x', errorType: 'internal' } })).toMatchObject({ status: 'error' });
  });

  it('when the API key is refused or the request invalid, then it fails without a retry', () => {
    expect(fromAdyenPaymentResponse({ status: 401, body: {} })).toEqual({
      status: 'failed',
      failure_reason: 'processor_authentication_failed',
      processor_reference: null,
    });
    expect(fromAdyenPaymentResponse({ status: 422, body: { errorCode: '101', message: 'Invalid card number' } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_request_rejected',
      processor_reference: null,
    });
  });

  it('when Authorised comes without a pspReference, then it fails as an invalid answer', () => {
    expect(fromAdyenPaymentResponse({ status: 200, body: { resultCode: 'Authorised' } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_invalid_response',
      processor_reference: null,
    });
  });

  it('when a refusal reason is not a string, then it is a plain decline', () => {
    expect(adyenFailureReason(undefined)).toBe('card_declined');
  });
});

/*
 * Multiple partial captures, CheckoutService-v69.json, POST /payments/{paymentPspReference}/captures: "By
 * default, any unclaimed amount after a partial capture gets cancelled. This does not apply if you enabled
 * multiple partial captures on your account" (enabled by Adyen's Support Team:
 * https://docs.adyen.com/point-of-sale/host-to-host/capture-manually, "Multiple partial capture is disabled
 * by default"); PaymentCaptureRequest has no "final" field, so what a final capture leaves is released with
 * POST /payments/{paymentPspReference}/cancels. Adyen offers no GET of a modification: CAPTURE,
 * CAPTURE_FAILED, REFUND, CANCELLATION notifications are its only word.
 */
describe('Adyen v69 captures, one or several', () => {
  const open = (settings: { multiple_partial_captures?: boolean }) =>
    adyen.open(adyen.optionsSchema.parse({ credentials, base_url: 'https://checkout-test.adyen.com', mode: 'test', settings }), {
      clock: undefined as never,
      transport: { forward: () => Promise.reject(new Error('no card data here')), send: () => Promise.reject(new Error('not sent')) },
    });

  it('when the account has multiple partial captures (settings.multiple_partial_captures), then the connection takes several captures and releases what the final one leaves with a cancel; without it, neither', () => {
    expect(open({ multiple_partial_captures: true })).toMatchObject({ capabilities: { multipleCaptures: true, partialCapture: true } });
    expect(typeof open({ multiple_partial_captures: true }).releaseRemainder).toBe('function');
    expect(open({})).toMatchObject({ capabilities: { multipleCaptures: false, partialCapture: true } });
    expect(open({}).releaseRemainder).toBeUndefined();
  });
});

describe('Adyen v69 captures', () => {
  it('when a capture is mapped, then it goes to /payments/{pspReference}/captures with the merchant account, the amount to capture and the idempotency key, and no card data', () => {
    expect(toAdyenCaptureRequest({ ...input(), amount: 700, idempotency_key: 'p1:capture' }, credentials, 'QFQTPCQ8HXSKGK82')).toEqual({
      method: 'POST',
      path: '/v69/payments/QFQTPCQ8HXSKGK82/captures',
      headers: { 'content-type': 'application/json', 'x-api-key': 'AQE_test_key', 'idempotency-key': 'p1:capture' },
      body: { merchantAccount: 'ShopECOM', amount: { currency: 'EUR', value: 700 }, reference: '01a208ee-5f6c-74c8-b99c-a50679101e09' },
      carries_card_data: false,
    });
  });

  it('when Adyen answers received, then the capture is pending until its notification', () => {
    expect(
      fromAdyenCaptureResponse({
        status: 201,
        body: { merchantAccount: 'ShopECOM', paymentPspReference: 'QFQTPCQ8HXSKGK82', pspReference: 'JDD6LKT8MBLZNN84', status: 'received' },
      }),
    ).toEqual({
      status: 'pending',
      processor_reference: 'JDD6LKT8MBLZNN84',
      poll_after_ms: ADYEN_CAPTURE_RECHECK_MS,
    });
  });

  it('when the capture answer is a 503, then it is retryable; when it is not received, then it fails', () => {
    expect(fromAdyenCaptureResponse({ status: 503, body: {} })).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
    expect(fromAdyenCaptureResponse({ status: 201, body: { pspReference: 'X', status: 'other' } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_invalid_response',
      processor_reference: 'X',
    });
  });
});

describe('Adyen v69 cancels (an authorisation the payment does not use)', () => {
  it("when a cancel is mapped, then it goes to /payments/{pspReference}/cancels with the merchant account, the payment as reference and the void's own idempotency key", () => {
    expect(toAdyenCancelRequest({ ...input(), idempotency_key: 'p1:void:QFQTPCQ8HXSKGK82' }, credentials, 'QFQTPCQ8HXSKGK82')).toEqual({
      method: 'POST',
      path: '/v69/payments/QFQTPCQ8HXSKGK82/cancels',
      headers: { 'content-type': 'application/json', 'x-api-key': 'AQE_test_key', 'idempotency-key': 'p1:void:QFQTPCQ8HXSKGK82' },
      body: { merchantAccount: 'ShopECOM', reference: '01a208ee-5f6c-74c8-b99c-a50679101e09' },
      carries_card_data: false,
    });
  });

  it('when Adyen answers received, then the cancel succeeded; a 503 is retryable; any other answer fails', () => {
    expect(
      fromAdyenCancelResponse({ status: 201, body: { paymentPspReference: 'QFQTPCQ8HXSKGK82', pspReference: 'JDD6LKT8MBLZNN84', status: 'received' } }),
    ).toEqual({ status: 'succeeded', processor_reference: 'JDD6LKT8MBLZNN84' });
    expect(fromAdyenCancelResponse({ status: 503, body: {} })).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
    expect(fromAdyenCancelResponse({ status: 422, body: {} })).toEqual({
      status: 'failed',
      failure_reason: 'processor_request_rejected',
      processor_reference: null,
    });
  });
});

describe('Adyen v69 refunds', () => {
  it("when a refund is mapped, then it goes to /payments/{pspReference}/refunds with the merchant account, the amount, the refund id as reference, the reason in Adyen's words and the refund's idempotency key", () => {
    expect(
      toAdyenRefundRequest({ ...input(), amount: 200, idempotency_key: 'p1:refund:r1' }, credentials, 'QFQTPCQ8HXSKGK82', 'r1', 'requested_by_customer'),
    ).toEqual({
      method: 'POST',
      path: '/v69/payments/QFQTPCQ8HXSKGK82/refunds',
      headers: { 'content-type': 'application/json', 'x-api-key': 'AQE_test_key', 'idempotency-key': 'p1:refund:r1' },
      body: { merchantAccount: 'ShopECOM', amount: { currency: 'EUR', value: 200 }, reference: 'r1', merchantRefundReason: 'CUSTOMER REQUEST' },
      carries_card_data: false,
    });
  });

  it.each([
    ['duplicate', 'DUPLICATE'],
    ['fraudulent', 'FRAUD'],
  ] as const)('when the reason is %s, then merchantRefundReason is %s; without a reason none is sent', (reason, adyenReason) => {
    expect(toAdyenRefundRequest(input(), credentials, 'P', 'r1', reason).body).toMatchObject({ merchantRefundReason: adyenReason });
    expect(toAdyenRefundRequest(input(), credentials, 'P', 'r1', null).body).not.toHaveProperty('merchantRefundReason');
  });

  it('when Adyen answers received, then the refund is pending until its REFUND notification; a 503 is retryable; another answer fails', () => {
    expect(
      fromAdyenRefundResponse({ status: 201, body: { paymentPspReference: 'QFQTPCQ8HXSKGK82', pspReference: 'REF1', reference: 'r1', status: 'received' } }),
    ).toEqual({ status: 'pending', processor_reference: 'REF1', poll_after_ms: ADYEN_REFUND_RECHECK_MS });
    expect(fromAdyenRefundResponse({ status: 503, body: {} })).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
    expect(fromAdyenRefundResponse({ status: 201, body: { status: 'other' } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_invalid_response',
      processor_reference: null,
    });
  });
});

describe('Adyen account', () => {
  it('when credentials are valid, then they parse; a hmac_key that is not hex, a missing merchant_account or an unknown field are refused', () => {
    expect(adyenCredentialsSchema.safeParse(credentials).success).toBe(true);
    expect(adyenCredentialsSchema.safeParse({ ...credentials, hmac_key: 'not-hex' }).success).toBe(false);
    expect(adyenCredentialsSchema.safeParse({ api_key: 'k', hmac_key: 'ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB' }).success).toBe(
      false,
    );
    expect(adyenCredentialsSchema.safeParse({ ...credentials, password: 'x' }).success).toBe(false);
  });

  it('when the mode is test, then payments go to checkout-test; live uses the account prefix; a base_url overrides both', () => {
    expect(adyenBaseUrl(credentials, 'test', null)).toBe('https://checkout-test.adyen.com');
    expect(adyenBaseUrl({ ...credentials, live_url_prefix: '1797a841fbb37ca7-AdyenDemo' }, 'live', null)).toBe(
      'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout',
    );
    expect(() => adyenBaseUrl(credentials, 'live', null)).toThrow(/live_url_prefix/);
    expect(adyenBaseUrl(credentials, 'test', 'http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010');
  });
});
