import { AesGcmSecretSealer } from '@vaultline/crypto';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../src/processors/adyen/dev/adyen.stand-in';
import { StoreProcessorNotificationRepository } from '../src/data/processor-account.repository';
import type { ProcessorTransport } from '../src/processors/transport-port';
import { MERCHANT, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';
import { placeholderTransport } from './support/placeholder-transport';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const adyenCredentials = { api_key: 'AQE_opened_key_value', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
/** Accounts the merchant has and the payment never uses. */
const OTHER_ACCOUNTS = [
  {
    processor: 'checkout',
    name: 'unused checkout',
    credentials: { secret_key: 'sk_sbox_unused_key', processing_channel_id: 'pc_unused1', webhook_secret: 'whsec_unused0123456789abcdefghijklmnop' },
  },
  { processor: 'stripe', name: 'unused stripe', credentials: { secret_key: 'sk_test_unusedKey123', webhook_secret: 'whsec_unused1230123456789abcdefghijklm' } },
  { processor: 'adyen', name: 'unused adyen', credentials: { ...adyenCredentials, api_key: 'AQE_unused_key_value' } },
];

const transport: ProcessorTransport = {
  forward: (request) =>
    placeholderTransport({ '*': { number: ADYEN_TEST_CARDS.approved, expiry_month: 3, expiry_year: 2030, security_code: '737' } }).forward(request),
  send: (request) => placeholderTransport({}).send(request),
};

let psp: AdyenStandIn;
let h: Harness;
/** The accounts whose credentials were decrypted, one entry per decryption (the sealing context names the account). */
let decrypted: string[] = [];
/** Reads of recorded notifications by a capture's or refund's reference. */
let notificationReads = 0;

beforeAll(async () => {
  psp = await startAdyenStandIn({ apiKey: adyenCredentials.api_key, merchantAccount: 'ShopECOM', hmacKey: HMAC_KEY });
});
afterAll(async () => {
  await psp.stop();
});
beforeEach(async () => {
  reset();
  const open = AesGcmSecretSealer.prototype.open;
  jest.spyOn(AesGcmSecretSealer.prototype, 'open').mockImplementation(function (this: AesGcmSecretSealer, sealed: string, context: string) {
    decrypted.push(context.split(':').at(-1)!);
    return open.call(this, sealed, context);
  });
  for (const read of ['findCaptureEvent', 'findActionEvent'] as const) {
    const original = StoreProcessorNotificationRepository.prototype[read];
    jest.spyOn(StoreProcessorNotificationRepository.prototype, read).mockImplementation(function (
      this: StoreProcessorNotificationRepository,
      ...args: Parameters<typeof original>
    ) {
      notificationReads += 1;
      return (original as (...a: typeof args) => ReturnType<typeof original>).apply(this, args);
    });
  }
  h = await startOrchestrator({ transport, env: { FORWARD_EXTRA_DESTINATIONS: `${psp.baseUrl}/v69/payments`, PROCESSOR_ALLOW_PRIVATE_URLS: 'true' } });
});
afterEach(async () => {
  await h.stop();
  jest.restoreAllMocks();
});

const reset = () => {
  decrypted = [];
  notificationReads = 0;
};
const lastNotification = (eventCode: string) =>
  [...psp.notifications].reverse().find((n) => n.notificationItems[0]!.NotificationRequestItem.eventCode === eventCode)!;
const deliver = async (account: string, notification: unknown) => {
  expect((await h.postPublic(`/processor-notifications/adyen/${account}`, JSON.stringify(notification))).text).toBe('[accepted]');
  await h.settle();
};

/** Three accounts the payment never uses, the one it uses, and its automatic-capture flow. */
async function merchantWithFourAccounts(): Promise<{ used: string; unused: string[] }> {
  const unused: string[] = [];
  for (const account of OTHER_ACCOUNTS) {
    const created = await h.call(MERCHANT, 'POST', '/processor-accounts', account);
    expect([created.status, created.body.code ?? null]).toEqual([201, null]);
    unused.push(created.body.id);
  }
  const used = (
    await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: 'used',
      credentials: adyenCredentials,
      settings: { base_url: psp.baseUrl },
    })
  ).body.id as string;
  const flow = await h.call(MERCHANT, 'POST', '/flows', {
    name: 'adyen-auto',
    capture_mode: 'automatic',
    steps: [
      { kind: 'authorization', processor: used },
      { kind: 'capture', processor: used },
    ],
  });
  expect([flow.status, flow.body.detail ?? null]).toEqual([201, null]);
  expect((await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'adyen-auto', rules: [] })).status).toBe(200);
  return { used, unused };
}

describe('only what is used is opened', () => {
  it("when a payment runs its steps on one of the merchant's four accounts, then only that account's credentials are decrypted, never the three others", async () => {
    const { used, unused } = await merchantWithFourAccounts();
    reset();
    const payment: Json = await h.payOneOff(MERCHANT, '411111******1111');
    expect(payment.status).toBe('processing');
    expect(decrypted.length).toBeGreaterThan(0);
    expect(new Set(decrypted)).toEqual(new Set([used]));
    expect(decrypted.filter((id) => unused.includes(id))).toEqual([]);
  });

  it("when Adyen's CAPTURE notification is verified, then the capture settles from it: the used account is decrypted (to verify, then for the step) and no recorded notification is read back", async () => {
    const { used } = await merchantWithFourAccounts();
    const payment: Json = await h.payOneOff(MERCHANT, '411111******1111');
    reset();
    await deliver(used, lastNotification('CAPTURE'));
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.status).toBe('captured');
    expect(notificationReads).toBe(0);
    expect(decrypted).toEqual([used, used]);
  });

  it("when Adyen's REFUND notification is verified, then the refund settles from it, without reading the notification back, opening only the account that refunded", async () => {
    const { used } = await merchantWithFourAccounts();
    const payment: Json = await h.payOneOff(MERCHANT, '411111******1111');
    await deliver(used, lastNotification('CAPTURE'));
    const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 500, reason: 'requested_by_customer' })).body;
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/refunds/${refund.id}`)).body.status).toBe('pending');
    reset();
    await deliver(used, lastNotification('REFUND'));
    expect((await h.call(MERCHANT, 'GET', `/refunds/${refund.id}`)).body.status).toBe('succeeded');
    expect(notificationReads).toBe(0);
    expect(decrypted).toEqual([used, used]);
  });
});
