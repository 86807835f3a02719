import { ADMIN_API_KEY, MerchantApi, startSystem, type HttpAnswer, type RunningSystem } from './support/merchant-api';
import { FORWARD_CARDS } from './support/forward-scenario';
import { PAYMENT_ENV } from './support/payment-scenario';

const ADYEN = { api_key: 'AQE_e2e_adyen_key_3319', merchant_account: 'ShopECOM', hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056' };
/** Live payments cannot run on the simulator: references starting so go to a flow on the live key's Adyen account. */
const LIVE_PREFIX = 'live-';

interface Merchant {
  id: string;
  test: MerchantApi;
  live: MerchantApi;
}

/**
 * Whose Idempotency-Key it is, through the gateway of the embedded profile: one merchant's key in one mode
 * (issue #23). The gateway keeps a key's record per merchant, mode, method and route, and so does the
 * payment orchestrator's own record of payment requests (the one a retry reaches after the gateway's claim
 * lapsed).
 */
describe('Idempotency-Key scoped by merchant and mode, embedded profile', () => {
  let running: RunningSystem;
  let a: Merchant;
  let b: Merchant;

  async function admin(path: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${running.system.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'X-Admin-Key': ADMIN_API_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  }

  async function merchant(name: string): Promise<Merchant> {
    const created = await admin('/admin/merchants', { name, card_data_access: true });
    const live = await admin(`/admin/merchants/${String(created.id)}/api-keys`, { mode: 'live' });
    const baseUrl = running.system.baseUrl;
    return { id: String(created.id), test: new MerchantApi(baseUrl, String(created.api_key)), live: new MerchantApi(baseUrl, String(live.api_key)) };
  }

  /** The live key's own Adyen account and flow, and a matrix rule sending live- references to it. */
  async function routeLivePaymentsToAdyen(merchantApi: MerchantApi): Promise<void> {
    const account = await merchantApi.call('POST', '/processor-accounts', { json: { processor: 'adyen', name: 'Adyen live', credentials: ADYEN } });
    expect(account.status).toBe(201);
    const accountId = account.json<{ id: string }>().id;
    const steps = [
      { kind: 'authorization', processor: accountId },
      { kind: 'capture', processor: accountId },
    ];
    expect((await merchantApi.call('POST', '/flows', { json: { name: 'adyen-live', capture_mode: 'automatic', steps } })).status).toBe(201);
    const matrix = { default_flow: 'simulator_auto_capture', rules: [{ name: 'live', when: { reference_prefix: LIVE_PREFIX }, flow: 'adyen-live' }] };
    expect((await merchantApi.call('PUT', '/flow-matrix', { json: matrix })).status).toBe(200);
  }

  const oneOff = (merchantApi: MerchantApi, key: string, reference: string): Promise<HttpAnswer> =>
    merchantApi.call('POST', '/payments/one-off', {
      json: { amount: 1999, currency_code: 'EUR', reference, source: { type: 'vaultline' } },
      headers: { 'Idempotency-Key': key },
    });

  const idOf = (answer: HttpAnswer): string => {
    if (answer.status >= 300) throw new Error(`answered ${answer.status}: ${answer.text}`);
    return answer.json<{ id: string }>().id;
  };

  beforeAll(async () => {
    running = await startSystem({ ...PAYMENT_ENV }, 'vaultline-idempotency-scope-');
    [a, b] = [await merchant('Shop A'), await merchant('Shop B')];
    await routeLivePaymentsToAdyen(a.live);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
  });

  it('when merchants A and B create a payment with the same Idempotency-Key, then each gets its own payment (B is not refused, and learns nothing of A), and each repeat answers its own', async () => {
    const key = 'inv-2026-0001';
    const paidByA = await oneOff(a.test, key, 'order-a');
    const paidByB = await oneOff(b.test, key, 'order-b');
    const [aAgain, bAgain] = [await oneOff(a.test, key, 'order-a'), await oneOff(b.test, key, 'order-b')];

    expect([paidByA.status, paidByB.status]).toEqual([200, 200]);
    expect(idOf(paidByB)).not.toBe(idOf(paidByA));
    expect(paidByB.json<{ reference: string }>().reference).toBe('order-b');
    expect([idOf(aAgain), idOf(bAgain)]).toEqual([idOf(paidByA), idOf(paidByB)]);
    expect((await b.test.call('GET', `/payments/${idOf(paidByA)}`)).status).toBe(404);
  });

  it("when a merchant's test key and live key create a token with the same Idempotency-Key and body, then each gets its own token, and each repeat answers its own", async () => {
    const send = (merchantApi: MerchantApi) =>
      merchantApi.call('POST', '/tokens', { json: { card: FORWARD_CARDS.visa }, headers: { 'Idempotency-Key': 'tok-2026-0001' } });
    const inTest = await send(a.test);
    const inLive = await send(a.live);
    const [testAgain, liveAgain] = [await send(a.test), await send(a.live)];

    expect([inTest.status, inLive.status]).toEqual([201, 201]);
    expect(inLive.headers.get('idempotent-replayed')).toBeNull();
    expect(idOf(inLive)).not.toBe(idOf(inTest));
    expect([idOf(testAgain), idOf(liveAgain)]).toEqual([idOf(inTest), idOf(inLive)]);
  });

  it("when a merchant's test key and live key create a payment with the same Idempotency-Key and body, then each gets its own payment, and each repeat answers its own", async () => {
    const key = 'order-2026-0042';
    const reference = `${LIVE_PREFIX}order-42`;
    const inTest = await oneOff(a.test, key, reference);
    const inLive = await oneOff(a.live, key, reference);
    const [testAgain, liveAgain] = [await oneOff(a.test, key, reference), await oneOff(a.live, key, reference)];

    expect([inTest.status, inLive.status]).toEqual([200, 200]);
    expect(idOf(inLive)).not.toBe(idOf(inTest));
    expect([idOf(testAgain), idOf(liveAgain)]).toEqual([idOf(inTest), idOf(inLive)]);
  });
});
