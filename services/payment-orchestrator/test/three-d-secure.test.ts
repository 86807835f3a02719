import { CARDS, MERCHANT, oneOff, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

/** 3-D Secure on the simulator, through the orchestrator's API and events (the vault's part is played by the harness). */
let h: Harness;
beforeEach(async () => {
  h = await startOrchestrator({ env: { PROCESSOR_SIMULATOR_CAPTURE_DELAY_MS: '0' } });
});
afterEach(async () => {
  await h.stop();
});

async function payWith(masked: string, body: Record<string, unknown> = {}, path = '/payments/one-off'): Promise<Json> {
  const created = await h.call(MERCHANT, 'POST', path, { ...oneOff(), ...body });
  expect(created.status).toBe(200);
  await h.submitCard(created.body, masked);
  await h.settle();
  return created.body;
}

const get = async (payment: Json) => (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
const transactionsOf = async (payment: Json) =>
  ((await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data as Json[]).map((t) => [t.kind, t.status, t.failure_reason]);
const eventTypes = (payment: Json) => h.events.filter((e) => e.data?.payment_id === payment.id && e.type.startsWith('payment.')).map((e) => e.type);

async function createFlow(name: string, threeDs: string): Promise<void> {
  const answer = await h.call(MERCHANT, 'POST', '/flows', {
    name,
    capture_mode: 'automatic',
    steps: [
      { kind: 'authorization', processor: 'simulator', three_ds: threeDs },
      { kind: 'capture', processor: 'simulator' },
    ],
  });
  expect(answer.status).toBe(201);
}

describe('3-D Secure with a challenge (4000000000003063)', () => {
  it("when the issuer asks for a challenge, then the payment stays processing, payment.action_required names the simulator's challenge page beside the hosted page, and nothing is authorized yet", async () => {
    const payment = await payWith(CARDS.challenge);
    expect(await get(payment)).toMatchObject({ status: 'processing', next_action: { type: 'consumer_authentication' } });
    const required = h.events.find((e) => e.type === 'payment.action_required' && e.data.payment_id === payment.id);
    expect(required?.data).toMatchObject({
      status: 'processing',
      action: {
        type: 'redirect',
        method: 'GET',
        url: `http://127.0.0.1:9/checkout/${payment.action_requirement.session_id}/test-challenge`,
        return_parameters: ['simulator_challenge'],
      },
    });
    expect(await transactionsOf(payment)).toEqual([]);
  });

  it('when the consumer completes the challenge and comes back, then the payment is captured, authenticated with liability shift, and the transactions list the authentication before the authorization', async () => {
    const payment = await payWith(CARDS.challenge);
    await h.returnFromBank(payment, { simulator_challenge: 'completed' });
    await h.settle();
    const done = await get(payment);
    expect(done).toMatchObject({
      status: 'captured',
      authentication: { type: '3ds', version: '2.2.0', status: 'authenticated', eci: '05', liability_shift: true },
    });
    expect(done).not.toHaveProperty('next_action');
    // The authentication value and the DS transaction id go to the authorization, never to the merchant.
    expect(JSON.stringify(done)).not.toMatch(/SIMCAVV|sim-ds-/);
    expect(await transactionsOf(payment)).toEqual([
      ['authentication_3ds', 'succeeded', null],
      ['authorization', 'succeeded', null],
      ['capture', 'succeeded', null],
    ]);
    expect(eventTypes(payment)).toEqual(['payment.processing', 'payment.action_required', 'payment.captured']);
    const captured = h.events.find((e) => e.type === 'payment.captured' && e.data.payment_id === payment.id);
    expect(captured?.data.authentication).toEqual({ type: '3ds', version: '2.2.0', status: 'authenticated', eci: '05', liability_shift: true });
  });

  it('when the consumer fails the challenge, then the attempt fails with authentication_failed, there is no authorization transaction, and the payment waits for another card', async () => {
    const payment = await payWith(CARDS.challenge);
    await h.returnFromBank(payment, { simulator_challenge: 'failed' });
    await h.settle();
    expect(await get(payment)).toMatchObject({
      status: 'processing',
      last_failed_attempt: { failure_reason: 'authentication_failed', authentication: { status: 'failed', eci: '07', liability_shift: false } },
    });
    expect(await transactionsOf(payment)).toEqual([['authentication_3ds', 'failed', 'authentication_failed']]);
  });

  it('when the consumer comes back twice (a reload, the back button), then the second return changes nothing', async () => {
    const payment = await payWith(CARDS.challenge);
    await h.returnFromBank(payment, { simulator_challenge: 'completed' });
    await h.settle();
    await h.returnFromBank(payment, { simulator_challenge: 'failed' });
    await h.settle();
    expect(await get(payment)).toMatchObject({ status: 'captured', authentication: { status: 'authenticated' } });
    expect(eventTypes(payment)).toEqual(['payment.processing', 'payment.action_required', 'payment.captured']);
  });

  it('when the consumer comes back with parameters the processor did not name, then only the named one counts', async () => {
    const payment = await payWith(CARDS.challenge);
    await h.returnFromBank(payment, { redirectResult: 'X', simulator_challenge: 'completed', other: 'Y' });
    await h.settle();
    expect((await get(payment)).status).toBe('captured');
  });

  it('when the consumer never comes back, then the payment fails with authentication_abandoned once its session expires, exactly once', async () => {
    const payment = await payWith(CARDS.challenge);
    await h.advance(29 * 60_000);
    expect((await get(payment)).status).toBe('processing');
    await h.advance(2 * 60_000);
    await h.advance(60_000);
    expect(await get(payment)).toMatchObject({ status: 'failed', failure_reason: 'authentication_abandoned' });
    expect(eventTypes(payment)).toEqual(['payment.processing', 'payment.action_required', 'payment.failed']);
    // Coming back after the expiry changes nothing.
    await h.returnFromBank(payment, { simulator_challenge: 'completed' });
    await h.settle();
    expect((await get(payment)).status).toBe('failed');
  });
});

describe('3-D Secure when the session is already over', () => {
  it('when the card arrives after the session expired and the bank asks for a challenge, then the payment is abandoned in the same commit, its events in order (found by the state-machine property test)', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    h.clock.advance(31 * 60_000);
    await h.submitCard(created.body, CARDS.challenge);
    await h.settle();
    expect(await get(created.body)).toMatchObject({ status: 'failed', failure_reason: 'authentication_abandoned' });
    expect(eventTypes(created.body)).toEqual(['payment.processing', 'payment.action_required', 'payment.failed']);
  });
});

describe('3-D Secure without a challenge', () => {
  it('when the card is frictionless (4000000000003097), then the payment is captured at once, authenticated, with no action required', async () => {
    const payment = await payWith(CARDS.frictionless);
    expect(await get(payment)).toMatchObject({ status: 'captured', authentication: { status: 'authenticated', eci: '05', liability_shift: true } });
    expect(eventTypes(payment)).toEqual(['payment.processing', 'payment.captured']);
    expect((await transactionsOf(payment))[0]).toEqual(['authentication_3ds', 'succeeded', null]);
  });

  it('when any other card is paid under if_required, then authentication.status is not_required and no authentication transaction is listed', async () => {
    const payment = await payWith(CARDS.approved);
    expect(await get(payment)).toMatchObject({
      status: 'captured',
      authentication: { type: '3ds', status: 'not_required', eci: null, liability_shift: false },
    });
    expect((await transactionsOf(payment)).map(([kind]) => kind)).toEqual(['authorization', 'capture']);
  });

  it("when the challenge completes for 4000008400001629, then the authorization is declined with card_declined, the attempt's authentication still recorded", async () => {
    const payment = await payWith(CARDS.challengeThenDeclined);
    await h.returnFromBank(payment, { simulator_challenge: 'completed' });
    await h.settle();
    expect(await get(payment)).toMatchObject({
      status: 'processing',
      last_failed_attempt: { failure_reason: 'card_declined', authentication: { status: 'authenticated' } },
    });
    expect(await transactionsOf(payment)).toEqual([
      ['authentication_3ds', 'succeeded', null],
      ['authorization', 'failed', 'card_declined'],
    ]);
  });
});

describe('the flow decides: three_ds off | if_required | always', () => {
  it('when the flow says always, then even an ordinary card is challenged', async () => {
    await createFlow('challenge_all', 'always');
    await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'challenge_all' });
    const payment = await payWith(CARDS.approved);
    expect((await get(payment)).status).toBe('processing');
    await h.returnFromBank(payment, { simulator_challenge: 'completed' });
    await h.settle();
    expect(await get(payment)).toMatchObject({ status: 'captured', flow: 'challenge_all', authentication: { status: 'authenticated' } });
  });

  it('when the flow says off, then the challenge card is authorized without any authentication', async () => {
    await createFlow('no_3ds', 'off');
    await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'no_3ds' });
    const payment = await payWith(CARDS.challenge);
    const done = await get(payment);
    expect(done).toMatchObject({ status: 'captured' });
    expect(done).not.toHaveProperty('authentication');
  });

  it('when the matrix sends amounts above 250 EUR to a flow that always challenges, then a 300 EUR payment is challenged and a 20 EUR one is not', async () => {
    await createFlow('challenge_above_250', 'always');
    await h.call(MERCHANT, 'PUT', '/flow-matrix', {
      rules: [{ name: 'sca-above-250-eur', when: { currency_code: ['EUR'], amount_gte: 25_001 }, flow: 'challenge_above_250' }],
    });
    const large = await payWith(CARDS.approved, { amount: 30_000 });
    const small = await payWith(CARDS.approved, { amount: 2_000 });
    expect(await get(large)).toMatchObject({ status: 'processing', flow: 'challenge_above_250', flow_decision: { rule: 'sca-above-250-eur' } });
    expect(await get(small)).toMatchObject({ status: 'captured', flow: 'simulator_auto_capture', authentication: { status: 'not_required' } });
  });

  it('when a flow is created without three_ds, then its authorization step says if_required; built-in flows say it too', async () => {
    const created = await h.call(MERCHANT, 'POST', '/flows', {
      name: 'plain',
      capture_mode: 'manual',
      steps: [
        { kind: 'authorization', processor: 'simulator' },
        { kind: 'capture', processor: 'simulator' },
      ],
    });
    expect(created.body.steps[0]).toMatchObject({ kind: 'authorization', three_ds: 'if_required' });
    const builtIn = await h.call(MERCHANT, 'GET', '/flows/simulator_auto_capture');
    expect(builtIn.body.steps.find((s: Json) => s.kind === 'authorization')).toMatchObject({ three_ds: 'if_required' });
  });

  it.each([
    [{ kind: 'capture', processor: 'simulator', three_ds: 'always' }, 1, 'steps[1].three_ds', 'invalid_flow'],
    [{ kind: 'capture', processor: 'simulator', three_ds: 'sometimes' }, 1, 'steps.1.three_ds', 'validation_failed'],
  ])('when a flow step carries a three_ds it may not (%j), then 422 names the field', async (step, _at, field, code) => {
    const answer = await h.call(MERCHANT, 'POST', '/flows', {
      name: 'bad',
      capture_mode: 'automatic',
      steps: [{ kind: 'authorization', processor: 'simulator' }, step],
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code, field });
  });

  // A processor without 3-D Secure is refused under always (flow.test.ts); Adyen and Checkout.com run it.
  it('when three_ds always names an Adyen account, then the flow is accepted: Adyen runs 3-D Secure', async () => {
    const account = await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: 'Adyen',
      credentials: {
        api_key: 'AQE_key_value_1234',
        merchant_account: 'ShopECOM',
        hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
      },
    });
    expect(account.status).toBe(201);
    const answer = await h.call(MERCHANT, 'POST', '/flows', {
      name: 'adyen_always',
      capture_mode: 'automatic',
      steps: [
        { kind: 'authorization', processor: account.body.id, three_ds: 'always' },
        { kind: 'capture', processor: account.body.id },
      ],
    });
    expect(answer.status).toBe(201);
    expect(answer.body.steps[0]).toMatchObject({ three_ds: 'always' });
  });
});

describe('merchant-initiated payments: the 3RI result goes on to the authorization', () => {
  it('when a subsequent payment runs 3RI (TRY_3RI), then the payment shows its authentication and is never asked for a consumer', async () => {
    const initial = await payWith(CARDS.approved, {}, '/payments/unscheduled');
    expect((await get(initial)).status).toBe('captured');
    const answer = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${initial.id}/subsequent`, {
      amount: 1000,
      currency_code: 'EUR',
      reference: 'month-2',
      authentication_preference: 'TRY_3RI',
    });
    expect(answer.status).toBe(200);
    await h.settle();
    const subsequent = await get(answer.body);
    expect(subsequent).toMatchObject({ status: 'captured', authentication: { type: '3ds', status: 'authenticated', eci: '07', liability_shift: false } });
    expect(eventTypes(answer.body)).not.toContain('payment.action_required');
  });
});
