import { randomUUID } from 'node:crypto';
import { startStandIns } from './stand-in-destinations';
import { startForwarder } from './forwarder-harness';

const PAN = '4111111111111111';
const MERCHANT = 'mer_a';

/**
 * Placeholders stand only as the whole value of the card fields a destination declares: anywhere
 * else a destination could echo the card data back to the merchant (issue 16, item 2).
 */
describe('POST /forward: where placeholders may stand', () => {
  let standIns: Awaited<ReturnType<typeof startStandIns>>;
  let forwarder: Awaited<ReturnType<typeof startForwarder>>;
  const token = randomUUID();

  beforeAll(async () => {
    standIns = await startStandIns();
    const base = standIns.url;
    forwarder = await startForwarder({
      FORWARD_HTTPS_ONLY: 'false',
      FORWARD_EXTRA_DESTINATIONS: JSON.stringify([
        { url: `${base}/adyen/v69/payments` },
        { url: `${base}/checkout/payments` },
        { url: `${base}/stripe/v1/payment_methods` },
        { url: `${base}/echo`, card_fields: { 'card.pan': 'account_number', 'card.expiry.month': 'expiration_month' } },
      ]),
    });
    forwarder.vault.tokens.set(token, { merchantId: MERCHANT, number: PAN, expMonth: 3, expYear: 2030, cvc: '737', cvcStatus: 'available' });
  });
  afterAll(async () => {
    await forwarder?.stop();
    await standIns?.close();
  });

  const adyenPayment = (changes: Record<string, unknown> = {}, paymentMethod: Record<string, unknown> = {}) =>
    JSON.stringify({
      amount: { currency: 'EUR', value: 1000 },
      reference: 'order-1',
      paymentMethod: {
        type: 'scheme',
        number: '{{ account_number }}',
        expiryMonth: '{{ expiration_month }}',
        expiryYear: '{{ expiration_year }}',
        cvc: '{{ security_code }}',
        ...paymentMethod,
      },
      merchantAccount: 'TestMerchant',
      ...changes,
    });
  const forwardJson = (path: string, body: string) =>
    forwarder.call(
      MERCHANT,
      ['merchant'],
      'POST',
      '/forward',
      {
        'content-type': 'application/json',
        'x-service-token': token,
        'x-destination-url': `${standIns.url}${path}`,
        'x-api-key-name': 'X-API-Key',
        'x-api-key-value': 'adyen-key',
      },
      body,
    );

  async function expectRefused(answer: Promise<{ status: number; json: () => Record<string, unknown>; text: string }>, field: string) {
    const sent = standIns.received.length;
    const detokenized = forwarder.vault.calls.length;
    const response = await answer;
    expect({ status: response.status, code: response.json().code, field: response.json().field }).toEqual({
      status: 422,
      code: 'placeholder_not_allowed',
      field,
    });
    expect(response.text).not.toContain(PAN);
    expect(standIns.received.length).toBe(sent);
    expect(forwarder.vault.calls.length).toBe(detokenized);
  }

  it('when every placeholder is the whole value of an Adyen card field, then the payment is forwarded with the card data', async () => {
    const before = standIns.received.length;
    const response = await forwardJson('/adyen/v69/payments', adyenPayment());
    expect(response.status).toBe(200);
    expect(JSON.parse(standIns.received[before]!.rawBody).paymentMethod).toMatchObject({ number: PAN, expiryMonth: '03', expiryYear: '2030', cvc: '737' });
  });

  it.each([
    ['inside a merchant field the destination echoes', adyenPayment({ reference: '12{{ account_number }}' }), 'reference'],
    ['in a card field with other text', adyenPayment({}, { number: '{{ account_number }} {{ expiration_year }}' }), 'paymentMethod.number'],
    ['as the holder name', adyenPayment({}, { holderName: '{{ account_number }}' }), 'paymentMethod.holderName'],
    ['in the card field of another placeholder', adyenPayment({}, { cvc: '{{ account_number }}' }), 'paymentMethod.cvc'],
    ['in an array under a card field', adyenPayment({}, { number: ['{{ account_number }}'] }), 'paymentMethod.number[0]'],
    ['under a dotted key that spells a card field', adyenPayment({ 'paymentMethod.number': '{{ account_number }}' }), 'paymentMethod.number'],
    ['in a key', adyenPayment({ '{{ account_number }}': 'x' }), '{{ account_number }}'],
    ['bare as a merchant field', adyenPayment().replace('"reference":"order-1"', '"reference":{{ account_number }}'), 'reference'],
  ])(
    'when a placeholder stands %s, then forwarding answers 422 placeholder_not_allowed naming the field, and nothing is detokenized or sent',
    async (_where, body, field) => {
      await expectRefused(forwardJson('/adyen/v69/payments', body), field);
    },
  );

  it('when a Checkout.com body puts the account number in its reference, then forwarding answers 422 placeholder_not_allowed', async () => {
    const body =
      '{"source":{"type":"card","number":"{{ account_number }}","expiry_month":{{ expiration_month }},"expiry_year":{{ expiration_year }}},"reference":"{{ account_number }}"}';
    await expectRefused(forwardJson('/checkout/payments', body), 'reference');
  });

  it('when a Stripe form body puts the account number in the billing name, then forwarding answers 422 placeholder_not_allowed naming the form field', async () => {
    const body = 'type=card&card[number]={{ account_number }}&billing_details[name]={{ account_number }}';
    await expectRefused(
      forwarder.call(
        MERCHANT,
        ['merchant'],
        'POST',
        '/forward',
        { 'content-type': 'application/x-www-form-urlencoded', 'x-service-token': token, 'x-destination-url': `${standIns.url}/stripe/v1/payment_methods` },
        body,
      ),
      'billing_details[name]',
    );
  });

  it('when a configured destination declares its own card fields, then placeholders fill those fields and are refused elsewhere', async () => {
    const before = standIns.received.length;
    const allowed = await forwardJson('/echo', '{"card":{"pan":"{{ account_number }}","expiry":{"month":{{ expiration_month }}}},"note":"x"}');
    expect(allowed.status).toBe(200);
    expect(JSON.parse(standIns.received[before]!.rawBody)).toEqual({ card: { pan: PAN, expiry: { month: 3 } }, note: 'x' });
    expect(allowed.json()).toEqual({ card: { pan: '411111******1111', expiry: { month: 3 } }, note: 'x' });

    await expectRefused(forwardJson('/echo', '{"card":{"pan":"{{ account_number }}","cvc":"{{ security_code }}"}}'), 'card.cvc');
  });
});
