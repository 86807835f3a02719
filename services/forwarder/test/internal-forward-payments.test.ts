import { randomUUID } from 'node:crypto';
import type { ForwarderInternalApi } from '@vaultline/contracts';
import { startStandIns } from './stand-in-destinations';
import { startForwarder } from './forwarder-harness';

const PAN = '4111111111111111';
const MERCHANT = 'mer_a';

describe('the forwarder internal API for processor payments', () => {
  let standIns: Awaited<ReturnType<typeof startStandIns>>;
  let forwarder: Awaited<ReturnType<typeof startForwarder>>;
  let api: ForwarderInternalApi;
  const token = randomUUID();
  const events: string[] = [];

  beforeAll(async () => {
    standIns = await startStandIns();
    forwarder = await startForwarder({
      FORWARD_HTTPS_ONLY: 'false',
      FORWARD_EXTRA_DESTINATIONS: [`${standIns.url}/adyen/v69/payments`, `${standIns.url}/checkout/payments`, `${standIns.url}/stripe/v1/payment_intents`].join(
        ',',
      ),
    });
    forwarder.vault.tokens.set(token, { merchantId: MERCHANT, number: PAN, expMonth: 3, expYear: 2030, cvc: '737', cvcStatus: 'available' });
    api = forwarder.app.exposedApis!.forwarder!;
    await forwarder.runtime.bus.subscribe({ topics: ['forwarder.forwards'], group: 'test', handler: async (delivery) => void events.push(delivery.value) });
  });
  afterAll(async () => {
    await forwarder?.stop();
    await standIns?.close();
  });

  const adyenTemplate = {
    amount: { currency: 'EUR', value: 1250 },
    reference: 'p1',
    paymentMethod: {
      type: 'scheme',
      number: '{{ account_number }}',
      expiryMonth: '{{ expiration_month }}',
      expiryYear: '{{ expiration_year }}',
      cvc: '{{ security_code }}',
    },
    merchantAccount: 'ShopECOM',
    shopperInteraction: 'Ecommerce',
  };
  const asOrchestrator = (scopes = ['forward:payments'], mode: 'test' | 'live' = 'test') =>
    forwarder.orchestrator.sign('forwarder', { merchantId: MERCHANT, scopes, mode });
  const request = (bearerToken: string, overrides: Record<string, unknown> = {}) => ({
    bearerToken,
    requestId: 'req_1',
    tokenId: token,
    destinationUrl: `${standIns.url}/adyen/v69/payments`,
    headers: { 'x-api-key': 'adyen-key', 'idempotency-key': 'p1:authorization' },
    body: adyenTemplate,
    ...overrides,
  });

  it('when the orchestrator sends an Adyen template in process, then the processor receives the card and the idempotency key, and the answer comes back with the card number masked', async () => {
    const before = standIns.received.length;
    const answer = await api.forwardPayment(request(asOrchestrator()));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ resultCode: 'Authorised', pspReference: 'PSP123' });
    expect(answer.body).not.toContain(PAN);
    const received = standIns.received[before]!;
    expect(JSON.parse(received.rawBody).paymentMethod).toEqual({ type: 'scheme', number: PAN, expiryMonth: '03', expiryYear: '2030', cvc: '737' });
    expect(received.headers['idempotency-key']).toBe('p1:authorization');
    expect(received.headers['x-api-key']).toBe('adyen-key');
  });

  it('when the orchestrator calls over HTTP, then the same forward happens and the answer is the same JSON', async () => {
    const response = await fetch(`${forwarder.url}/internal/forward/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${asOrchestrator()}` },
      body: JSON.stringify({
        token_id: token,
        destination_url: `${standIns.url}/checkout/payments`,
        headers: { authorization: 'Bearer sk_sbox_test', 'cko-idempotency-key': 'p2:authorization' },
        body: {
          source: { type: 'card', number: '{{ account_number }}', expiry_month: '{{ expiration_month }}', expiry_year: '{{ expiration_year }}' },
          amount: 1250,
          currency: 'EUR',
        },
      }),
    });
    const answer = (await response.json()) as { status: number; body: string };
    expect([response.status, answer.status, JSON.parse(answer.body).status]).toEqual([200, 201, 'Authorized']);
    expect(standIns.received.at(-1)!.headers['cko-idempotency-key']).toBe('p2:authorization');
  });

  it("when the orchestrator sends a form template (Stripe's PaymentIntents), then the processor receives the fields form-encoded in their order with the card filled in, and the Stripe-Version it speaks", async () => {
    const answer = await api.forwardPayment(
      request(asOrchestrator(), {
        destinationUrl: `${standIns.url}/stripe/v1/payment_intents`,
        headers: { authorization: 'Bearer sk_test_123', 'idempotency-key': 'p3:authorization', 'stripe-version': '2024-06-20' },
        format: 'form',
        body: {
          amount: '1250',
          'payment_method_data[type]': 'card',
          'payment_method_data[card][number]': '{{ account_number }}',
          'payment_method_data[card][exp_month]': '{{ expiration_month }}',
          'payment_method_data[card][exp_year]': '{{ expiration_year }}',
          'payment_method_data[card][cvc]': '{{ security_code }}',
          confirm: 'true',
        },
      }),
    );
    expect(answer.status).toBe(200);
    const received = standIns.received.at(-1)!;
    expect(received.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(received.headers['stripe-version']).toBe('2024-06-20');
    expect([...new URLSearchParams(received.rawBody)]).toEqual([
      ['amount', '1250'],
      ['payment_method_data[type]', 'card'],
      ['payment_method_data[card][number]', PAN],
      ['payment_method_data[card][exp_month]', '03'],
      ['payment_method_data[card][exp_year]', '2030'],
      ['payment_method_data[card][cvc]', '737'],
      ['confirm', 'true'],
    ]);
  });

  it('when a form template puts a placeholder in a field that is not a card field, or a value that is not text, then it is refused and nothing is sent', async () => {
    const before = standIns.received.length;
    const stripe = { destinationUrl: `${standIns.url}/stripe/v1/payment_intents`, headers: { authorization: 'Bearer sk_test_123' }, format: 'form' };
    await expect(api.forwardPayment(request(asOrchestrator(), { ...stripe, body: { description: '{{ account_number }}' } }))).rejects.toMatchObject({
      status: 422,
    });
    await expect(
      api.forwardPayment(request(asOrchestrator(), { ...stripe, body: { payment_method_data: { card: { number: '{{ account_number }}' } } } })),
    ).rejects.toMatchObject({ status: 422 });
    expect(standIns.received.length).toBe(before);
  });

  it('when the caller is not the payment orchestrator with forward:payments, then it is refused before anything is revealed or sent', async () => {
    const before = { sent: standIns.received.length, revealed: forwarder.vault.calls.length };
    await expect(api.forwardPayment(request(asOrchestrator(['merchant'])))).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' });
    await expect(
      api.forwardPayment(request(forwarder.gateway.sign('forwarder', { merchantId: MERCHANT, scopes: ['forward:payments'] }))),
    ).rejects.toMatchObject({ status: 403 });
    await expect(api.forwardPayment(request('not-a-token'))).rejects.toMatchObject({ status: 401 });
    expect({ sent: standIns.received.length, revealed: forwarder.vault.calls.length }).toEqual(before);
  });

  it('when the orchestrator signs no mode, then it is refused with 403 mode_required before anything is revealed or sent (a payment always acts in its own mode)', async () => {
    const before = { sent: standIns.received.length, revealed: forwarder.vault.calls.length };
    const modeless = forwarder.orchestrator.sign('forwarder', { merchantId: MERCHANT, scopes: ['forward:payments'] });
    await expect(api.forwardPayment(request(modeless))).rejects.toMatchObject({ status: 403, code: 'mode_required' });
    expect({ sent: standIns.received.length, revealed: forwarder.vault.calls.length }).toEqual(before);
  });

  it('when the destination is not allowed or a header is not a processor credential or idempotency key, then it is refused (403 destination_not_allowed, 422 on the header) and nothing is sent', async () => {
    const before = standIns.received.length;
    await expect(api.forwardPayment(request(asOrchestrator(), { destinationUrl: `${standIns.url}/echo` }))).rejects.toMatchObject({
      status: 403,
      code: 'destination_not_allowed',
    });
    await expect(api.forwardPayment(request(asOrchestrator(), { headers: { cookie: 'x' } }))).rejects.toMatchObject({ status: 422 });
    expect(standIns.received.length).toBe(before);
  });

  it('when a payment is forwarded, then forward.completed is published as for POST /forward, without card data or credentials', async () => {
    await api.forwardPayment(request(asOrchestrator()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const completed = events
      .map((value) => JSON.parse(value) as { type: string; data: { token_id: string; outcome: string } })
      .filter((event) => event.type === 'forward.completed' && event.data.token_id === token);
    expect(completed.length).toBeGreaterThanOrEqual(1);
    expect(completed.at(-1)!.data.outcome).toBe('delivered');
    expect(events.join('')).not.toContain(PAN);
    expect(events.join('')).not.toContain('adyen-key');
  });
});
