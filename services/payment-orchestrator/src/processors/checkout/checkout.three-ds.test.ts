import { authorizationInputOf } from '../../../test/support/processor-fixtures';
import type { ConsumerAuthentication } from '../../domain/payment-vocabulary/authentication';
import type { CheckoutCredentials } from './checkout.account';
import { checkoutThreeDsFields, fromCheckoutPaymentLookup, fromCheckoutThreeDsPaymentResponse, toCheckoutPaymentLookup } from './checkout.three-ds';
import { fromCheckoutWebhook } from './checkout.webhook';

// Every field below is pinned to Checkout.com's published API reference (github.com/checkout/
// checkout-api-reference, nas_spec): components/schemas/Payments/3dsRequest.yaml, PaymentRequest.yaml,
// PaymentAcceptedResponse.yaml, PaymentDetails.yaml, 3dsData.yaml and paths/payments@{id}.yaml; the
// webhook after Checkout.com's payment_authentication_failed event type.

const credentials: CheckoutCredentials = {
  secret_key: 'sk_sbox_test',
  processing_channel_id: 'pc_abc',
  webhook_secret: 'whsec0123456789abcdefghijklmnopqrstuvw',
};
const RETURN_URL = 'https://pay.example.com/checkout/c_7Hq2/return';
const browser = {
  user_agent: 'Mozilla/5.0',
  accept_header: 'text/html',
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
  browser: null,
  return_url: RETURN_URL,
  first_of_series: false,
  ...overrides,
});
const PAY = 'pay_mbabizu24mvu3mela5njyhpit4';
const SID = 'sid_ubfj2q76miwundwlk72vxt2i7q';
/** What the 202 answer kept to resume (fromCheckoutThreeDsPaymentResponse). */
const resume = { payment_id: PAY, redirect_url: `https://api.sandbox.checkout.com/3ds/${SID}`, redirect_method: 'GET' };

describe('Checkout.com POST /payments with 3-D Secure (3dsRequest)', () => {
  it('when the step says if_required, then 3ds.enabled is true with challenge_indicator no_preference, and success_url and failure_url are the hosted page', () => {
    expect(checkoutThreeDsFields(authorizationInputOf(), consumer())).toEqual({
      '3ds': { enabled: true, challenge_indicator: 'no_preference' },
      success_url: RETURN_URL,
      failure_url: RETURN_URL,
    });
  });

  it("when the hosted page knows the consumer's address, then it goes as payment_ip (Checkout.com collects the rest of the browser data on its own 3DS page)", () => {
    expect(checkoutThreeDsFields(authorizationInputOf(), consumer({ browser }))).toEqual({
      '3ds': { enabled: true, challenge_indicator: 'no_preference' },
      success_url: RETURN_URL,
      failure_url: RETURN_URL,
      payment_ip: '203.0.113.7',
    });
  });

  it('when the step says always, then the challenge_indicator is challenge_requested', () => {
    expect(checkoutThreeDsFields(authorizationInputOf(), consumer({ three_ds: 'always' }))).toEqual({
      '3ds': { enabled: true, challenge_indicator: 'challenge_requested' },
      success_url: RETURN_URL,
      failure_url: RETURN_URL,
    });
  });

  it('when the step says off, then 3ds.enabled is false, no upgrade after a soft decline (allow_upgrade false), and no redirect URL is sent', () => {
    expect(checkoutThreeDsFields(authorizationInputOf(), consumer({ three_ds: 'off' }))).toEqual({ '3ds': { enabled: false, allow_upgrade: false } });
  });

  it('when the issuer soft-declines a payment sent without 3-D Secure (20154, 3DS authentication required), then it fails authentication_required', () => {
    const body = { id: PAY, action_id: 'act_1', approved: false, status: 'Declined', response_code: '20154', response_summary: '3D Secure Required' };
    expect(fromCheckoutThreeDsPaymentResponse({ status: 201, body })).toEqual({
      status: 'failed',
      failure_reason: 'authentication_required',
      processor_reference: PAY,
      // The SCA soft decline a flow's on_decline step_up_3ds answers.
      decline: {
        category: 'authentication_required',
        code: 'authentication_required',
        processor_code: '20154',
        processor_message: '3D Secure Required',
        advice_code: null,
        retryable: true,
      },
    });
  });

  it.each(['RECURRING', 'UNSCHEDULED'] as const)(
    'when the payment is the first of a %s series, then the challenge_indicator is challenge_requested_mandate under if_required and always alike',
    (use_case) => {
      const payment = authorizationInputOf({ use_case, stored_credential: 'storing' });
      for (const three_ds of ['if_required', 'always'] as const) {
        expect(checkoutThreeDsFields(payment, consumer({ three_ds, first_of_series: true }))).toEqual({
          '3ds': { enabled: true, challenge_indicator: 'challenge_requested_mandate' },
          success_url: RETURN_URL,
          failure_url: RETURN_URL,
        });
      }
    },
  );

  it.each(['SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'] as const)('when the payment is a merchant-initiated %s, then no 3ds field is sent', (use_case) => {
    expect(
      checkoutThreeDsFields(
        authorizationInputOf({ use_case, stored_credential: 'stored', initial_processor_reference: PAY }),
        consumer({ three_ds: 'always' }),
      ),
    ).toEqual({});
  });

  it('when the hosted page URL is longer than the 255 characters success_url takes, then the mapping refuses rather than send a request Checkout.com rejects', () => {
    expect(() => checkoutThreeDsFields(authorizationInputOf(), consumer({ return_url: `https://pay.example.com/${'a'.repeat(250)}` }))).toThrow(/255/);
  });
});

