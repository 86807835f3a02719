import { ADYEN_CAPTURE_RECHECK_MS } from './adyen.mapper';
import { answerIssuerChallenge } from '@vaultline/testing/psp-stand-ins';
import { startAdyenStandIn, type AdyenStandIn } from './dev/adyen.stand-in';
import { contractConsumerAuthentication } from '../processor.contract';
import { adyen } from '.';
import {
  ADYEN_APPROVED_TOKEN as APPROVED_TOKEN,
  ADYEN_CHALLENGE_TOKEN as CHALLENGE_TOKEN,
  ADYEN_CONTRACT_CREDENTIALS as credentials,
  ADYEN_CONTRACT_HMAC_KEY as HMAC_KEY,
  ADYEN_POST_CHALLENGE_TOKEN as POST_CHALLENGE_TOKEN,
  adyenContractTransport,
} from './adyen.contract-cases';

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
    const open = (apiKey = credentials.api_key) =>
      adyen.open(adyen.optionsSchema.parse({ credentials: { ...credentials, api_key: apiKey }, base_url: standIn.baseUrl, mode: 'test' }), {
        clock: undefined as never,
        transport,
      });
    const payment = {
      payment_id: 'p-503',
      merchant_id: 'm',
      mode: 'test' as const,
      use_case: 'ONE_OFF' as const,
      stored_credential: 'none' as const,
      amount: 100,
      currency_code: 'EUR',
      reference: null,
      token_id: APPROVED_TOKEN,
      masked_account_number: '411111******1111',
      scheme: 'VISA',
      network_transaction_reference: null,
      authentication_preference: null,
      idempotency_key: 'p-503:authorization',
    };
    standIn.failNext(1);
    expect(await open().authorize(payment)).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
    expect(await open('wrong').authorize({ ...payment, idempotency_key: 'p-401:authorization' })).toEqual({
      status: 'failed',
      failure_reason: 'processor_authentication_failed',
      processor_reference: null,
    });
  });

  it('when a subsequent payment is authorized, then the stand-in received ContAuth with the networkTxReference and no cvc', async () => {
    const connection = adyen.open(adyen.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), {
      clock: undefined as never,
      transport,
    });
    const outcome = await connection.authorize({
      payment_id: 'p-mit',
      merchant_id: 'm',
      mode: 'test',
      use_case: 'SUBSEQUENT_RECURRING',
      stored_credential: 'stored',
      amount: 100,
      currency_code: 'EUR',
      reference: null,
      token_id: APPROVED_TOKEN,
      masked_account_number: '411111******1111',
      scheme: 'VISA',
      network_transaction_reference: 'NTRINITIAL',
      authentication_preference: null,
      idempotency_key: 'p-mit:authorization',
      security_code_available: true,
    });
    expect(outcome).toMatchObject({ status: 'succeeded', network_transaction_reference: 'NTRINITIAL' });
    const sent = standIn.payments.at(-1)!.body as { shopperInteraction: string; recurringProcessingModel: string; paymentMethod: Record<string, unknown> };
    expect([sent.shopperInteraction, sent.recurringProcessingModel, 'cvc' in sent.paymentMethod]).toEqual(['ContAuth', 'Subscription', false]);
  });
});

describe('Adyen automatic capture', () => {
  const payment = {
    payment_id: 'p-auto',
    merchant_id: 'm',
    mode: 'test' as const,
    use_case: 'ONE_OFF' as const,
    stored_credential: 'none' as const,
    amount: 100,
    currency_code: 'EUR',
    reference: null,
    token_id: APPROVED_TOKEN,
    masked_account_number: '411111******1111',
    scheme: 'VISA',
    network_transaction_reference: null,
    authentication_preference: null,
    idempotency_key: 'p-auto:capture',
    capture_mode: 'automatic' as const,
  };

  it('when the flow captures automatically, then no capture request is sent (Adyen captures the authorised payment itself) and the capture is pending until its CAPTURE notification confirms it', async () => {
    const connection = adyen.open(adyen.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), {
      clock: undefined as never,
      transport,
      captureSettlement: async () => null,
    });
    const before = transport.sent.length;
    expect(await connection.capture(payment, 'PSPAUTO')).toEqual({
      status: 'pending',
      processor_reference: 'PSPAUTO',
      poll_after_ms: ADYEN_CAPTURE_RECHECK_MS,
    });
    expect(transport.sent.length).toBe(before);
  });

  it('when the CAPTURE notification of the authorization was recorded (it may overtake the answer), then the automatic capture is confirmed; CAPTURE_FAILED fails it', async () => {
    const confirmed = adyen.open(adyen.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), {
      clock: undefined as never,
      transport,
      captureSettlement: async (reference) => (reference === 'PSPAUTO' ? { status: 'succeeded', processor_reference: 'PSPCAPTURE' } : null),
    });
    expect(await confirmed.capture(payment, 'PSPAUTO')).toEqual({ status: 'succeeded', processor_reference: 'PSPCAPTURE' });
    const failed = adyen.open(adyen.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), {
      clock: undefined as never,
      transport,
      captureSettlement: async () => ({ status: 'failed', failure_reason: 'capture_failed', processor_reference: 'PSPCAPTURE' }),
    });
    expect(await failed.capture(payment, 'PSPAUTO')).toMatchObject({ status: 'failed', failure_reason: 'capture_failed' });
  });
});

