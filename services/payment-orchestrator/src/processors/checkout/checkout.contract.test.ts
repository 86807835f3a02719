import { CHECKOUT_TEST_CARDS, startCheckoutStandIn, type CheckoutStandIn } from './dev/checkout.stand-in';
import { placeholderTransport } from '../../../test/support/placeholder-transport';
import type { ProcessorPayment } from '../../domain/processor-port/processor-port';
import { contractConsumerAuthentication } from '../processor.contract';
import { checkout } from '.';
import {
  CHECKOUT_APPROVED_TOKEN as APPROVED_TOKEN,
  CHECKOUT_CHALLENGE_TOKEN as CHALLENGE_TOKEN,
  CHECKOUT_CONTRACT_CREDENTIALS as credentials,
  checkoutContractTransport,
} from './checkout.contract-cases';
import { verifyCheckoutWebhook } from './checkout.webhook';

// The plugin contract itself runs for every registered plugin (processors.contract.test.ts); these are Checkout.com's own cases.
let standIn: CheckoutStandIn;
beforeAll(async () => {
  standIn = await startCheckoutStandIn({
    secretKey: credentials.secret_key,
    processingChannelId: credentials.processing_channel_id,
    webhookSecret: credentials.webhook_secret,
  });
});
afterAll(async () => {
  await standIn.stop();
});

const transport = checkoutContractTransport();

const payment = (overrides: Partial<ProcessorPayment>): ProcessorPayment => ({
  payment_id: 'p-1',
  mode: 'test',
  merchant_id: 'm',
  use_case: 'ONE_OFF',
  stored_credential: 'none',
  amount: 1250,
  currency_code: 'EUR',
  reference: null,
  token_id: APPROVED_TOKEN,
  masked_account_number: '424242******4242',
  scheme: 'VISA',
  network_transaction_reference: null,
  authentication_preference: null,
  idempotency_key: 'p-1:authorization',
  ...overrides,
});

