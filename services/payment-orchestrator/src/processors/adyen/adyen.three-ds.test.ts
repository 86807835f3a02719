import { authorizationInputOf } from '../../../test/support/processor-fixtures';
import type { ConsumerAuthentication } from '../../domain/payment-vocabulary/authentication';
import type { AdyenCredentials } from './adyen.account';
import {
  adyenAuthentication,
  adyenThreeDsFields,
  fromAdyenThreeDsResponse,
  toAdyenPaymentDetailsRequest,
  withoutAuthenticationUnderOff,
} from './adyen.three-ds';

// Every field below is pinned to Adyen's published OpenAPI document, json/CheckoutService-v69.json
// (github.com/Adyen/adyen-openapi); the schema of each is named where it is checked.

const credentials: AdyenCredentials = {
  api_key: 'AQE_test_key',
  merchant_account: 'ShopECOM',
  hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};
const browser = {
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
  accept_header: 'text/html,application/xhtml+xml',
  language: 'en-GB',
  color_depth: 24,
  screen_height: 900,
  screen_width: 1440,
  time_zone_offset: -60,
  java_enabled: false,
  ip_address: '203.0.113.7',
};
const consumer = (overrides: Partial<ConsumerAuthentication> = {}): ConsumerAuthentication => ({
  three_ds: 'if_required',
  browser,
  return_url: 'https://pay.example.com:8443/checkout/c_7Hq2/return',
  first_of_series: false,
  ...overrides,
});
/** BrowserInfo: the eight fields its `required` list names, in Adyen's names. */
const browserInfo = {
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
  acceptHeader: 'text/html,application/xhtml+xml',
  language: 'en-GB',
  colorDepth: 24,
  screenHeight: 900,
  screenWidth: 1440,
  timeZoneOffset: -60,
  javaEnabled: false,
};

describe('Adyen v69 /payments request with 3-D Secure (redirect flow)', () => {
  it('when the step says if_required, then the request carries browserInfo, shopperIP, channel Web, the hosted page as returnUrl and its origin, and no attemptAuthentication (Adyen and the issuer decide)', () => {
    expect(adyenThreeDsFields(authorizationInputOf(), consumer())).toEqual({
      browserInfo,
      shopperIP: '203.0.113.7',
      channel: 'Web',
      origin: 'https://pay.example.com:8443',
      returnUrl: 'https://pay.example.com:8443/checkout/c_7Hq2/return',
    });
  });

  it('when the step says always, then authenticationData.attemptAuthentication is always and threeDS2RequestData.threeDSRequestorChallengeInd asks for a challenge (03)', () => {
    expect(adyenThreeDsFields(authorizationInputOf(), consumer({ three_ds: 'always' }))).toEqual({
      authenticationData: { attemptAuthentication: 'always' },
      threeDS2RequestData: { threeDSRequestorChallengeInd: '03' },
      browserInfo,
      shopperIP: '203.0.113.7',
      channel: 'Web',
      origin: 'https://pay.example.com:8443',
      returnUrl: 'https://pay.example.com:8443/checkout/c_7Hq2/return',
    });
  });

  it('when the step says off, then authenticationData.attemptAuthentication is never and no redirect field is sent', () => {
    expect(adyenThreeDsFields(authorizationInputOf(), consumer({ three_ds: 'off' }))).toEqual({ authenticationData: { attemptAuthentication: 'never' } });
  });

  it.each(['RECURRING', 'UNSCHEDULED'] as const)(
    'when the payment is the first of a %s series, then threeDSRequestorChallengeInd is 04 (challenge requested, mandate) under if_required and always alike',
    (use_case) => {
      const payment = authorizationInputOf({ use_case, stored_credential: 'storing' });
      expect(adyenThreeDsFields(payment, consumer({ first_of_series: true }))).toMatchObject({ threeDS2RequestData: { threeDSRequestorChallengeInd: '04' } });
      expect(adyenThreeDsFields(payment, consumer({ first_of_series: true }))).not.toHaveProperty('authenticationData');
      expect(adyenThreeDsFields(payment, consumer({ three_ds: 'always', first_of_series: true }))).toMatchObject({
        authenticationData: { attemptAuthentication: 'always' },
        threeDS2RequestData: { threeDSRequestorChallengeInd: '04' },
      });
    },
  );

  it('when the payment is not the first of a series (a one-off that stores the card for one-click use), then no mandate is asked for', () => {
    expect(adyenThreeDsFields(authorizationInputOf({ stored_credential: 'storing' }), consumer())).not.toHaveProperty('threeDS2RequestData');
  });

  it.each(['SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'] as const)(
    'when the payment is a merchant-initiated %s, then no 3-D Secure field is sent (the consumer is absent)',
    (use_case) => {
      expect(
        adyenThreeDsFields(
          authorizationInputOf({ use_case, stored_credential: 'stored', network_transaction_reference: 'NTR1' }),
          consumer({ three_ds: 'always' }),
        ),
      ).toEqual({});
    },
  );

  it('when the hosted page could not read the browser, then browserInfo and shopperIP are left out rather than sent incomplete', () => {
    expect(adyenThreeDsFields(authorizationInputOf(), consumer({ browser: null }))).toEqual({
      channel: 'Web',
      origin: 'https://pay.example.com:8443',
      returnUrl: 'https://pay.example.com:8443/checkout/c_7Hq2/return',
    });
  });
});

