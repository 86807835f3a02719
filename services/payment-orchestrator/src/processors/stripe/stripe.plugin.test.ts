import { maskPans } from '@vaultline/core';
import { startStripeStandIn, type StripeStandIn } from './dev/stripe.stand-in';
import type { ProcessorTransport } from '../transport-port';
import { stripe } from '.';
import { STRIPE_APPROVED_TOKEN, STRIPE_CONTRACT_CREDENTIALS as credentials, stripeContractTransport } from './stripe.contract-cases';

// The plugin contract runs for every registered plugin (processors.contract.test.ts); these are Stripe's own cases.
let standIn: StripeStandIn;
beforeAll(async () => {
  standIn = await startStripeStandIn({ secretKey: credentials.secret_key, webhookSecret: credentials.webhook_secret });
});
afterAll(async () => {
  await standIn.stop();
});

const payment = {
  payment_id: 'p-stripe',
  merchant_id: 'm',
  mode: 'test' as const,
  use_case: 'ONE_OFF' as const,
  stored_credential: 'none' as const,
  amount: 1250,
  currency_code: 'EUR',
  reference: null,
  token_id: STRIPE_APPROVED_TOKEN,
  masked_account_number: '424242******4242',
  scheme: 'VISA',
  network_transaction_reference: null,
  authentication_preference: null,
  idempotency_key: 'p-stripe:authorization',
  capture_mode: 'manual' as const,
};

describe('Stripe plugin against its stand-in, beyond the contract', () => {
  it('when the forwarder masked a card-number-like run inside the network transaction id of the answer it relayed, then the id is read again from the PaymentIntent through egress, whole', async () => {
    const inner = stripeContractTransport();
    // The forwarder's own masking (libs/core maskPans), over a network transaction id that holds a Luhn-valid window.
    const masking: ProcessorTransport = {
      forward: async (request) => {
        const answer = await inner.forward(request);
        const text = JSON.stringify(answer.body).replace(/"network_transaction_id":"\d+"/, '"network_transaction_id":"424242424242424"');
        return { status: answer.status, body: JSON.parse(maskPans(text)) as unknown };
      },
      send: (request) => inner.send(request),
    };
    const connection = stripe.open(stripe.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), {
      clock: undefined as never,
      transport: masking,
    });
    const outcome = await connection.authorize(payment);
    const intent = standIn.intents.at(-1)!;
    const charge = standIn.charges.get(intent.object.latest_charge as string)! as { payment_method_details: { card: { network_transaction_id: string } } };
    expect(outcome).toMatchObject({
      status: 'succeeded',
      processor_reference: intent.id,
      network_transaction_reference: charge.payment_method_details.card.network_transaction_id,
    });
    expect(inner.sent.at(-1)!.url).toBe(`${standIn.baseUrl}/v1/payment_intents/${intent.id}?expand%5B%5D=latest_charge`);
  });

  it("when the account's key is of the other mode than the payment, then no connection opens (a test payment never uses a live key)", () => {
    expect(() =>
      stripe.open(stripe.optionsSchema.parse({ credentials: { ...credentials, secret_key: 'sk_live_otherMode1' }, base_url: standIn.baseUrl, mode: 'test' }), {
        clock: undefined as never,
        transport: stripeContractTransport(),
      }),
    ).toThrow(/other mode/);
  });

  it('when a merchant-initiated payment has no network transaction id of its series, then it fails before anything is sent', async () => {
    const transport = stripeContractTransport();
    const connection = stripe.open(stripe.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), {
      clock: undefined as never,
      transport,
    });
    expect(
      await connection.authorize({ ...payment, use_case: 'SUBSEQUENT_RECURRING', stored_credential: 'stored', idempotency_key: 'p-mit:authorization' }),
    ).toEqual({ status: 'failed', failure_reason: 'network_transaction_reference_missing', processor_reference: null });
    expect(transport.sent).toEqual([]);
  });

  it('when the stand-in answers 503, then the authorization is a retryable error', async () => {
    const connection = stripe.open(stripe.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), {
      clock: undefined as never,
      transport: stripeContractTransport(),
    });
    standIn.failNext(1);
    expect(await connection.authorize({ ...payment, idempotency_key: 'p-503:authorization' })).toEqual({
      status: 'error',
      failure_reason: 'processor_unavailable',
    });
  });
});
