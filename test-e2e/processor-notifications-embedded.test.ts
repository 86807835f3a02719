import { unsignedAdyenNotification } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import { checkoutWebhook } from '../services/payment-orchestrator/src/processors/checkout/dev/checkout.stand-in';
import { startSystem, type RunningSystem } from './support/merchant-api';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const ADYEN = { api_key: 'AQE_e2e_adyen_key_6604', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const CHECKOUT = { secret_key: 'sk_sbox_e2e_checkout_key', processing_channel_id: 'pc_e2e1', webhook_secret: 'whsec_e2e_checkout0123456789abcdefghij' };
/** Small, so the suite reaches the sender's limit in a few requests (every request here comes from 127.0.0.1). */
const BURST_PER_ADDRESS = 5;

/**
 * The public notification routes through the gateway of the embedded profile, without an API key, as a
 * processor (or anyone) reaches them (issue #23: one unsigned body of 1,100 items wrote 1,100 rows).
 */
describe('processor notifications from unauthenticated senders, embedded profile', () => {
  let running: RunningSystem;
  let adyenAccount: string;
  let checkoutAccount: string;

  beforeAll(async () => {
    running = await startSystem(
      { METRICS_PORT: '0', PROCESSOR_NOTIFICATIONS_PER_SECOND_PER_ADDRESS: '1', PROCESSOR_NOTIFICATIONS_BURST_PER_ADDRESS: String(BURST_PER_ADDRESS) },
      'vaultline-notifications-',
    );
    const account = async (processor: string, credentials: Record<string, string>) => {
      const created = await running.merchant.call('POST', '/processor-accounts', { json: { processor, name: processor, credentials } });
      expect(created.status).toBe(201);
      return created.json<{ id: string }>().id;
    };
    adyenAccount = await account('adyen', ADYEN);
    checkoutAccount = await account('checkout', CHECKOUT);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${running.system.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  /** Rows in the orchestrator's notification store, every merchant's (the orchestrator runs on the main thread by default). */
  async function storedNotifications(): Promise<number> {
    const orchestrator = running.system.services['payment-orchestrator'];
    if (!orchestrator) throw new Error('the payment orchestrator runs on the main thread by default');
    return (await orchestrator.runtime.store.collection('processor_notifications').listAcrossMerchants({}, { limit: 1_000 })).items.length;
  }

  async function rejected(processor: string, reason: string): Promise<number> {
    const text = await (await fetch(running.system.metricsUrl as string)).text();
    const line = text
      .split('\n')
      .find(
        (l) => l.startsWith('vaultline_processor_notifications_rejected_total{') && l.includes(`processor="${processor}"`) && l.includes(`reason="${reason}"`),
      );
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  it("when unsigned bodies arrive (1,100 Adyen items, 100 Adyen items, a Checkout.com webhook), then 413, [accepted] and 401, each refusal counted and none stored; past the sender's burst the gateway passes on 429 rate_limited with Retry-After", async () => {
    const huge = await post(`/processor-notifications/adyen/${adyenAccount}`, unsignedAdyenNotification(1_100));
    expect([huge.status, huge.headers.get('content-type'), ((await huge.json()) as { code: string }).code]).toEqual([
      413,
      expect.stringContaining('application/problem+json'),
      'too_many_notification_items',
    ]);

    const forged = await post(`/processor-notifications/adyen/${adyenAccount}`, unsignedAdyenNotification(100));
    expect([forged.status, await forged.text()]).toEqual([200, '[accepted]']);

    const webhook = checkoutWebhook('payment_captured', { id: 'pay_abc', reference: 'x' }, 'not-the-secret');
    const unsigned = await post(`/processor-notifications/checkout/${checkoutAccount}`, webhook.rawBody, { 'cko-signature': webhook.signature });
    expect(unsigned.status).toBe(401);

    expect([await rejected('adyen', 'too_many_items'), await rejected('adyen', 'invalid_signature'), await rejected('checkout', 'invalid_signature')]).toEqual([
      1, 100, 1,
    ]);
    expect(await storedNotifications()).toBe(0);

    const answers: number[] = [];
    for (let n = 0; n < BURST_PER_ADDRESS; n++) {
      const answer = await post(`/processor-notifications/adyen/${adyenAccount}`, unsignedAdyenNotification(1));
      answers.push(answer.status);
      if (answer.status === 429) {
        expect([((await answer.json()) as { code: string }).code, Number(answer.headers.get('retry-after'))]).toEqual(['rate_limited', expect.any(Number)]);
        break;
      }
      await answer.text();
    }
    expect(answers.at(-1)).toBe(429);
    expect(await rejected('adyen', 'rate_limited')).toBe(1);
  }, 60_000);
});