describe('Adyen 3-D Secure, beyond the contract', () => {
  const open = () => adyen.open(adyen.optionsSchema.parse({ credentials, base_url: standIn.baseUrl, mode: 'test' }), { clock: undefined as never, transport });
  const consumerPresent = (key: string, tokenId: string) => ({
    payment_id: key,
    merchant_id: 'm',
    mode: 'test' as const,
    use_case: 'ONE_OFF' as const,
    stored_credential: 'none' as const,
    amount: 1250,
    currency_code: 'EUR',
    reference: null,
    token_id: tokenId,
    masked_account_number: '421234******1237',
    scheme: 'VISA',
    network_transaction_reference: null,
    authentication_preference: null,
    idempotency_key: `${key}:authorization`,
    security_code_available: true,
    consumer_authentication: contractConsumerAuthentication,
  });

  it("when the issuer page must be reached by POST, then the action carries Adyen's action.data and the consumer's return settles the payment through /payments/details", async () => {
    const payment = consumerPresent('p-3ds-post', POST_CHALLENGE_TOKEN);
    const answer = await open().authorize(payment);
    if (answer.status !== 'action_required') throw new Error(`expected action_required, got ${answer.status}`);
    expect(answer.action).toMatchObject({ method: 'POST', data: { MD: expect.any(String), PaReq: expect.any(String), TermUrl: expect.any(String) } });
    expect(standIn.payments.at(-1)!.body).toMatchObject({
      channel: 'Web',
      origin: 'https://vaultline.example',
      returnUrl: contractConsumerAuthentication.return_url,
      shopperIP: '203.0.113.7',
      browserInfo: { userAgent: contractConsumerAuthentication.browser!.user_agent, colorDepth: 24, javaEnabled: false },
    });
    const parameters = await answerIssuerChallenge(answer.action, 'completed');
    const outcome = await open().resumeAuthorization!(payment, { processor_reference: answer.processor_reference, resume: answer.resume, parameters });
    expect(outcome).toMatchObject({
      status: 'succeeded',
      processor_reference: expect.stringMatching(/^[A-Z]{16}$/),
      authentication: { status: 'authenticated', eci: '05', liability_shift: true, version: '2.2.0' },
    });
    expect(standIn.details.at(-1)).toMatchObject({
      body: { details: { redirectResult: parameters.redirectResult } },
      headers: { 'idempotency-key': 'p-3ds-post:authorization:details' },
    });
  });

  it('when the consumer comes back without redirectResult, then nothing is sent and the consumer is sent to the issuer page again', async () => {
    const payment = consumerPresent('p-3ds-reload', CHALLENGE_TOKEN);
    const answer = await open().authorize(payment);
    if (answer.status !== 'action_required') throw new Error(`expected action_required, got ${answer.status}`);
    const before = standIn.details.length;
    expect(await open().resumeAuthorization!(payment, { processor_reference: null, resume: answer.resume, parameters: {} })).toEqual(answer);
    expect(standIn.details.length).toBe(before);
  });

  it('when the step says always on a card whose issuer needs no challenge, then Adyen is asked to authenticate (always, challenge requested 03) and answers Authorised frictionless with the result', async () => {
    const payment = {
      ...consumerPresent('p-3ds-always', APPROVED_TOKEN),
      consumer_authentication: { ...contractConsumerAuthentication, three_ds: 'always' as const },
    };
    expect(await open().authorize(payment)).toMatchObject({
      status: 'succeeded',
      authentication: { type: '3ds', status: 'authenticated', eci: '05', liability_shift: true },
    });
    expect(standIn.payments.at(-1)!.body).toMatchObject({
      authenticationData: { attemptAuthentication: 'always' },
      threeDS2RequestData: { threeDSRequestorChallengeInd: '03' },
    });
  });

  it('when the step says off and the card needs authentication, then Adyen is told attemptAuthentication never and refuses it: authentication_required, no redirect', async () => {
    const payment = {
      ...consumerPresent('p-3ds-off', CHALLENGE_TOKEN),
      consumer_authentication: { ...contractConsumerAuthentication, three_ds: 'off' as const },
    };
    expect(await open().authorize(payment)).toMatchObject({ status: 'failed', failure_reason: 'authentication_required' });
    expect(standIn.payments.at(-1)!.body).toMatchObject({ authenticationData: { attemptAuthentication: 'never' } });
  });
});
