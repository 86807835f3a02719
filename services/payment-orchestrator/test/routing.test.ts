import { seededRandom } from '@vaultline/core';
import { CARDS, MERCHANT, OTHER_MERCHANT, eventsOf, oneOff, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

let h: Harness;

beforeEach(async () => {
  h = await startOrchestrator({ random: seededRandom(35), env: { MIT_RETRIES_VISA_PER_30_DAYS: '2' } });
});
afterEach(() => h.stop());

/** A simulator account whose settings (approval_rate, outage) make it differ from another. */
async function simulatorAccount(name: string, settings: Record<string, unknown> = {}): Promise<string> {
  const created = await h.call(MERCHANT, 'POST', '/processor-accounts', { processor: 'simulator', name, settings });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

async function useFlow(name: string, authorization: Json, captureProcessor: string): Promise<void> {
  const flow = {
    name,
    capture_mode: 'automatic',
    steps: [
      { kind: 'authorization', ...authorization },
      { kind: 'capture', processor: captureProcessor },
    ],
  };
  const created = await h.call(MERCHANT, 'POST', '/flows', flow);
  expect(created).toMatchObject({ status: 201 });
  expect((await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: name, rules: [] })).status).toBe(200);
}

/** An initial unscheduled payment paid (and captured) with this card: its credentials take merchant-initiated charges. */
async function paidInitial(masked: string, scheme = 'VISA'): Promise<Json> {
  const created = await h.call(MERCHANT, 'POST', '/payments/unscheduled', oneOff());
  await h.submitCard(created.body, masked, { scheme });
  await h.settle();
  await h.advance(300);
  const paid = (await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body;
  expect(paid.status).toBe('captured');
  return paid;
}

const transactionsOf = async (payment: Json) => (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data as Json[];

describe('step_up_3ds', () => {
  it('when the issuer soft-declines (card 3184) and the flow says step_up_3ds, then the same payment goes to a challenge on the hosted page and is captured once the consumer completes it', async () => {
    await useFlow('step-up', { processor: 'simulator', on_decline: [{ categories: ['authentication_required'], action: 'step_up_3ds' }] }, 'simulator');
    const waiting = await h.payOneOff(MERCHANT, CARDS.authenticationRequired);
    expect(waiting).toMatchObject({ status: 'processing', next_action: { type: 'consumer_authentication' } });
    expect(eventsOf(h, waiting.id)).toEqual(['payment.processing', 'payment.action_required']);

    await h.returnFromBank(waiting, { simulator_challenge: 'completed' });
    await h.settle();
    await h.advance(300);
    const captured = (await h.call(MERCHANT, 'GET', `/payments/${waiting.id}`)).body;
    expect(captured).toMatchObject({ status: 'captured', authentication: { status: 'authenticated', liability_shift: true } });
    expect((await transactionsOf(captured)).map((t) => [t.kind, t.status, t.decline?.category ?? null])).toEqual([
      ['authorization', 'failed', 'authentication_required'],
      ['authentication_3ds', 'succeeded', null],
      ['authorization', 'succeeded', null],
      ['capture', 'succeeded', null],
    ]);
    expect(captured.routing.attempts).toEqual([
      expect.objectContaining({
        processor: 'simulator',
        result: 'declined',
        decline: expect.objectContaining({ category: 'authentication_required', retryable: true }),
        then: expect.objectContaining({ action: 'step_up_3ds' }),
      }),
      expect.objectContaining({ processor: 'simulator', three_ds: 'step_up', result: 'authorized' }),
    ]);
  });

  it('when the issuer soft-declines and the flow has no on_decline rule for it, then the decline stands: the attempt fails with authentication_required and its decline', async () => {
    const payment = await h.payOneOff(MERCHANT, CARDS.authenticationRequired);
    expect(payment).toMatchObject({
      status: 'processing',
      last_failed_attempt: {
        failure_reason: 'authentication_required',
        decline: { category: 'authentication_required', code: 'authentication_required', retryable: true },
      },
    });
    const failed = h.events.find((e) => e.type === 'payment.attempt_failed' && e.data.payment_id === payment.id);
    expect(failed?.data.attempt.decline).toEqual({
      category: 'authentication_required',
      code: 'authentication_required',
      processor_code: 'authentication_required',
      processor_message: expect.any(String),
      advice_code: null,
      retryable: true,
    });
  });

  it('when a merchant-initiated payment is soft-declined under step_up_3ds, then no consumer can authenticate: it fails with the decline and the routing says why', async () => {
    await useFlow('step-up', { processor: 'simulator', on_decline: [{ categories: ['authentication_required'], action: 'step_up_3ds' }] }, 'simulator');
    const created = await h.call(MERCHANT, 'POST', '/payments/unscheduled', oneOff());
    await h.submitCard(created.body, CARDS.authenticationRequired);
    await h.settle();
    await h.returnFromBank(created.body, { simulator_challenge: 'completed' });
    await h.settle();
    await h.advance(300);
    expect((await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body.status).toBe('captured');

    const answer = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${created.body.id}/subsequent`, { amount: 1000, currency_code: 'EUR' });
    await h.settle();
    const failed = (await h.call(MERCHANT, 'GET', `/payments/${answer.body.id}`)).body;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'authentication_required', decline: { category: 'authentication_required' } });
    expect(failed.routing.attempts).toEqual([
      expect.objectContaining({ result: 'declined', then: { action: 'stopped', reason: expect.stringContaining('no consumer can authenticate') } }),
    ]);
  });
});

describe('next_processor', () => {
  it('when the first simulator account declines (approval_rate 0) a decline the merchant allows, then the payment goes on to the next account and is captured there; both attempts are transactions and the routing says why', async () => {
    const first = await simulatorAccount('sim-a', { approval_rate: 0 });
    const second = await simulatorAccount('sim-b', { approval_rate: 1 });
    await useFlow('cascade', { processors: [first, second], on_decline: [{ categories: ['do_not_honor'], action: 'next_processor' }] }, first);
    const payment = await h.payOneOff(MERCHANT, CARDS.approved);
    await h.advance(300);
    const captured = (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
    expect(captured.status).toBe('captured');
    expect((await transactionsOf(captured)).map((t) => [t.processor, t.kind, t.status, t.decline?.category ?? null])).toEqual([
      [first, 'authorization', 'failed', 'do_not_honor'],
      [second, 'authorization', 'succeeded', null],
      [second, 'capture', 'succeeded', null],
    ]);
    expect(captured.routing).toMatchObject({
      strategy: 'ordered',
      decisions: [{ processors: [first, second], reason: 'step_order' }],
      attempts: [
        {
          processor: first,
          result: 'declined',
          then: { action: 'next_processor', reason: expect.stringContaining('on_decline next_processor for do_not_honor') },
        },
        { processor: second, result: 'authorized', reason: expect.stringContaining('declined (do_not_honor)') },
      ],
    });
    // The stats count the card's first answer only: the retry asked about a card one issuer had refused.
    const stats = (await h.call(MERCHANT, 'GET', '/routing/stats?group_by=processor')).body.data as Json[];
    expect(stats.map((line) => [line.processor, line.attempts, line.declined])).toEqual([[first, 1, 1]]);
  });

  it('when the decline is hard (a stolen card), then it is never retried, whatever the flow says: one attempt, the decline not retryable', async () => {
    const first = await simulatorAccount('sim-a');
    const second = await simulatorAccount('sim-b');
    await useFlow(
      'cascade',
      { processors: [first, second], on_decline: [{ categories: ['do_not_honor', 'processor_unavailable'], action: 'next_processor' }] },
      first,
    );
    const payment = await h.payOneOff(MERCHANT, CARDS.stolen);
    expect(payment).toMatchObject({
      status: 'processing',
      last_failed_attempt: { failure_reason: 'card_blocked', decline: { category: 'lost_or_stolen', retryable: false } },
    });
    expect((await transactionsOf(payment)).map((t) => [t.processor, t.status])).toEqual([[first, 'failed']]);
    expect(payment.routing.attempts).toEqual([
      expect.objectContaining({ processor: first, then: { action: 'stopped', reason: expect.stringContaining('a hard decline is never retried') } }),
    ]);
  });

  it("when a decline's category has no rule, then the decline stands and the next processor is not asked", async () => {
    const first = await simulatorAccount('sim-a');
    const second = await simulatorAccount('sim-b');
    await useFlow('cascade', { processors: [first, second], on_decline: [{ categories: ['do_not_honor'], action: 'next_processor' }] }, first);
    const payment = await h.payOneOff(MERCHANT, CARDS.insufficientFunds);
    expect((await transactionsOf(payment)).map((t) => t.processor)).toEqual([first]);
    expect(payment.routing.attempts[0].then.reason).toContain('no on_decline rule names insufficient_funds');
  });

  it('when an account is in an outage window (the test clock), then it answers nothing and the next account authorizes: a technical error always goes on', async () => {
    const now = h.clock.now().getTime();
    const down = await simulatorAccount('sim-down', { outage: [{ from: new Date(now - 60_000).toISOString(), to: new Date(now + 300_000).toISOString() }] });
    const up = await simulatorAccount('sim-up');
    await useFlow('outage', { processors: [down, up] }, down);
    const payment = await h.payOneOff(MERCHANT, CARDS.approved);
    expect((await transactionsOf(payment)).map((t) => [t.processor, t.status, t.decline?.category ?? null]).slice(0, 2)).toEqual([
      [down, 'error', 'processor_unavailable'],
      [up, 'succeeded', null],
    ]);
    // Once the window is over, the first account answers again.
    await h.advance(400_000);
    const later = await h.payOneOff(MERCHANT, CARDS.approved);
    expect((await transactionsOf(later)).map((t) => [t.processor, t.status])[0]).toEqual([down, 'succeeded']);
  });
});

describe('on_decline and routing are checked when the flow is saved', () => {
  it.each([
    [
      'a hard decline sent on',
      { processors: ['simulator', 'simulator'], on_decline: [{ categories: ['do_not_honor', 'lost_or_stolen'], action: 'next_processor' }] },
      'steps[0].on_decline[0].categories[1]',
    ],
    ['an unknown category', { processor: 'simulator', on_decline: [{ categories: ['bad_luck'], action: 'stop' }] }, 'steps[0].on_decline[0].categories[0]'],
    ['an unknown action', { processor: 'simulator', on_decline: [{ categories: ['do_not_honor'], action: 'retry_forever' }] }, 'steps[0].on_decline[0].action'],
    [
      'a step-up for another category than authentication_required',
      { processor: 'simulator', on_decline: [{ categories: ['insufficient_funds'], action: 'step_up_3ds' }] },
      'steps[0].on_decline[0].categories[0]',
    ],
    [
      'next_processor with one processor',
      { processor: 'simulator', on_decline: [{ categories: ['do_not_honor'], action: 'next_processor' }] },
      'steps[0].on_decline[0].action',
    ],
    [
      'a category in two rules',
      {
        processor: 'simulator',
        on_decline: [
          { categories: ['do_not_honor'], action: 'stop' },
          { categories: ['do_not_honor'], action: 'stop' },
        ],
      },
      'steps[0].on_decline[1].categories[0]',
    ],
    [
      'a step-up with three_ds off',
      { processor: 'simulator', three_ds: 'off', on_decline: [{ categories: ['authentication_required'], action: 'step_up_3ds' }] },
      'steps[0].on_decline[0].action',
    ],
    ['weights without weighted', { processors: ['simulator', 'simulator'], weights: [1, 1] }, 'steps[0].weights'],
    ['weighted without a weight per processor', { processors: ['simulator', 'simulator'], strategy: 'weighted', weights: [1] }, 'steps[0].weights'],
    ['an unknown strategy', { processors: ['simulator', 'simulator'], strategy: 'cheapest' }, 'steps[0].strategy'],
  ])('when an authorization step has %s, then the flow answers 422 invalid_flow naming %s', async (_what, authorization, field) => {
    const answer = await h.call(MERCHANT, 'POST', '/flows', {
      name: 'bad',
      capture_mode: 'automatic',
      steps: [
        { kind: 'authorization', ...authorization },
        { kind: 'capture', processor: 'simulator' },
      ],
    });
    expect(answer).toMatchObject({ status: 422, body: { code: 'invalid_flow', field } });
  });

  it('when another step names on_decline, then it answers 422 naming it: only the authorization step routes', async () => {
    const answer = await h.call(MERCHANT, 'POST', '/flows', {
      name: 'bad',
      capture_mode: 'automatic',
      steps: [
        { kind: 'authorization', processor: 'simulator' },
        { kind: 'capture', processor: 'simulator', on_decline: [{ categories: ['do_not_honor'], action: 'stop' }] },
      ],
    });
    expect(answer).toMatchObject({ status: 422, body: { code: 'invalid_flow', field: 'steps[1].on_decline' } });
  });

  it('when a flow is saved with processors, a strategy, weights and rules, then GET shows them as saved (processor and fallback beside them)', async () => {
    const a = await simulatorAccount('sim-a');
    const b = await simulatorAccount('sim-b');
    const on_decline = [
      { categories: ['do_not_honor', 'processor_unavailable'], action: 'next_processor' },
      { categories: ['authentication_required'], action: 'step_up_3ds' },
    ];
    await useFlow('split', { processors: [a, b], strategy: 'weighted', weights: [70, 30], on_decline }, a);
    expect((await h.call(MERCHANT, 'GET', '/flows/split')).body.steps[0]).toEqual({
      kind: 'authorization',
      processor: a,
      fallback: [b],
      processors: [a, b],
      on_failure: 'stop',
      three_ds: 'if_required',
      strategy: 'weighted',
      weights: [70, 30],
      on_decline,
    });
  });
});

describe('strategies', () => {
  it("when the strategy is weighted, then payments are split by the weights (seeded draws) and each payment's routing names its draw", async () => {
    const a = await simulatorAccount('sim-a');
    const b = await simulatorAccount('sim-b');
    await useFlow('split', { processors: [a, b], strategy: 'weighted', weights: [80, 20] }, a);
    const firsts: string[] = [];
    for (let n = 0; n < 40; n++) {
      const payment = await h.payOneOff(MERCHANT, CARDS.approved, { reference: `w-${n}` });
      firsts.push(payment.routing.attempts[0].processor);
      expect(payment.routing.decisions[0]).toMatchObject({ reason: 'weighted', detail: expect.stringContaining('drawn by weight') });
    }
    const toA = firsts.filter((id) => id === a).length;
    expect(toA).toBeGreaterThan(24);
    expect(toA).toBeLessThan(40);
  });

  it('when the strategy is success_rate, then once outcomes are counted the better account takes the payments (but for exploration), GET /routing/stats shows the counts the decisions used, and explain says the choice and its reason', async () => {
    const poor = await simulatorAccount('sim-poor', { approval_rate: 0.3 });
    const good = await simulatorAccount('sim-good', { approval_rate: 0.95 });
    await useFlow('learn', { processors: [poor, good], strategy: 'success_rate' }, poor);
    const firsts: string[] = [];
    for (let n = 0; n < 80; n++) {
      const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: `sr-${n}` }));
      await h.submitCard(created.body, CARDS.approved);
      await h.settle();
      firsts.push((await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body.routing.attempts[0].processor);
    }
    // The first 20 each (the minimum before a rate is compared) decide nothing; after that the good account leads.
    expect(firsts.slice(-30).filter((id) => id === good).length).toBeGreaterThanOrEqual(25);

    const stats = await h.call(MERCHANT, 'GET', '/routing/stats?group_by=processor');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ object: 'routing_stats', livemode: false, window_seconds: 3600, group_by: 'processor' });
    const row = (id: string) => stats.body.data.find((line: Json) => line.processor === id);
    expect(row(good).attempts + row(poor).attempts).toBe(80);
    expect(row(good).authorization_rate).toBeGreaterThan(row(poor).authorization_rate);
    expect(row(good).recent_authorization_rate).toBeGreaterThan(row(poor).recent_authorization_rate);
    expect(row(good).decisions.best_rate).toBeGreaterThan(0);

    const bySegment = await h.call(MERCHANT, 'GET', `/routing/stats?processor=${good}&scheme=visa&currency_code=EUR`);
    expect(bySegment.body.data).toEqual([
      expect.objectContaining({ processor: good, segment: { scheme: 'VISA', country: 'unknown', currency_code: 'EUR', amount_band: '10_to_100' } }),
    ]);
    expect((await h.call(OTHER_MERCHANT, 'GET', '/routing/stats')).body.data).toEqual([]);
    expect((await h.call({ ...MERCHANT, mode: 'live' }, 'GET', '/routing/stats')).body.data).toEqual([]);

    const explained = await h.call(MERCHANT, 'POST', '/flow-matrix/explain', { amount: 1250, currency_code: 'EUR', scheme: 'VISA' });
    expect(explained.body.authorization).toMatchObject({
      strategy: 'success_rate',
      processors: [good, poor],
      reason: 'best_rate',
      detail: expect.stringContaining(`${good}: the highest recent authorization rate`),
    });
    expect(explained.body.authorization.rates).toHaveLength(2);
  });
});

describe("merchant-initiated retries and the schemes' limits", () => {
  it("when a merchant-initiated charge is declined with Mastercard's MAC 03 (do not try again), then the next charge of that card answers 422 retry_limit_reached and nothing is sent", async () => {
    const created = { body: await paidInitial(CARDS.mitDoNotTryAgain, 'MASTERCARD') };
    const declined = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${created.body.id}/subsequent`, { amount: 1000, currency_code: 'EUR' });
    await h.settle();
    const failed = (await h.call(MERCHANT, 'GET', `/payments/${declined.body.id}`)).body;
    expect(failed).toMatchObject({
      status: 'failed',
      failure_reason: 'card_declined',
      decline: { category: 'do_not_honor', advice_code: '03', retryable: false },
    });
    const failedEvent = h.events.find((e) => e.type === 'payment.failed' && e.data.payment_id === failed.id);
    expect(failedEvent?.data.decline).toMatchObject({ advice_code: '03', retryable: false });

    const again = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${created.body.id}/subsequent`, { amount: 1000, currency_code: 'EUR' });
    expect(again).toMatchObject({ status: 422, body: { code: 'retry_limit_reached', detail: expect.stringContaining('hard decline') } });
  });

  it("when a card's merchant-initiated charges keep being declined (insufficient funds), then Visa's limit (configured to 2 retries here) answers 422 retry_limit_reached past it", async () => {
    const created = { body: await paidInitial(CARDS.mitInsufficientFunds) };
    const charge = () => h.call(MERCHANT, 'POST', `/payments/unscheduled/${created.body.id}/subsequent`, { amount: 1000, currency_code: 'EUR' });
    for (let n = 1; n <= 3; n++) {
      const answer = await charge();
      expect(answer.status).toBe(200);
      await h.settle();
      expect((await h.call(MERCHANT, 'GET', `/payments/${answer.body.id}`)).body).toMatchObject({
        status: 'failed',
        decline: { category: 'insufficient_funds', retryable: true },
      });
    }
    expect(await charge()).toMatchObject({ status: 422, body: { code: 'retry_limit_reached', detail: expect.stringContaining('Visa allows 2 reattempts') } });
  });
});
