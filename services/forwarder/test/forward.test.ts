import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { waitFor } from '@vaultline/core';
import { startStandIns } from './stand-in-destinations';
import { startForwarder } from './forwarder-harness';
import { ADDED_MS_HEADER } from '../src/http/forward.routes';

const PAN = '4111111111111111';
const MERCHANT = 'mer_a';

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('POST /forward', () => {
  let standIns: Awaited<ReturnType<typeof startStandIns>>;
  let forwarder: Awaited<ReturnType<typeof startForwarder>>;
  let deadPort: number;
  const fresh = randomUUID();
  const expired = randomUUID();
  const noCvc = randomUUID();
  const deleted = randomUUID();
  const otherMerchants = randomUUID();
  const events: string[] = [];

  beforeAll(async () => {
    standIns = await startStandIns();
    deadPort = await closedPort();
    const base = standIns.url;
    forwarder = await startForwarder({
      FORWARD_HTTPS_ONLY: 'false',
      FORWARD_TIMEOUT: '400ms',
      FORWARD_EXTRA_DESTINATIONS: [
        `${base}/adyen/v69/payments`,
        `${base}/checkout/payments`,
        `${base}/stripe/v1/payment_methods`,
        `${base}/slow/v69/payments`,
        `${base}/redirect/v69/payments`,
        `${base}/echo`,
        `http://127.0.0.1:${deadPort}/adyen/v69/payments`,
      ].join(','),
    });
    const card = { merchantId: MERCHANT, number: PAN, expMonth: 3, expYear: 2030, cvc: '737', cvcStatus: 'available' as const };
    forwarder.vault.tokens.set(fresh, card);
    forwarder.vault.tokens.set(expired, { ...card, cvc: null, cvcStatus: 'expired' });
    forwarder.vault.tokens.set(noCvc, { ...card, cvc: null, cvcStatus: 'not_collected' });
    forwarder.vault.tokens.set(deleted, { ...card, deleted: true });
    forwarder.vault.tokens.set(otherMerchants, { ...card, merchantId: 'mer_b' });
    await forwarder.runtime.bus.subscribe({ topics: ['forwarder.forwards'], group: 'test', handler: async (delivery) => void events.push(delivery.value) });
  });
  afterAll(async () => {
    await forwarder?.stop();
    await standIns?.close();
  });

  const adyenBody = JSON.stringify({
    amount: { currency: 'EUR', value: 1000 },
    reference: 'order "42" & co\\',
    paymentMethod: {
      type: 'scheme',
      number: '{{ account_number }}',
      expiryMonth: '{{expiration_month}}',
      expiryYear: '{{ expiration_year }}',
      cvc: '{{ security_code }}',
    },
    merchantAccount: 'TestMerchant',
    recurringProcessingModel: 'CardOnFile',
    shopperInteraction: 'Ecommerce',
    storePaymentMethod: false,
  });
  const adyenHeaders = (token: string, destination = `${standIns.url}/adyen/v69/payments`) => ({
    'content-type': 'application/json',
    'x-service-token': token,
    'x-destination-url': destination,
    'X-API-KEY-ADYEN-NAME': 'X-API-Key',
    'X-API-KEY-ADYEN-VALUE': 'adyen-key',
  });
  const forward = (headers: Record<string, string>, body: string) => forwarder.call(MERCHANT, ['merchant'], 'POST', '/forward', headers, body);

  it('when an Adyen v69 payment is forwarded, then the destination gets the real card data and the credential, and the merchant gets its answer with the PAN masked', async () => {
    const before = standIns.received.length;
    const response = await forward({ ...adyenHeaders(fresh), 'idempotency-key': 'idem-1' }, adyenBody);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(Number(response.headers.get(ADDED_MS_HEADER))).toBeGreaterThanOrEqual(0);
    expect(response.json()).toMatchObject({
      resultCode: 'Authorised',
      merchantReference: 'order "42" & co\\',
      additionalData: { cardNumber: '411111******1111' },
    });
    expect(response.text).not.toContain(PAN);

    const received = standIns.received[before]!;
    expect(JSON.parse(received.rawBody).paymentMethod).toEqual({ type: 'scheme', number: PAN, expiryMonth: '03', expiryYear: '2030', cvc: '737' });
    expect(received.headers['x-api-key']).toBe('adyen-key');
    expect(received.headers['idempotency-key']).toBe('idem-1');
    for (const ours of ['x-service-token', 'x-destination-url', 'x-api-key-adyen-name', 'x-api-key-adyen-value', 'authorization', 'x-request-id']) {
      expect(received.headers[ours]).toBeUndefined();
    }
    expect(forwarder.vault.calls.at(-1)).toEqual({ tokenId: fresh, merchantId: MERCHANT, purpose: 'forward' });
  });

  it('when a Checkout.com payment uses bare expiry placeholders and the merchant Authorization, then expiry month and year arrive as integers with the bearer credential', async () => {
    const before = standIns.received.length;
    const body =
      '{"source":{"type":"card","number":"{{account_number}}","expiry_month":{{ expiration_month }},"expiry_year":{{ expiration_year }}},"amount":1000,"currency":"EUR","reference":"ord-1"}';
    const response = await forward(
      {
        'content-type': 'application/json',
        'x-service-token': fresh,
        'x-destination-url': `${standIns.url}/checkout/payments`,
        'x-forward-authorization': 'Bearer sk_sbox_test',
      },
      body,
    );
    expect(response.status).toBe(201);
    expect(response.json()).toMatchObject({ status: 'Authorized', source: { last4: '1111' } });
    const received = JSON.parse(standIns.received[before]!.rawBody);
    expect(received.source).toEqual({ type: 'card', number: PAN, expiry_month: 3, expiry_year: 2030 });
    expect(standIns.received[before]!.headers.authorization).toBe('Bearer sk_sbox_test');
  });

  it('when a Stripe payment method is created with a form body, then the card fields arrive URL-encoded with the credential from X-API-KEY-NAME/VALUE', async () => {
    const before = standIns.received.length;
    const body =
      'type=card&card[number]={{account_number}}&card[exp_month]={{ expiration_month }}&card[exp_year]={{ expiration_year }}&card[cvc]={{ security_code }}&billing_details[name]=A%26B%3D%25+%22x%22';
    const response = await forward(
      {
        'content-type': 'application/x-www-form-urlencoded',
        'x-service-token': fresh,
        'x-destination-url': `${standIns.url}/stripe/v1/payment_methods`,
        'x-api-key-name': 'Authorization',
        'x-api-key-value': 'Bearer sk_test_123',
      },
      body,
    );
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ id: 'pm_1', card: { last4: '1111', exp_month: 3, exp_year: 2030 } });
    const params = new URLSearchParams(standIns.received[before]!.rawBody);
    expect(params.get('card[number]')).toBe(PAN);
    expect(params.get('card[cvc]')).toBe('737');
    expect(params.get('billing_details[name]')).toBe('A&B=% "x"');
  });

  it('when a placeholder appears in a header, then it is passed on literally and not substituted', async () => {
    const before = standIns.received.length;
    await forward({ ...adyenHeaders(fresh), 'x-merchant-note': '{{ account_number }}' }, adyenBody);
    expect(standIns.received[before]!.headers['x-merchant-note']).toBe('{{ account_number }}');
  });

  it.each([
    ['the security code is older than 15 minutes', 422, 'security_code_expired', () => expired],
    ['the token has no security code', 422, 'security_code_unavailable', () => noCvc],
    ['the token was deleted', 410, 'token_deleted', () => deleted],
    ['the token belongs to another merchant', 404, 'token_not_found', () => otherMerchants],
    ['the token is unknown', 404, 'token_not_found', () => randomUUID()],
  ])('when %s, then forwarding answers %i %s and nothing is sent', async (_what, status, code, token) => {
    const connections = standIns.connections();
    const sent = standIns.received.length;
    const response = await forward(adyenHeaders(token()), adyenBody);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.json().code).toBe(code);
    expect(standIns.received.length).toBe(sent);
    expect(standIns.connections()).toBe(connections);
  });

  const vectors: Array<[string, (base: string, port: number) => string]> = [
    ['a host that only starts with the allowed host', (_b, p) => `http://127.0.0.1.evil.com:${p}/adyen/v69/payments`],
    ['userinfo', (_b, p) => `http://allowed@127.0.0.1:${p}/adyen/v69/payments`],
    ['userinfo hiding another host', (_b, p) => `http://127.0.0.1:${p}@evil.com/adyen/v69/payments`],
    ['an encoded dot segment', (b) => `${b}/adyen/v69/%2e%2e/v69/payments`],
    ['an encoded slash', (b) => `${b}/adyen%2Fv69/payments`],
    ['a doubled slash', (b) => `${b}//adyen/v69/payments`],
    ['path traversal', (b) => `${b}/stripe/../adyen/v69/payments`],
    ['a path beyond the allowed one', (b) => `${b}/adyen/v69/payments/extra`],
    ['a shortened IP', (_b, p) => `http://127.1:${p}/adyen/v69/payments`],
    ['a decimal IP', (_b, p) => `http://2130706433:${p}/adyen/v69/payments`],
    ['an octal IP', (_b, p) => `http://0177.0.0.1:${p}/adyen/v69/payments`],
    ['a hex IP', (_b, p) => `http://0x7f000001:${p}/adyen/v69/payments`],
    ['an IPv4-mapped IPv6 address', (_b, p) => `http://[::ffff:127.0.0.1]:${p}/adyen/v69/payments`],
    ['the IPv6 loopback', (_b, p) => `http://[::1]:${p}/adyen/v69/payments`],
    ['localhost by name', (_b, p) => `http://localhost:${p}/adyen/v69/payments`],
    ['another port', (_b, p) => `http://127.0.0.1:${p + 1}/adyen/v69/payments`],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/iam'],
    ['a catalog host over plain http', () => 'http://api.stripe.com/v1/payment_methods'],
  ];
  it.each(vectors)('when the destination URL uses %s, then forwarding answers 403 destination_not_allowed and makes no connection', async (_what, build) => {
    const connections = standIns.connections();
    const vaultCalls = forwarder.vault.calls.length;
    const response = await forward(adyenHeaders(fresh, build(standIns.url, standIns.port)), adyenBody);
    expect(response.status).toBe(403);
    expect(response.json().code).toBe('destination_not_allowed');
    expect(standIns.connections()).toBe(connections);
    expect(forwarder.vault.calls.length).toBe(vaultCalls);
  });

  it('when a test-mode key forwards to the live Checkout.com endpoint, then forwarding answers 403 destination_not_allowed_in_test_mode and neither the vault nor the destination is called', async () => {
    const vaultCalls = forwarder.vault.calls.length;
    const body = '{"source":{"type":"card","number":"{{ account_number }}"},"amount":100}';
    const response = await forwarder.call(
      MERCHANT,
      ['merchant'],
      'POST',
      '/forward',
      { 'content-type': 'application/json', 'x-service-token': fresh, 'x-destination-url': 'https://api.checkout.com/payments' },
      body,
      'test',
    );
    expect(response.status).toBe(403);
    expect(response.json()).toMatchObject({ code: 'destination_not_allowed_in_test_mode', field: 'X-DESTINATION-URL' });
    expect(forwarder.vault.calls.length).toBe(vaultCalls);
  });

  it('when the body holds no placeholder, then it is sent as it came and the vault is not asked for card data', async () => {
    const vaultCalls = forwarder.vault.calls.length;
    const before = standIns.received.length;
    const body = '{"amount":{"currency":"EUR","value":1},"paymentMethod":{"type":"scheme","storedPaymentMethodId":"8315"}}';
    const response = await forward(adyenHeaders(fresh, `${standIns.url}/echo`), body);
    expect(response.status).toBe(200);
    expect(standIns.received[before]!.rawBody).toBe(body);
    expect(forwarder.vault.calls.length).toBe(vaultCalls);
  });

  it('when the destination does not answer in time, then forwarding answers 504 destination_timeout', async () => {
    const response = await forward(adyenHeaders(fresh, `${standIns.url}/slow/v69/payments`), adyenBody);
    expect(response.status).toBe(504);
    expect(response.json()).toMatchObject({ code: 'destination_timeout', phase: 'response' });
  });

  it('when the destination cannot be reached, then forwarding answers 502 destination_unreachable', async () => {
    const response = await forward(adyenHeaders(fresh, `http://127.0.0.1:${deadPort}/adyen/v69/payments`), adyenBody);
    expect(response.status).toBe(502);
    expect(response.json().code).toBe('destination_unreachable');
  });

  it('when the destination redirects, then the redirect goes back to the merchant and is not followed', async () => {
    const before = standIns.received.length;
    const response = await forward(adyenHeaders(fresh, `${standIns.url}/redirect/v69/payments`), adyenBody);
    expect(response.status).toBe(307);
    expect(standIns.received.length).toBe(before + 1);
  });

  it.each([
    ['X-SERVICE-TOKEN is missing', 400, 'missing_header', { 'x-service-token': '' }],
    ['X-SERVICE-TOKEN is not a UUID', 422, 'invalid_header', { 'x-service-token': 'tok_1' }],
    ['X-DESTINATION-URL is missing', 400, 'missing_header', { 'x-destination-url': '' }],
    ['the credential name is a transport header', 422, 'invalid_header', { 'X-API-KEY-ADYEN-NAME': 'Host' }],
  ])('when %s, then forwarding answers %i %s', async (_what, status, code, override) => {
    const headers: Record<string, string> = { ...adyenHeaders(fresh) };
    for (const [name, value] of Object.entries(override)) {
      delete headers[name];
      if (value !== '') headers[name] = value;
    }
    const response = await forward(headers, adyenBody);
    expect(response.status).toBe(status);
    expect(response.json().code).toBe(code);
  });

  it('when forwards complete, then each is published as forward.completed with host, path, status and durations but no card data or credentials', async () => {
    const event = await waitFor(() => events.map((e) => JSON.parse(e)).find((e) => e.data.destination_path === '/checkout/payments'));
    expect(event).toMatchObject({
      type: 'forward.completed',
      merchant_id: MERCHANT,
      data: { token_id: fresh, destination_host: `127.0.0.1:${standIns.port}`, status: 201, outcome: 'delivered' },
    });
    expect(event.data.duration_ms).toBeGreaterThan(0);
    const refused = await waitFor(() => events.map((e) => JSON.parse(e)).find((e) => e.data.token_id === expired));
    expect(refused.data).toMatchObject({ status: null, outcome: 'rejected' });
    const all = events.join('\n');
    for (const secret of [PAN, '"737"', 'adyen-key', 'sk_sbox_test', 'sk_test_123']) expect(all).not.toContain(secret);
  });
});
