import { NOTIFICATION_HMAC_KEY, NOTIFICATION_WEBHOOK_SECRET, startWithNotifyingAccounts } from './support/notification-accounts';
import { adyenNotification, unsignedAdyenNotification } from '../src/processors/adyen/dev/adyen.stand-in';
import { checkoutWebhook } from '../src/processors/checkout/dev/checkout.stand-in';
import { MERCHANT, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

const HMAC_KEY = NOTIFICATION_HMAC_KEY;
const WEBHOOK_SECRET = NOTIFICATION_WEBHOOK_SECRET;

let h: Harness;
let adyenId: string;
let checkoutId: string;
beforeEach(async () => {
  ({ h, adyenId, checkoutId } = await startWithNotifyingAccounts());
});
afterEach(async () => {
  await h.stop();
});

const capture = (overrides: Record<string, unknown> = {}) => ({
  amount: { value: 1250, currency: 'EUR' },
  eventCode: 'CAPTURE',
  eventDate: '2026-06-01T10:00:00+02:00',
  merchantAccountCode: 'ShopECOM',
  merchantReference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
  originalReference: 'QFQTPCQ8HXSKGKAB',
  pspReference: 'JDD6LKTMBLZNNCDE',
  reason: '',
  success: 'true' as const,
  ...overrides,
});

const records = async (): Promise<Json[]> =>
  (await h.store.collection<Json>('processor_notifications').list({ merchantId: MERCHANT.merchantId, mode: 'test' }, {}, { limit: 50 })).items;
const storedNotifications = (): Promise<number> =>
  h.store.collection<Json>('processor_notifications').count({ merchantId: MERCHANT.merchantId, mode: 'test' }, {});

/** vaultline_processor_notifications_rejected_total for one processor and reason (0 when never counted). */
async function rejected(processor: string, reason: string): Promise<number> {
  const text = await h.metrics.render();
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith('vaultline_processor_notifications_rejected_total{') && l.includes(`processor="${processor}"`) && l.includes(`reason="${reason}"`),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('Adyen notifications', () => {
  it("when a CAPTURE signed with the account's HMAC key arrives, then it answers [accepted] and records the capture of the payment", async () => {
    const answer = await h.postPublic(`/processor-notifications/adyen/${adyenId}`, JSON.stringify(adyenNotification(capture(), HMAC_KEY)));
    expect([answer.status, answer.text]).toEqual([200, '[accepted]']);
    expect(await records()).toEqual([
      expect.objectContaining({
        status: 'accepted',
        kind: 'capture_succeeded',
        payment_reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
        processor_reference: 'QFQTPCQ8HXSKGKAB',
        capture_reference: 'JDD6LKTMBLZNNCDE',
        account_id: adyenId,
      }),
    ]);
  });

  it('when the same notification is delivered twice, then it is recorded once', async () => {
    const body = JSON.stringify(adyenNotification(capture(), HMAC_KEY));
    await h.postPublic(`/processor-notifications/adyen/${adyenId}`, body);
    expect((await h.postPublic(`/processor-notifications/adyen/${adyenId}`, body)).text).toBe('[accepted]');
    expect(await records()).toHaveLength(1);
  });

  it('when a notification is forged (signed with another key, or its amount changed after signing), then it is refused: Adyen still reads [accepted], nothing is stored, and the refusals are counted', async () => {
    const forged = adyenNotification(capture(), 'AA'.repeat(32));
    const tampered = adyenNotification(capture(), HMAC_KEY);
    tampered.notificationItems[0]!.NotificationRequestItem.amount.value = 1;
    for (const body of [forged, tampered])
      expect((await h.postPublic(`/processor-notifications/adyen/${adyenId}`, JSON.stringify(body))).text).toBe('[accepted]');
    expect(await records()).toEqual([]);
    expect(await rejected('adyen', 'invalid_signature')).toBe(2);
  });

  it('when one unsigned body carries 100 forged items, then nothing is stored (not a row per item), the counter rises by 100 and one warn line names the account and the count', async () => {
    const body = unsignedAdyenNotification(100);
    expect((await h.postPublic(`/processor-notifications/adyen/${adyenId}`, body)).text).toBe('[accepted]');
    expect(await storedNotifications()).toBe(0);
    expect(await rejected('adyen', 'invalid_signature')).toBe(100);
    const lines = h.logLines.map((line) => JSON.parse(line) as Json).filter((line) => line.msg === 'processor notification refused');
    expect(lines).toEqual([expect.objectContaining({ processor: 'adyen', account_id: adyenId, reason: 'invalid_signature', items: 100 })]);
  });

  it('when a body carries more than 100 items (one unsigned body of 1,100 items), then it answers 413 too_many_notification_items as problem+json and stores nothing; 100 signed items are all recorded', async () => {
    for (const count of [1_100, 101]) {
      const answer = await h.postPublic(`/processor-notifications/adyen/${adyenId}`, unsignedAdyenNotification(count));
      expect([answer.status, answer.headers.get('content-type'), JSON.parse(answer.text).code]).toEqual([
        413,
        expect.stringContaining('application/problem+json'),
        'too_many_notification_items',
      ]);
    }
    expect(await storedNotifications()).toBe(0);
    expect(await rejected('adyen', 'too_many_items')).toBe(2);

    const signed = {
      live: 'false',
      notificationItems: Array.from({ length: 100 }, (_, n) => adyenNotification(capture({ pspReference: `PSP${n}` }), HMAC_KEY).notificationItems[0]),
    };
    expect((await h.postPublic(`/processor-notifications/adyen/${adyenId}`, JSON.stringify(signed))).text).toBe('[accepted]');
    expect(await storedNotifications()).toBe(100);
  });

  it('when the account is unknown, belongs to another processor or the body is not a notification, then 404 or 400 and nothing is recorded', async () => {
    expect(
      (await h.postPublic('/processor-notifications/adyen/01a208ee-5f6c-74c8-b99c-000000000000', JSON.stringify(adyenNotification(capture(), HMAC_KEY))))
        .status,
    ).toBe(404);
    expect((await h.postPublic(`/processor-notifications/adyen/${checkoutId}`, JSON.stringify(adyenNotification(capture(), HMAC_KEY)))).status).toBe(404);
    expect((await h.postPublic(`/processor-notifications/adyen/${adyenId}`, '{"live":"false"}')).status).toBe(400);
    expect(await records()).toEqual([]);
  });
});

describe('Checkout.com webhooks', () => {
  const captured = () =>
    checkoutWebhook(
      'payment_captured',
      { id: 'pay_abc', action_id: 'act_def', reference: '01a208ee-5f6c-74c8-b99c-a50679101e09', amount: 1250, currency: 'EUR' },
      WEBHOOK_SECRET,
    );

  it('when payment_captured arrives with a Cko-Signature of the raw body, then 200 and the capture is recorded; a redelivery is recorded once', async () => {
    const webhook = captured();
    for (let i = 0; i < 2; i++)
      expect((await h.postPublic(`/processor-notifications/checkout/${checkoutId}`, webhook.rawBody, { 'cko-signature': webhook.signature })).status).toBe(200);
    expect(await records()).toEqual([
      expect.objectContaining({ status: 'accepted', kind: 'capture_succeeded', processor_reference: 'pay_abc', capture_reference: 'act_def' }),
    ]);
  });

  it('when the signature is missing or made with another secret, then 401 invalid_signature, nothing is stored and the refusals are counted', async () => {
    const webhook = captured();
    const wrong = checkoutWebhook('payment_captured', { id: 'pay_abc', reference: 'x' }, 'another-secret');
    const missing = await h.postPublic(`/processor-notifications/checkout/${checkoutId}`, webhook.rawBody);
    const forged = await h.postPublic(`/processor-notifications/checkout/${checkoutId}`, webhook.rawBody, { 'cko-signature': wrong.signature });
    expect([missing.status, JSON.parse(forged.text).code]).toEqual([401, 'invalid_signature']);
    expect(await records()).toEqual([]);
    expect(await rejected('checkout', 'invalid_signature')).toBe(2);
  });
});

describe('rate limits of the public notification routes', () => {
  const LIMITS = {
    PROCESSOR_NOTIFICATIONS_PER_SECOND_PER_ADDRESS: '1',
    PROCESSOR_NOTIFICATIONS_BURST_PER_ADDRESS: '3',
    PROCESSOR_NOTIFICATIONS_PER_SECOND_PER_ACCOUNT: '1',
    PROCESSOR_NOTIFICATIONS_BURST_PER_ACCOUNT: '5',
  };
  let limited: Harness;
  let first: string;
  let second: string;
  beforeEach(async () => {
    limited = await startOrchestrator({ env: LIMITS });
    const adyen = (name: string) => ({
      processor: 'adyen',
      name,
      credentials: { api_key: 'AQE_key_value_1234', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY },
    });
    first = (await limited.call(MERCHANT, 'POST', '/processor-accounts', adyen('First'))).body.id;
    second = (await limited.call(MERCHANT, 'POST', '/processor-accounts', adyen('Second'))).body.id;
  });
  afterEach(async () => {
    await limited.stop();
  });
  const send = (account: string, address: string) =>
    limited.postPublic(`/processor-notifications/adyen/${account}`, JSON.stringify(adyenNotification(capture(), HMAC_KEY)), { 'x-forwarded-for': address });

  it('when one address sends more than its burst, then it answers 429 rate_limited with Retry-After, even for accounts it made up; another address still gets through, and the bucket refills', async () => {
    for (const account of [first, second, '01a208ee-5f6c-74c8-b99c-000000000000']) await send(account, '203.0.113.7');
    const refused = await send(first, '203.0.113.7');
    expect([refused.status, JSON.parse(refused.text).code, refused.headers.get('retry-after')]).toEqual([429, 'rate_limited', '1']);
    expect((await send(first, '198.51.100.2')).status).toBe(200);
    limited.clock.advance(1_000);
    expect((await send(first, '203.0.113.7')).status).toBe(200);
  });

  it("when one account gets more than its burst from many addresses, then it answers 429 rate_limited; the merchant's other account still gets through", async () => {
    for (let n = 1; n <= 5; n++) expect((await send(first, `198.51.100.${n}`)).status).toBe(200);
    const refused = await send(first, '198.51.100.6');
    expect([refused.status, JSON.parse(refused.text).code]).toEqual([429, 'rate_limited']);
    expect((await send(second, '198.51.100.7')).status).toBe(200);
  });
});
