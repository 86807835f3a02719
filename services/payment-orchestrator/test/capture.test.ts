import { CARDS, eventsOf, MERCHANT, OTHER_MERCHANT, startWithManualCaptureRule, type Harness, type Json } from './support/orchestrator-harness';

let h: Harness;
beforeEach(async () => {
  h = await startWithManualCaptureRule();
});
afterEach(async () => {
  await h.stop();
});

const authorizedPayment = (masked: string = CARDS.approved): Promise<Json> => h.payOneOff(MERCHANT, masked, { reference: 'manual-42' });

describe('manual capture', () => {
  it('when a manual-capture payment is authorized, then it stops at authorized with amount.authorized and payment.authorized', async () => {
    const payment = await authorizedPayment();
    expect(payment).toMatchObject({
      status: 'authorized',
      amount: { requested: 1250, authorized: 1250 },
      flow: 'simulator_manual_capture',
      flow_decision: { matrix_version: 1, rule: 'manual-for-orders' },
    });
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.authorized']);
  });

  it('when an authorized payment is captured in full, then it answers capturing with the spec fields and completes to captured', async () => {
    const payment = await authorizedPayment();
    const answer = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'capture-1' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'capturing',
      amount: { requested: 1250, authorized: 1250 },
      flow: 'simulator_manual_capture',
      reference: 'manual-42',
      source: { type: 'card', masked_account_number: CARDS.approved, pan_type: 'FPAN' },
      use_case: 'ONE_OFF',
      created_at: expect.any(String),
      currency_code: 'EUR',
    });
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.status).toBe('capturing');
    await h.advance(200);
    const after = await h.call(MERCHANT, 'GET', `/payments/${payment.id}`);
    expect(after.body).toMatchObject({ status: 'captured', amount: { requested: 1250, authorized: 1250, captured: 1250 } });
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.authorized', 'payment.capturing', 'payment.captured']);
  });

  it('when a partial capture is requested (final, the default), then amount.captured is the partial amount and nothing is capturable any more: the rest was released', async () => {
    const payment = await authorizedPayment();
    const answer = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'part', amount: 1000, currency_code: 'EUR' });
    expect(answer.body).toMatchObject({ status: 'capturing', amount: { capturable: 0 } });
    await h.advance(200);
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body).toMatchObject({
      status: 'captured',
      amount: { requested: 1250, authorized: 1250, captured: 1000, capturable: 0, disputed: 0, net: 1000 },
    });
  });

  it('when the capture does not succeed, then the payment is not failed: it moves capturing → authorized with payment.capture_failed and stays capturable', async () => {
    const payment = await authorizedPayment(CARDS.captureFails);
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'c' });
    await h.advance(200);
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body).toMatchObject({
      status: 'authorized',
      amount: { authorized: 1250, capturable: 1250 },
    });
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.authorized', 'payment.capturing', 'payment.capture_failed']);
  });

  it('when a second capture is requested, then it answers 409 already_captured (while capturing and once captured)', async () => {
    const payment = await authorizedPayment();
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'c' });
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'c' })).toMatchObject({
      status: 409,
      body: { code: 'already_captured' },
    });
    await h.advance(200);
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'c' })).toMatchObject({
      status: 409,
      body: { code: 'already_captured' },
    });
  });

  it('when two captures race, then exactly one wins and the other answers 409 already_captured', async () => {
    const payment = await authorizedPayment();
    const answers = await Promise.all([1, 2, 3].map(() => h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'c' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    await h.settle();
    expect(eventsOf(h, payment.id).filter((type) => type === 'payment.capturing')).toHaveLength(1);
  });

  it("when the payment's flow captures automatically, then capture answers 409 capture_not_allowed", async () => {
    const payment = await h.payOneOff(MERCHANT, CARDS.approved, { reference: 'auto-1' });
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'c' })).toMatchObject({
      status: 409,
      body: { code: 'capture_not_allowed' },
    });
  });

  it('when the payment is not authorized (still waiting for the card, or declined), then capture answers 409 capture_not_allowed', async () => {
    const waiting = await h.call(MERCHANT, 'POST', '/payments/one-off', {
      amount: 100,
      currency_code: 'EUR',
      reference: 'manual-1',
      source: { type: 'vaultline' },
    });
    expect(await h.call(MERCHANT, 'POST', `/payments/${waiting.body.id}/capture`, { reference: 'c' })).toMatchObject({
      status: 409,
      body: { code: 'capture_not_allowed' },
    });
    const declined = await authorizedPayment(CARDS.declined);
    expect(await h.call(MERCHANT, 'POST', `/payments/${declined.id}/capture`, { reference: 'c' })).toMatchObject({
      status: 409,
      body: { code: 'capture_not_allowed' },
    });
  });

  it('when the amount is above the authorized amount, then it answers 422 amount_exceeds_authorized', async () => {
    const payment = await authorizedPayment();
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { amount: 1251, currency_code: 'EUR' })).toMatchObject({
      status: 422,
      body: { code: 'amount_exceeds_authorized', field: 'amount' },
    });
  });

  it("when the currency is not the payment's, then it answers 422 currency_mismatch", async () => {
    const payment = await authorizedPayment();
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { amount: 100, currency_code: 'USD' })).toMatchObject({
      status: 422,
      body: { code: 'currency_mismatch', field: 'currency_code' },
    });
  });

  it('when amount comes without currency_code, then it answers 422 naming currency_code', async () => {
    const payment = await authorizedPayment();
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { amount: 100 })).toMatchObject({ status: 422, body: { field: 'currency_code' } });
  });

  it('when another merchant captures the payment, then it answers 404', async () => {
    const payment = await authorizedPayment();
    expect((await h.call(OTHER_MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'c' })).status).toBe(404);
  });
});