describe('Checkout.com plugin, beyond the contract', () => {
  const open = () =>
    checkout.open(checkout.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), { clock: undefined as never, transport });

  it('when the step says off and the issuer requires authentication, then Checkout.com is told not to upgrade and soft-declines (20154): authentication_required; allowed to upgrade, it would have answered 202 Pending', async () => {
    const challenged = payment({ token_id: CHALLENGE_TOKEN, security_code_available: true });
    const off = await open().authorize({
      ...challenged,
      payment_id: 'p-off',
      idempotency_key: 'p-off:authorization',
      consumer_authentication: { ...contractConsumerAuthentication, three_ds: 'off' },
    });
    expect(off).toMatchObject({ status: 'failed', failure_reason: 'authentication_required' });
    expect(standIn.payments.at(-1)!.body['3ds']).toEqual({ enabled: false, allow_upgrade: false });
    // Without a hosted page (no consumer_authentication) nothing is said about 3-D Secure: Checkout.com upgrades, and the engine fails the payment authentication_required.
    expect(await open().authorize({ ...challenged, payment_id: 'p-api', idempotency_key: 'p-api:authorization' })).toMatchObject({
      status: 'action_required',
      return_parameters: ['cko-session-id'],
    });
  });

  it('when a consumer-present payment on an ordinary card goes with 3-D Secure (if_required), then the issuer authenticates it frictionless: authorized at once, with the result of the 3ds block', async () => {
    const outcome = await open().authorize(
      payment({
        payment_id: 'p-frictionless',
        idempotency_key: 'p-frictionless:authorization',
        security_code_available: true,
        consumer_authentication: contractConsumerAuthentication,
      }),
    );
    expect(outcome).toMatchObject({
      status: 'succeeded',
      processor_reference: expect.stringMatching(/^pay_/),
      authentication: { type: '3ds', status: 'authenticated', version: '2.2.0', eci: '05', liability_shift: true },
    });
    expect(standIn.payments.at(-1)!.body).toMatchObject({
      '3ds': { enabled: true, challenge_indicator: 'no_preference' },
      success_url: contractConsumerAuthentication.return_url,
      failure_url: contractConsumerAuthentication.return_url,
      payment_ip: '203.0.113.7',
    });
  });

  it('when an initial recurring payment is followed by a subsequent one, then the subsequent carries merchant_initiated, previous_payment_id and no cvv', async () => {
    const initial = await open().authorize(
      payment({
        payment_id: 'p-init',
        use_case: 'RECURRING',
        stored_credential: 'storing',
        idempotency_key: 'p-init:authorization',
        security_code_available: true,
      }),
    );
    expect(initial).toMatchObject({
      status: 'succeeded',
      processor_reference: expect.stringMatching(/^pay_/),
      network_transaction_reference: expect.stringMatching(/^\d{15}$/),
    });
    const initialId = initial.status === 'succeeded' ? initial.processor_reference : null;
    const subsequent = await open().authorize(
      payment({
        payment_id: 'p-sub',
        use_case: 'SUBSEQUENT_RECURRING',
        stored_credential: 'stored',
        idempotency_key: 'p-sub:authorization',
        initial_processor_reference: initialId,
        security_code_available: true,
      }),
    );
    expect(subsequent.status).toBe('succeeded');
    const sent = standIn.payments.at(-1)!;
    expect([sent.body.payment_type, sent.body.merchant_initiated, sent.body.previous_payment_id, 'cvv' in (sent.body.source as object)]).toEqual([
      'Recurring',
      true,
      initialId,
      false,
    ]);
    expect(sent.headers['cko-idempotency-key']).toBe('p-sub:authorization');
  });

  it('when a payment is declined for insufficient funds, then failure_reason is insufficient_funds', async () => {
    const declined = placeholderTransport(
      { [APPROVED_TOKEN]: { number: CHECKOUT_TEST_CARDS.insufficientFunds, expiry_month: 3, expiry_year: 2030, security_code: null } },
      { integerExpiry: true },
    );
    const connection = checkout.open(checkout.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), {
      clock: undefined as never,
      transport: declined,
    });
    expect(await connection.authorize(payment({ idempotency_key: 'p-nsf:authorization' }))).toMatchObject({
      status: 'failed',
      failure_reason: 'insufficient_funds',
    });
  });

  it('when the flow captures automatically, then capture: true is sent and the capture waits for the payment_captured webhook without a capture request', async () => {
    const authorization = await open().authorize(payment({ payment_id: 'p-auto', idempotency_key: 'p-auto:authorization', capture_mode: 'automatic' }));
    expect(standIn.payments.at(-1)!.body.capture).toBe(true);
    const reference = authorization.status === 'succeeded' ? authorization.processor_reference : '';
    const before = transport.sent.length;
    expect(await open().capture(payment({ idempotency_key: 'p-auto:capture', capture_mode: 'automatic' }), reference)).toMatchObject({
      status: 'pending',
      processor_reference: reference,
    });
    expect(transport.sent.length).toBe(before);
    const webhook = standIn.webhooks.find((w) => (JSON.parse(w.rawBody) as { data: { id: string } }).data.id === reference)!;
    expect(verifyCheckoutWebhook(webhook.rawBody, webhook.signature, credentials.webhook_secret)).toBe(true);
  });

  it('when the stand-in answers 503, then the authorization is a retryable error', async () => {
    standIn.failNext(1);
    expect(await open().authorize(payment({ idempotency_key: 'p-503:authorization' }))).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
  });

  it("when the payment_captured webhook overtook the authorization's answer, then the automatic capture is settled at once, not at the next recheck", async () => {
    const early = checkout.open(checkout.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), {
      clock: undefined as never,
      transport,
      captureSettlement: async (reference) => (reference === 'pay_early' ? { status: 'succeeded', processor_reference: 'act_early' } : null),
    });
    expect(await early.capture(payment({ idempotency_key: 'p-early:capture', capture_mode: 'automatic' }), 'pay_early')).toEqual({
      status: 'succeeded',
      processor_reference: 'act_early',
    });
    expect(await early.capture(payment({ idempotency_key: 'p-late:capture', capture_mode: 'automatic' }), 'pay_late')).toMatchObject({
      status: 'pending',
      processor_reference: 'pay_late',
    });
  });
});