describe('Adyen v69 RedirectShopper answer (PaymentResponse.action: CheckoutRedirectAction)', () => {
  it('when Adyen answers RedirectShopper with a GET redirect, then the consumer is sent to action.url by GET, with no pspReference yet', () => {
    const body = {
      resultCode: 'RedirectShopper',
      action: {
        paymentMethodType: 'scheme',
        url: 'https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect?MD=M2RzMj',
        method: 'GET',
        type: 'redirect',
      },
      merchantReference: 'p1',
    };
    expect(fromAdyenThreeDsResponse({ status: 200, body })).toEqual({
      status: 'action_required',
      action: { type: 'redirect', url: 'https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect?MD=M2RzMj', method: 'GET', data: {} },
      processor_reference: null,
      // v69 resumes with redirectResult alone (no paymentData); the redirect is kept to send a consumer back who returned without it.
      resume: { redirect_url: 'https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect?MD=M2RzMj', redirect_method: 'GET' },
      return_parameters: ['redirectResult'],
    });
  });

  it("when Adyen answers RedirectShopper with a POST redirect, then the consumer's browser posts action.data (MD, PaReq, TermUrl) to action.url", () => {
    const body = {
      resultCode: 'RedirectShopper',
      action: {
        paymentMethodType: 'scheme',
        url: 'https://test.adyen.com/hpp/3d/validate.shtml',
        method: 'POST',
        data: { MD: 'OEVudmZVMU', PaReq: 'BQABAgCW5s', TermUrl: 'https://checkoutshopper-test.adyen.com/term' },
        type: 'redirect',
      },
    };
    expect(fromAdyenThreeDsResponse({ status: 200, body })).toMatchObject({
      status: 'action_required',
      action: {
        type: 'redirect',
        url: 'https://test.adyen.com/hpp/3d/validate.shtml',
        method: 'POST',
        data: { MD: 'OEVudmZVMU', PaReq: 'BQABAgCW5s', TermUrl: 'https://checkoutshopper-test.adyen.com/term' },
      },
      processor_reference: null,
      return_parameters: ['redirectResult'],
    });
  });

  it('when a RedirectShopper answer has no redirect action, then the payment fails processor_invalid_response', () => {
    expect(fromAdyenThreeDsResponse({ status: 200, body: { resultCode: 'RedirectShopper', action: { type: 'threeDS2', token: 'x' } } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_invalid_response',
      processor_reference: null,
    });
  });

  it('when a frictionless authentication is Authorised at once, then the outcome succeeds and carries the authentication from additionalData', () => {
    const body = {
      pspReference: 'QFQTPCQ8HXSKGK82',
      resultCode: 'Authorised',
      additionalData: {
        threeDOffered: 'true',
        threeDAuthenticated: 'true',
        threeDAuthenticatedResponse: 'Y',
        liabilityShift: 'true',
        eci: '05',
        threeDSVersion: '2.2.0',
        dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
        cavv: 'AQIDBAUGBwgJCgsMDQ4PEBESExQ=',
        networkTxReference: 'NTR77',
      },
    };
    expect(fromAdyenThreeDsResponse({ status: 200, body })).toEqual({
      status: 'succeeded',
      processor_reference: 'QFQTPCQ8HXSKGK82',
      network_transaction_reference: 'NTR77',
      authentication: {
        type: '3ds',
        version: '2.2.0',
        status: 'authenticated',
        eci: '05',
        liability_shift: true,
        authentication_value: 'AQIDBAUGBwgJCgsMDQ4PEBESExQ=',
        ds_transaction_id: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
      },
    });
  });

  it('when a payment without 3-D Secure is Authorised, then there is no authentication result', () => {
    expect(
      fromAdyenThreeDsResponse({ status: 200, body: { pspReference: 'P1', resultCode: 'Authorised', additionalData: { networkTxReference: 'NTR1' } } }),
    ).toEqual({ status: 'succeeded', processor_reference: 'P1', network_transaction_reference: 'NTR1' });
  });
});

describe('Adyen v69 /payments/details (PaymentDetailsRequest, PaymentDetailsResponse)', () => {
  it("when the consumer comes back with redirectResult, then POST /v69/payments/details carries details.redirectResult only, no card data, with the step's idempotency key", () => {
    expect(toAdyenPaymentDetailsRequest(credentials, 'p1:authentication', { redirectResult: 'X6XtfGC3!Y...', session_id: 'c_7Hq2' })).toEqual({
      method: 'POST',
      path: '/v69/payments/details',
      headers: { 'content-type': 'application/json', 'x-api-key': 'AQE_test_key', 'idempotency-key': 'p1:authentication' },
      body: { details: { redirectResult: 'X6XtfGC3!Y...' } },
      carries_card_data: false,
    });
  });

  it('when the consumer comes back without redirectResult, then there is nothing to send', () => {
    expect(toAdyenPaymentDetailsRequest(credentials, 'k', {})).toBeNull();
    expect(toAdyenPaymentDetailsRequest(credentials, 'k', { redirectResult: '' })).toBeNull();
  });

  it('when the details answer is Authorised after a challenge, then the payment succeeds with its pspReference and the authentication', () => {
    const body = {
      pspReference: 'V4HZ4RBFJGXXGN82',
      resultCode: 'Authorised',
      merchantReference: 'p1',
      additionalData: { threeDAuthenticated: 'true', threeDAuthenticatedResponse: 'Y', liabilityShift: 'true', eci: '05', threeDSVersion: '2.2.0' },
    };
    expect(fromAdyenThreeDsResponse({ status: 200, body })).toEqual({
      status: 'succeeded',
      processor_reference: 'V4HZ4RBFJGXXGN82',
      network_transaction_reference: null,
      authentication: {
        type: '3ds',
        version: '2.2.0',
        status: 'authenticated',
        eci: '05',
        liability_shift: true,
        authentication_value: null,
        ds_transaction_id: null,
      },
    });
  });

  it('when the details answer is Refused with 3D Not Authenticated, then the payment fails authentication_failed and the authentication says failed without liability shift', () => {
    const body = {
      pspReference: 'V4HZ4RBFJGXXGN83',
      resultCode: 'Refused',
      refusalReason: '3D Not Authenticated',
      refusalReasonCode: '11',
      additionalData: {
        threeDOffered: 'true',
        threeDAuthenticated: 'false',
        threeDAuthenticatedResponse: 'N',
        liabilityShift: 'false',
        threeDSVersion: '2.2.0',
        eci: '07',
      },
    };
    // Its decline (refusal 11) is no decline to the engine: a failed challenge records none.
    expect(fromAdyenThreeDsResponse({ status: 200, body })).toMatchObject({
      status: 'failed',
      failure_reason: 'authentication_failed',
      processor_reference: 'V4HZ4RBFJGXXGN83',
      authentication: {
        type: '3ds',
        version: '2.2.0',
        status: 'failed',
        eci: '07',
        liability_shift: false,
        authentication_value: null,
        ds_transaction_id: null,
      },
    });
  });

  it('when the issuer only attempted authentication (transStatus A), then the status is attempted, with the liability shift Adyen reports', () => {
    expect(
      adyenAuthentication({ additionalData: { threeDAuthenticated: 'false', threeDAuthenticatedResponse: 'A', liabilityShift: 'true', eci: '06' } }),
    ).toMatchObject({ status: 'attempted', liability_shift: true, eci: '06' });
  });

  it('when only threeDAuthenticated is reported (no raw transStatus), then it decides the status', () => {
    expect(adyenAuthentication({ additionalData: { threeDAuthenticated: 'true' } })).toMatchObject({
      status: 'authenticated',
      liability_shift: false,
      version: null,
    });
    expect(adyenAuthentication({ additionalData: { threeDAuthenticated: 'false' } })).toMatchObject({ status: 'failed' });
  });

  it('when the step said off (attemptAuthentication never) and Adyen refuses 3D Not Authenticated, then the payment fails authentication_required: the issuer asked for what off does not run', () => {
    const refused = fromAdyenThreeDsResponse({
      status: 200,
      body: { pspReference: 'P9', resultCode: 'Refused', refusalReason: '3D Not Authenticated', refusalReasonCode: '11' },
    });
    expect(withoutAuthenticationUnderOff(refused, 'off')).toEqual({
      status: 'failed',
      failure_reason: 'authentication_required',
      processor_reference: 'P9',
      decline: {
        category: 'authentication_required',
        code: 'authentication_required',
        processor_code: '11',
        processor_message: '3D Not Authenticated',
        advice_code: null,
        retryable: true,
      },
    });
    expect(withoutAuthenticationUnderOff(refused, 'if_required')).toEqual(refused);
    const declined = fromAdyenThreeDsResponse({ status: 200, body: { pspReference: 'P8', resultCode: 'Refused', refusalReason: 'Refused' } });
    expect(withoutAuthenticationUnderOff(declined, 'off')).toEqual(declined);
  });

  it('when the details call meets an outage (503), then it is the retryable processor error', () => {
    expect(fromAdyenThreeDsResponse({ status: 503, body: null })).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
  });
});
