import { CARDS, MERCHANT, eventsOf, oneOff, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

/**
 * Issue 36: a card declined (or challenged and failed) on the hosted page is one attempt, not the end of the
 * payment: it stays processing without a card while its session is open, the merchant hears
 * payment.attempt_failed, and the next card the consumer enters is the next attempt.
 */
describe('another card on the hosted page after a failed one', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startOrchestrator();
  });
  afterAll(() => h.stop());

  const create = async (): Promise<Json> => (await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ return_url: 'https://shop.example/orders/1' }))).body;
  const get = async (payment: Json): Promise<Json> => (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
  const transactions = async (payment: Json): Promise<Array<[string, string, number | undefined]>> =>
    (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data.map((t: Json) => [t.kind, t.status, t.attempt]);
  const attemptEvent = (payment: Json) => h.events.find((e) => e.type === 'payment.attempt_failed' && e.data.payment_id === payment.id);

  it("when the consumer's card is declined, then the payment stays processing without a card, names the failed card and reason, and payment.attempt_failed is published", async () => {
    const payment = await create();
    await h.submitCard(payment, CARDS.declined);
    await h.settle();

    const after = await get(payment);
    expect(after).toMatchObject({
      status: 'processing',
      attempts: 1,
      last_failed_attempt: { number: 1, failure_reason: 'card_declined', masked_account_number: CARDS.declined },
    });
    expect(after.source).toBeUndefined();
    expect(after.failure_reason).toBeUndefined();
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.attempt_failed']);
    expect(attemptEvent(payment)?.data).toMatchObject({
      status: 'processing',
      attempt: { number: 1, failure_reason: 'card_declined', masked_account_number: CARDS.declined },
    });
    expect(await transactions(payment)).toEqual([['authorization', 'failed', 1]]);
  });

  it("when a second card is approved after a declined one, then the payment is captured with it; each attempt's transactions carry its number", async () => {
    const payment = await create();
    await h.submitCard(payment, CARDS.insufficientFunds);
    await h.settle();
    await h.submitCard(payment, CARDS.approved, { attempt: 2 });
    await h.settle();
    await h.advance(200);

    expect(await get(payment)).toMatchObject({
      status: 'captured',
      attempts: 2,
      amount: { requested: 1250, authorized: 1250, captured: 1250 },
      source: { masked_account_number: CARDS.approved },
      last_failed_attempt: { number: 1, failure_reason: 'insufficient_funds' },
    });
    expect(await transactions(payment)).toEqual([
      ['authorization', 'failed', 1],
      ['authorization', 'succeeded', 2],
      ['capture', 'succeeded', 2],
    ]);
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.attempt_failed', 'payment.captured']);
  });

  it('when a completion of the failed attempt arrives again under another event id, then it changes nothing: the payment still waits for attempt 2', async () => {
    const payment = await create();
    await h.submitCard(payment, CARDS.declined);
    await h.settle();
    await h.submitCard(payment, CARDS.approved);
    await h.settle();

    expect(await get(payment)).toMatchObject({ status: 'processing', attempts: 1 });
    expect(await transactions(payment)).toEqual([['authorization', 'failed', 1]]);
  });

  it("when the session expires after a declined card, then the payment fails with the declined card's reason", async () => {
    const payment = await create();
    await h.submitCard(payment, CARDS.declined);
    await h.settle();
    await h.advance(30 * 60_000);

    expect(await get(payment)).toMatchObject({ status: 'failed', failure_reason: 'card_declined', last_failed_attempt: { failure_reason: 'card_declined' } });
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.attempt_failed', 'payment.failed']);
  });

  it("when the consumer leaves the page after a declined card, then the payment fails at once with that card's reason", async () => {
    const payment = await create();
    await h.submitCard(payment, CARDS.declined);
    await h.settle();
    await h.abandon(payment);
    await h.settle();

    expect(await get(payment)).toMatchObject({ status: 'failed', failure_reason: 'card_declined' });
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.attempt_failed', 'payment.failed']);
  });

  it('when the consumer leaves the page before entering any card, then the payment fails with session_abandoned', async () => {
    const payment = await create();
    await h.abandon(payment);
    await h.settle();

    expect(await get(payment)).toMatchObject({ status: 'failed', failure_reason: 'session_abandoned' });
  });

  it('when the session is abandoned while a card is being decided, then that card decides the payment', async () => {
    const payment = await create();
    await h.submitCard(payment, CARDS.approved);
    await h.abandon(payment);
    await h.settle();
    await h.advance(200);

    expect(await get(payment)).toMatchObject({ status: 'captured' });
  });

  it('when the processor errs, then the payment fails at once: another card would meet the same processor', async () => {
    const payment = await create();
    await h.submitCard(payment, CARDS.processorError);
    await h.settle();

    expect(await get(payment)).toMatchObject({ status: 'failed', failure_reason: 'processor_error' });
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.failed']);
  });

  it('when the 3-D Secure challenge fails, then the payment takes another card: the attempt names authentication_failed and its failed authentication', async () => {
    const payment = await create();
    await h.submitCard(payment, CARDS.challenge);
    await h.settle();
    await h.returnFromBank(payment, { simulator_challenge: 'failed' });
    await h.settle();

    const after = await get(payment);
    expect(after).toMatchObject({
      status: 'processing',
      last_failed_attempt: { number: 1, failure_reason: 'authentication_failed', authentication: { status: 'failed' } },
    });
    expect(after.authentication).toBeUndefined();
    expect(after.next_action).toBeUndefined();
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.action_required', 'payment.attempt_failed']);

    await h.submitCard(payment, CARDS.frictionless, { attempt: 2 });
    await h.settle();
    await h.advance(200);
    expect(await get(payment)).toMatchObject({ status: 'captured', attempts: 2, authentication: { status: 'authenticated' } });
    expect(await transactions(payment)).toEqual([
      ['authentication_3ds', 'failed', 1],
      ['authentication_3ds', 'succeeded', 2],
      ['authorization', 'succeeded', 2],
      ['capture', 'succeeded', 2],
    ]);
  });

  it("when a payment is created, then action_requirement carries the hosted page's address beside the session id", async () => {
    const payment = await create();
    expect(payment.action_requirement).toEqual({
      type: 'use_sdk',
      session_id: payment.action_requirement.session_id,
      checkout_url: `http://127.0.0.1:9/checkout/${payment.action_requirement.session_id}`,
    });
  });
});
