import { startAdyenStandIn, type AdyenStandIn } from '../../../../../test-e2e/support/adyen-stand-in';
import { adyen } from '.';
import { ADYEN_APPROVED_TOKEN as APPROVED_TOKEN, ADYEN_CONTRACT_CREDENTIALS as credentials, ADYEN_CONTRACT_HMAC_KEY as HMAC_KEY, adyenContractTransport } from './adyen.contract-cases';

// The plugin contract itself runs for every registered plugin (processors.contract.test.ts); these are Adyen's own cases.
let standIn: AdyenStandIn;
beforeAll(async () => {
  standIn = await startAdyenStandIn({ apiKey: credentials.api_key, merchantAccount: credentials.merchant_account, hmacKey: HMAC_KEY });
});
afterAll(async () => {
  await standIn.stop();
});

const transport = adyenContractTransport();

describe('Adyen plugin against its stand-in, beyond the contract', () => {
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
