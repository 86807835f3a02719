import { createEnvelope, merchantEventTypes, paymentCapturedV1, tokenDeletedV1 } from '@vaultline/contracts';
import { isMerchantEventType, mapEventData, webhookBody } from './webhook-payload';

describe('webhook payloads', () => {
  it('when the catalog lists merchant-facing events, then every one of them has an explicit mapper', () => {
    for (const type of merchantEventTypes) expect(isMerchantEventType(type)).toBe(true);
    expect(isMerchantEventType('token.detokenized')).toBe(false);
  });

  it('when a payment event is mapped, then the merchant can act on it without a second call and sees at most the masked number', () => {
    const event = createEnvelope(paymentCapturedV1, {
      scope: { merchantId: 'm1', mode: 'live' },
      data: {
        payment_id: 'pay_1',
        status: 'captured',
        amount: { requested: 1000, authorized: 1000, captured: 900 },
        currency_code: 'EUR',
        use_case: 'RECURRING',
        reference: 'order-7',
        credential_id: 'cred_1',
        initial_payment_id: null,
        flow: 'simulator',
        failure_reason: null,
        masked_account_number: '424242******4242',
      },
    });
    const body = JSON.parse(webhookBody(event, mapEventData('payment.captured', event.data)));
    expect(body).toEqual({
      type: 'payment.captured',
      timestamp: event.occurred_at,
      livemode: true,
      data: expect.objectContaining({
        payment_id: 'pay_1',
        status: 'captured',
        amount: { requested: 1000, authorized: 1000, captured: 900 },
        use_case: 'RECURRING',
        reference: 'order-7',
        credential_id: 'cred_1',
      }),
    });
    expect(JSON.stringify(body)).not.toMatch(/4242424242424242/);
  });

  it("when the consumer must authenticate (payment.action_required), then the webhook says so and carries the authentication, never the bank's address, form or the processor's return parameters", () => {
    const payment = {
      payment_id: 'pay_1',
      status: 'processing' as const,
      amount: { requested: 1000 },
      currency_code: 'EUR',
      use_case: 'ONE_OFF',
      reference: null,
      credential_id: null,
      initial_payment_id: null,
      flow: 'simulator_auto_capture',
      failure_reason: null,
      masked_account_number: '400000******3063',
    };
    const action = {
      type: 'redirect' as const,
      url: 'https://acs.bank.example/challenge',
      method: 'POST' as const,
      data: { creq: 'secret-creq' },
      return_parameters: ['redirectResult'],
    };
    const data = mapEventData('payment.action_required', { ...payment, action });
    expect(data).toMatchObject({ payment_id: 'pay_1', status: 'processing', action: { type: 'consumer_authentication' } });
    expect(JSON.stringify(data)).not.toMatch(/acs\.bank|secret-creq|redirectResult/);
    const authentication = { type: '3ds' as const, version: '2.2.0', status: 'authenticated' as const, eci: '05', liability_shift: true };
    expect(mapEventData('payment.captured', { ...payment, status: 'captured', authentication })).toMatchObject({ authentication });
    expect(isMerchantEventType('checkout.session.returned')).toBe(false);
  });

  it('when a card attempt fails on the hosted page (payment.attempt_failed), then the webhook names the attempt, its reason and masked card, and the payment still processing', () => {
    const payment = {
      payment_id: 'pay_3',
      status: 'processing' as const,
      amount: { requested: 1000 },
      currency_code: 'EUR',
      use_case: 'ONE_OFF',
      reference: null,
      credential_id: null,
      initial_payment_id: null,
      flow: 'simulator_auto_capture',
      failure_reason: null,
      masked_account_number: null,
    };
    const attempt = { number: 1, failure_reason: 'card_declined', masked_account_number: '400000******0002' };
    expect(mapEventData('payment.attempt_failed', { ...payment, attempt })).toEqual(
      expect.objectContaining({ payment_id: 'pay_3', status: 'processing', attempt }),
    );
    expect(isMerchantEventType('checkout.session.abandoned')).toBe(false);
  });

  it('when an event is about a test-mode or a live-mode resource, then the body says so in livemode', () => {
    const body = (mode: 'test' | 'live') => {
      const event = createEnvelope(tokenDeletedV1, { scope: { merchantId: 'm1', mode }, data: { token_id: 't1' } });
      return JSON.parse(webhookBody(event, mapEventData('token.deleted', event.data)));
    };

    expect(body('test')).toMatchObject({ type: 'token.deleted', livemode: false, data: { token_id: 't1' } });
    expect(body('live')).toMatchObject({ type: 'token.deleted', livemode: true, data: { token_id: 't1' } });
  });

  it('when a payment of the earlier interface is mapped, then the webhook says so with its customer and payment method; a newer one carries none of these', () => {
    const data = {
      payment_id: 'pay_2',
      status: 'captured' as const,
      amount: { requested: 1000, authorized: 1000, captured: 1000 },
      currency_code: 'EUR',
      use_case: 'recurring_payment',
      reference: null,
      credential_id: 'cred_2',
      initial_payment_id: 'pay_1',
      flow: 'simulator_auto_capture',
      failure_reason: null,
      masked_account_number: '424242******4242',
    };
    const earlier = mapEventData('payment.captured', { ...data, interface: 'earlier', customer_id: 'cus_1', payment_method_id: 'pm_1' });
    expect(earlier).toMatchObject({ use_case: 'recurring_payment', interface: 'earlier', customer_id: 'cus_1', payment_method_id: 'pm_1' });
    expect(mapEventData('payment.captured', data)).not.toHaveProperty('interface');
  });

  it('when a payment is canceled, then payment.canceled says why; a refund event carries the refund as the API shows it', () => {
    const payment = {
      payment_id: 'pay_3',
      status: 'canceled' as const,
      amount: { requested: 1000, authorized: 1000 },
      currency_code: 'EUR',
      use_case: 'ONE_OFF',
      reference: 'order-9',
      credential_id: null,
      initial_payment_id: null,
      flow: 'simulator_manual_capture',
      failure_reason: null,
      masked_account_number: '424242******4242',
      cancellation_reason: 'authorization_expired' as const,
    };
    expect(mapEventData('payment.canceled', payment)).toMatchObject({ status: 'canceled', cancellation_reason: 'authorization_expired' });
    expect(mapEventData('payment.captured', { ...payment, status: 'captured', amount: { requested: 1000, captured: 1000, refunded: 400 } })).toMatchObject({
      amount: { refunded: 400 },
    });
    // A chargeback's hold and what the merchant keeps reach the webhook as they reach GET /payments/{id}.
    const disputedAmounts = { requested: 1000, authorized: 1000, captured: 1000, capturable: 0, refunded: 400, refund_pending: 0, disputed: 600, net: 0 };
    expect(mapEventData('payment.captured', { ...payment, status: 'captured', amount: disputedAmounts })).toMatchObject({ amount: disputedAmounts });
    const refund = {
      refund_id: 'r1',
      payment_id: 'pay_3',
      amount: 400,
      currency_code: 'EUR',
      status: 'failed' as const,
      failure_reason: 'refund_failed',
      reason: 'duplicate' as const,
      reference: 'rma-1',
      livemode: false,
    };
    expect(mapEventData('refund.failed', refund)).toEqual({
      id: 'r1',
      object: 'refund',
      payment_id: 'pay_3',
      amount: 400,
      currency_code: 'EUR',
      status: 'failed',
      failure_reason: 'refund_failed',
      reason: 'duplicate',
      reference: 'rma-1',
      livemode: false,
    });
  });

  it('when a token event carries the PAN fingerprint, then the webhook data leaves it out', () => {
    const data = mapEventData('token.created', {
      token_id: 't1',
      business_key: 'pm_1',
      scheme: 'VISA',
      fingerprint: 'fp-secret-hash',
      source: 'cde_import' as const,
      updated: false,
      correlation_id: 'imp_1',
    });
    expect(data).toEqual({ token_id: 't1', business_key: 'pm_1', scheme: 'VISA', source: 'cde_import', updated: false, correlation_id: 'imp_1' });
  });
});