describe('Checkout.com answers to a 3-D Secure payment', () => {
  it('when Checkout.com answers 202 Pending with _links.redirect, then the consumer is sent there by GET and the payment id is the processor reference', () => {
    const body = {
      id: PAY,
      status: 'Pending',
      reference: 'p1',
      '3ds': { downgraded: false, enrolled: 'Y' },
      _links: { self: { href: `https://api.sandbox.checkout.com/payments/${PAY}` }, redirect: { href: `https://api.sandbox.checkout.com/3ds/${PAY}` } },
    };
    expect(fromCheckoutThreeDsPaymentResponse({ status: 202, body })).toEqual({
      status: 'action_required',
      action: { type: 'redirect', url: `https://api.sandbox.checkout.com/3ds/${PAY}`, method: 'GET', data: {} },
      processor_reference: PAY,
      resume: { payment_id: PAY, redirect_url: `https://api.sandbox.checkout.com/3ds/${PAY}`, redirect_method: 'GET' },
      return_parameters: ['cko-session-id'],
    });
  });

  it('when a 202 Pending answer has no redirect link, then the payment fails processor_invalid_response', () => {
    expect(fromCheckoutThreeDsPaymentResponse({ status: 202, body: { id: PAY, status: 'Pending', _links: { self: { href: 'x' } } } })).toEqual({
      status: 'failed',
      failure_reason: 'processor_invalid_response',
      processor_reference: PAY,
    });
  });

  it('when the issuer authenticated frictionless (201 Authorized with the 3ds block), then the outcome succeeds with the authentication: status, version, eci, cryptogram, liability shifted', () => {
    const body = {
      id: PAY,
      action_id: 'act_1',
      amount: 1250,
      currency: 'EUR',
      approved: true,
      status: 'Authorized',
      response_code: '10000',
      scheme_id: '488341541494658',
      eci: '05',
      '3ds': {
        downgraded: false,
        enrolled: 'Y',
        signature_valid: 'Y',
        authentication_response: 'Y',
        cryptogram: 'hv8mUFzPzRZoCAAAAAEQBDMAAAA=',
        xid: 'MDAwMDAwMDAwMDAwMDAwMzIyNzY=',
        version: '2.2.0',
      },
    };
    expect(fromCheckoutThreeDsPaymentResponse({ status: 201, body })).toEqual({
      status: 'succeeded',
      processor_reference: PAY,
      network_transaction_reference: '488341541494658',
      authentication: {
        type: '3ds',
        version: '2.2.0',
        status: 'authenticated',
        eci: '05',
        liability_shift: true,
        authentication_value: 'hv8mUFzPzRZoCAAAAAEQBDMAAAA=',
        ds_transaction_id: null,
      },
    });
  });
});

