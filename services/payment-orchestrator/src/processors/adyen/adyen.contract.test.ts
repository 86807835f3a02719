import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../../../../../test-e2e/support/adyen-stand-in';
import { placeholderTransport } from '../../../test/support/placeholder-transport';
import type { CaptureOutcome } from '../../domain/ports';
import { processorContract } from '../processor.contract';
import { adyen } from '.';
import { fromAdyenNotificationItem, parseAdyenNotification, verifyAdyenItem } from './adyen.notification';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const credentials = { api_key: 'AQE_contract_key_value', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const APPROVED_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000000a1';
const DECLINED_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000000d2';

let standIn: AdyenStandIn;
beforeAll(async () => {
  standIn = await startAdyenStandIn({ apiKey: credentials.api_key, merchantAccount: credentials.merchant_account, hmacKey: HMAC_KEY });
});
afterAll(async () => {
  await standIn.stop();
});

const transport = placeholderTransport({
  [APPROVED_TOKEN]: { number: ADYEN_TEST_CARDS.approved, expiry_month: 3, expiry_year: 2030, security_code: '737' },
  [DECLINED_TOKEN]: { number: ADYEN_TEST_CARDS.refused, expiry_month: 3, expiry_year: 2030, security_code: '737' },
});

/** A capture settles by Adyen's CAPTURE notification: the stand-in's, verified with the account's key and mapped as the route will. */
async function settleByNotification(_connection: unknown, _payment: unknown, pending: CaptureOutcome): Promise<CaptureOutcome> {
  if (pending.status !== 'pending') return pending;
  const notification = standIn.notifications.find((n) => n.notificationItems[0]!.NotificationRequestItem.pspReference === pending.processor_reference);
  const item = parseAdyenNotification(notification)?.[0];
  if (!item || !verifyAdyenItem(item, HMAC_KEY)) return { status: 'failed', failure_reason: 'notification_not_verified', processor_reference: null };
  const event = fromAdyenNotificationItem(item);
  return event.kind === 'capture_succeeded' ? { status: 'succeeded', processor_reference: event.capture_reference } : { status: 'failed', failure_reason: 'capture_failed', processor_reference: null };
}

describe('Adyen plugin against its stand-in', () => {
  processorContract('adyen', {
    plugin: adyen,
    get options() {
      return { credentials, base_url: standIn.baseUrl, mode: 'test' };
    },
    invalidOptions: { credentials: { ...credentials, hmac_key: 'not hex' }, base_url: null, mode: 'test' },
    approved: { token_id: APPROVED_TOKEN, security_code_available: true, cardholder_name: 'Ada Lovelace', capture_mode: 'manual' },
    declined: { token_id: DECLINED_TOKEN, security_code_available: true },
    context: { transport },
    settle: settleByNotification,
  });

  it('when the stand-in answers 503, then the authorization is a retryable error; when the key is wrong, a failure', async () => {
    const open = (apiKey = credentials.api_key) => adyen.open(adyen.optionsSchema.parse({ credentials: { ...credentials, api_key: apiKey }, base_url: standIn.baseUrl, mode: 'test' }), { clock: undefined as never, transport });
    const payment = { payment_id: 'p-503', merchant_id: 'm', mode: 'test' as const, use_case: 'ONE_OFF' as const, stored_credential: 'none' as const, amount: 100, currency_code: 'EUR', reference: null, token_id: APPROVED_TOKEN, masked_account_number: '411111******1111', scheme: 'VISA', network_transaction_reference: null, authentication_preference: null, idempotency_key: 'p-503:authorization' };
    standIn.failNext(1);
    expect(await open().authorize(payment)).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
    expect(await open('wrong').authorize({ ...payment, idempotency_key: 'p-401:authorization' })).toEqual({ status: 'failed', failure_reason: 'processor_authentication_failed', processor_reference: null });
  });

  it('when a subsequent payment is authorized, then the stand-in received ContAuth with the networkTxReference and no cvc', async () => {
    const connection = adyen.open(adyen.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), { clock: undefined as never, transport });
    const outcome = await connection.authorize({ payment_id: 'p-mit', merchant_id: 'm', mode: 'test', use_case: 'SUBSEQUENT_RECURRING', stored_credential: 'stored', amount: 100, currency_code: 'EUR', reference: null, token_id: APPROVED_TOKEN, masked_account_number: '411111******1111', scheme: 'VISA', network_transaction_reference: 'NTRINITIAL', authentication_preference: null, idempotency_key: 'p-mit:authorization', security_code_available: true });
    expect(outcome).toMatchObject({ status: 'succeeded', network_transaction_reference: 'NTRINITIAL' });
    const sent = standIn.payments.at(-1)!.body as { shopperInteraction: string; recurringProcessingModel: string; paymentMethod: Record<string, unknown> };
    expect([sent.shopperInteraction, sent.recurringProcessingModel, 'cvc' in sent.paymentMethod]).toEqual(['ContAuth', 'Subscription', false]);
  });
});

describe('Adyen automatic capture', () => {
  it('when the flow captures automatically, then no capture request is sent: Adyen captures the authorised payment itself', async () => {
    const connection = adyen.open(adyen.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), { clock: undefined as never, transport });
    const before = transport.sent.length;
    const payment = { payment_id: 'p-auto', merchant_id: 'm', mode: 'test' as const, use_case: 'ONE_OFF' as const, stored_credential: 'none' as const, amount: 100, currency_code: 'EUR', reference: null, token_id: APPROVED_TOKEN, masked_account_number: '411111******1111', scheme: 'VISA', network_transaction_reference: null, authentication_preference: null, idempotency_key: 'p-auto:capture', capture_mode: 'automatic' as const };
    expect(await connection.capture(payment, 'PSPAUTO')).toEqual({ status: 'succeeded', processor_reference: 'PSPAUTO' });
    expect(transport.sent.length).toBe(before);
  });
});
