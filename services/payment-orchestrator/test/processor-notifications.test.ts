import { NOTIFICATION_HMAC_KEY, NOTIFICATION_WEBHOOK_SECRET, startWithNotifyingAccounts } from './support/notification-accounts';
import { adyenNotification } from '../../../test-e2e/support/adyen-stand-in';
import { checkoutWebhook } from '../../../test-e2e/support/checkout-stand-in';
import { MERCHANT, type Harness, type Json } from './support/orchestrator-harness';

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

const records = async (): Promise<Json[]> => (await h.store.collection<Json>('processor_notifications').list(MERCHANT.merchantId, {}, { limit: 50 })).items;

describe('Adyen notifications', () => {
  it('when a CAPTURE signed with the account\'s HMAC key arrives, then it answers [accepted] and records the capture of the payment', async () => {
    const answer = await h.postPublic(`/processor-notifications/adyen/${adyenId}`, JSON.stringify(adyenNotification(capture(), HMAC_KEY)));
    expect([answer.status, answer.text]).toEqual([200, '[accepted]']);
    expect(await records()).toEqual([
      expect.objectContaining({ status: 'accepted', kind: 'capture_succeeded', payment_reference: '01a208ee-5f6c-74c8-b99c-a50679101e09', processor_reference: 'QFQTPCQ8HXSKGKAB', capture_reference: 'JDD6LKTMBLZNNCDE', account_id: adyenId }),
    ]);
  });

  it('when the same notification is delivered twice, then it is recorded once', async () => {
    const body = JSON.stringify(adyenNotification(capture(), HMAC_KEY));
    await h.postPublic(`/processor-notifications/adyen/${adyenId}`, body);
    expect((await h.postPublic(`/processor-notifications/adyen/${adyenId}`, body)).text).toBe('[accepted]');
    expect(await records()).toHaveLength(1);
  });

  it('when a notification is forged (signed with another key, or its amount changed after signing), then it is refused and recorded as refused, and Adyen still reads [accepted]', async () => {
    const forged = adyenNotification(capture(), 'AA'.repeat(32));
    const tampered = adyenNotification(capture(), HMAC_KEY);
    tampered.notificationItems[0]!.NotificationRequestItem.amount.value = 1;
    for (const body of [forged, tampered]) expect((await h.postPublic(`/processor-notifications/adyen/${adyenId}`, JSON.stringify(body))).text).toBe('[accepted]');
    expect((await records()).map((r) => [r.status, r.refusal, r.kind])).toEqual([
      ['refused', 'invalid_signature', 'CAPTURE'],
      ['refused', 'invalid_signature', 'CAPTURE'],
    ]);
  });

  it('when the account is unknown, belongs to another processor or the body is not a notification, then 404 or 400 and nothing is recorded', async () => {
    expect((await h.postPublic('/processor-notifications/adyen/01a208ee-5f6c-74c8-b99c-000000000000', JSON.stringify(adyenNotification(capture(), HMAC_KEY)))).status).toBe(404);
    expect((await h.postPublic(`/processor-notifications/adyen/${checkoutId}`, JSON.stringify(adyenNotification(capture(), HMAC_KEY)))).status).toBe(404);
    expect((await h.postPublic(`/processor-notifications/adyen/${adyenId}`, '{"live":"false"}')).status).toBe(400);
    expect(await records()).toEqual([]);
  });
});

describe('Checkout.com webhooks', () => {
  const captured = () => checkoutWebhook('payment_captured', { id: 'pay_abc', action_id: 'act_def', reference: '01a208ee-5f6c-74c8-b99c-a50679101e09', amount: 1250, currency: 'EUR' }, WEBHOOK_SECRET);

  it('when payment_captured arrives with a Cko-Signature of the raw body, then 200 and the capture is recorded; a redelivery is recorded once', async () => {
    const webhook = captured();
    for (let i = 0; i < 2; i++) expect((await h.postPublic(`/processor-notifications/checkout/${checkoutId}`, webhook.rawBody, { 'cko-signature': webhook.signature })).status).toBe(200);
    expect(await records()).toEqual([expect.objectContaining({ status: 'accepted', kind: 'capture_succeeded', processor_reference: 'pay_abc', capture_reference: 'act_def' })]);
  });

  it('when the signature is missing or made with another secret, then 401 invalid_signature and it is recorded as refused', async () => {
    const webhook = captured();
    const wrong = checkoutWebhook('payment_captured', { id: 'pay_abc', reference: 'x' }, 'another-secret');
    const missing = await h.postPublic(`/processor-notifications/checkout/${checkoutId}`, webhook.rawBody);
    const forged = await h.postPublic(`/processor-notifications/checkout/${checkoutId}`, webhook.rawBody, { 'cko-signature': wrong.signature });
    expect([missing.status, JSON.parse(forged.text).code]).toEqual([401, 'invalid_signature']);
    expect((await records()).map((r) => [r.status, r.kind])).toEqual([
      ['refused', 'payment_captured'],
      ['refused', 'payment_captured'],
    ]);
  });
});