describe('Checkout.com GET /payments/{cko-session-id} after the consumer came back', () => {
  it('when the redirect back carries cko-session-id, then the payment is looked up by it, without card data', () => {
    expect(toCheckoutPaymentLookup(credentials, { 'cko-session-id': SID }, PAY)).toEqual({
      method: 'GET',
      path: `/payments/${SID}`,
      headers: { authorization: 'Bearer sk_sbox_test' },
      carries_card_data: false,
    });
  });

  it("when the redirect back carries no session id (or not one of Checkout.com's), then the payment is looked up by its own id", () => {
    expect(toCheckoutPaymentLookup(credentials, {}, PAY)?.path).toBe(`/payments/${PAY}`);
    expect(toCheckoutPaymentLookup(credentials, { 'cko-session-id': '../balances' }, PAY)?.path).toBe(`/payments/${PAY}`);
    expect(toCheckoutPaymentLookup(credentials, {}, null)).toBeNull();
  });

  it('when the payment is Authorized after the challenge, then it succeeds with the authentication from the 3ds block', () => {
    const body = {
      id: PAY,
      status: 'Authorized',
      approved: true,
      amount: 1250,
      currency: 'EUR',
      scheme_id: '488341541494658',
      eci: '05',
      '3ds': { downgraded: false, enrolled: 'Y', authentication_response: 'Y', version: '2.2.0', cryptogram: 'hv8mUFzPzRZoCAAAAAEQBDMAAAA=' },
      actions: [{ id: 'act_1', type: 'Authorization', response_code: '10000' }],
    };
    expect(fromCheckoutPaymentLookup({ status: 200, body }, resume)).toEqual({
      status: 'succeeded',
      processor_reference: PAY,
      network_transaction_reference: '488341541494658',
      authentication: {
        type: '3ds',
        version: '2.2.0',
        status: 'authenticated',
        eci: '05',
        liability_shift: true,
        authentication_value: 'hv8mUFzPzRZoCAAAAAEQBDMAAAA=',
        ds_transaction_id: null,
      },
    });
  });

  it('when an automatic-capture payment is already Captured, then the authorization succeeded', () => {
    expect(
      fromCheckoutPaymentLookup(
        { status: 200, body: { id: PAY, status: 'Captured', approved: true, '3ds': { authentication_response: 'A', version: '2.1.0' } } },
        resume,
      ),
    ).toMatchObject({
      status: 'succeeded',
      processor_reference: PAY,
      authentication: { status: 'attempted', liability_shift: true, eci: null },
    });
  });

  it('when the cardholder failed the challenge (Declined, authentication_response N), then the payment fails authentication_failed, liability not shifted', () => {
    const body = {
      id: PAY,
      status: 'Declined',
      approved: false,
      '3ds': { downgraded: false, enrolled: 'Y', authentication_response: 'N', version: '2.2.0' },
      actions: [{ id: 'act_1', type: 'Authorization', response_code: '20151', response_summary: 'Cardholder failed 3DS authentication' }],
    };
    expect(fromCheckoutPaymentLookup({ status: 200, body }, resume)).toEqual({
      status: 'failed',
      failure_reason: 'authentication_failed',
      processor_reference: PAY,
      authentication: {
        type: '3ds',
        version: '2.2.0',
        status: 'failed',
        eci: null,
        liability_shift: false,
        authentication_value: null,
        ds_transaction_id: null,
      },
    });
  });

  it("when the issuer declined after a successful challenge, then the failure is the decline's, read from the authorization action's response code", () => {
    const body = {
      id: PAY,
      status: 'Declined',
      approved: false,
      '3ds': { authentication_response: 'Y', version: '2.2.0' },
      actions: [{ id: 'act_1', type: 'Authorization', response_code: '20051' }],
    };
    expect(fromCheckoutPaymentLookup({ status: 200, body }, resume)).toMatchObject({
      status: 'failed',
      failure_reason: 'insufficient_funds',
      authentication: { status: 'authenticated' },
    });
  });

  it('when Checkout.com still says Pending (the consumer came back before finishing), then the consumer is sent to the same 3DS page again', () => {
    expect(fromCheckoutPaymentLookup({ status: 200, body: { id: PAY, status: 'Pending', approved: false, '3ds': { enrolled: 'Y' } } }, resume)).toEqual({
      status: 'action_required',
      action: { type: 'redirect', url: `https://api.sandbox.checkout.com/3ds/${SID}`, method: 'GET', data: {} },
      processor_reference: PAY,
      resume,
      return_parameters: ['cko-session-id'],
    });
  });

  it('when the lookup meets an outage (503), then it is the retryable processor error', () => {
    expect(fromCheckoutPaymentLookup({ status: 503, body: null }, resume)).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
  });
});

describe('Checkout.com 3-D Secure webhooks', () => {
  it('when payment_authentication_failed arrives (response code 20151), then it fails the authorization with authentication_failed', () => {
    const body = {
      id: 'evt_pjj3l3iiag2uthxmmgce3mxaum',
      type: 'payment_authentication_failed',
      data: {
        id: PAY,
        action_id: 'act_zeoar75yz45e5hne7k5hdstocq',
        reference: 'p1',
        amount: 20,
        currency: 'EUR',
        response_code: '20151',
        response_summary: 'Cardholder failed 3D-Secure authentication',
        '3ds': { version: '2.1.0', challenged: true },
      },
    };
    expect(fromCheckoutWebhook(body)).toEqual({
      kind: 'authorization_failed',
      dedupe_key: 'checkout:evt_pjj3l3iiag2uthxmmgce3mxaum',
      payment_reference: 'p1',
      processor_reference: PAY,
      failure_reason: 'authentication_failed',
    });
  });

  it('when payment_declined carries 20151, then the reason is authentication_failed too', () => {
    expect(fromCheckoutWebhook({ id: 'evt_2', type: 'payment_declined', data: { id: PAY, reference: 'p1', response_code: '20151' } })).toMatchObject({
      kind: 'authorization_failed',
      failure_reason: 'authentication_failed',
    });
  });
});
