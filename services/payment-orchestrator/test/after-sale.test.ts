import {
  CARDS,
  LIVE_MERCHANT,
  MERCHANT,
  OTHER_MERCHANT,
  eventsOf,
  oneOff,
  startOrchestrator,
  startWithManualCaptureRule,
  type Harness,
  type Json,
} from './support/orchestrator-harness';

/** 4000000000005126: captured normally, every refund of it fails. */
const REFUND_FAILS = '400000******5126';
const SEVEN_DAYS_MS = 604_800_000;

let h: Harness;

beforeEach(async () => {
  h = await startWithManualCaptureRule();
});

afterEach(async () => {
  await h.stop();
});

const authorizedPayment = (): Promise<Json> => h.payOneOff(MERCHANT, CARDS.approved, { reference: 'manual-42' });
const capturedPayment = async (amount = 1250, masked: string = CARDS.approved): Promise<Json> => {
  await h.payOneOff(MERCHANT, masked, { amount, reference: 'order-1' });
  await h.advance(200);
  const payment = (await h.call(MERCHANT, 'GET', `/payments/${h.events.at(-1)!.data.payment_id}`)).body;
  expect(payment.status).toBe('captured');
  return payment;
};
const refundEvents = (paymentId: string) =>
  h.events.filter((e) => e.type.startsWith('refund.') && e.data.payment_id === paymentId).map((e) => [e.type, e.data.status]);

describe('cancel an authorization', () => {
  it('when an authorized manual-capture payment is canceled, then it is canceled by the merchant, the void is a transaction and payment.canceled is published', async () => {
    const payment = await authorizedPayment();
    const canceled = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`, { reference: 'order-cancel-1' });
    expect(canceled).toMatchObject({
      status: 200,
      body: { id: payment.id, status: 'canceled', cancellation_reason: 'requested_by_merchant', amount: { requested: 1250, authorized: 1250 } },
    });
    const transactions = (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data;
    expect(transactions.map((t: Json) => [t.kind, t.status])).toEqual([
      ['authorization', 'succeeded'],
      ['void', 'succeeded'],
    ]);
    await h.settle();
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.authorized', 'payment.canceled']);
    expect(h.events.find((e) => e.type === 'payment.canceled')!.data).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_merchant' });
  });

  it('when a canceled payment is captured, then capture answers 409 capture_not_allowed', async () => {
    const payment = await authorizedPayment();
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`);
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {})).toMatchObject({ status: 409, body: { code: 'capture_not_allowed' } });
  });

  it('when a consumer-present payment is canceled before a card was entered, then it is canceled and a card submitted afterwards changes nothing', async () => {
    const created = (await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff())).body;
    expect(await h.call(MERCHANT, 'POST', `/payments/${created.id}/cancel`)).toMatchObject({
      status: 200,
      body: { status: 'canceled', cancellation_reason: 'requested_by_merchant' },
    });
    await h.submitCard(created);
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body).toMatchObject({ status: 'canceled' });
    expect(eventsOf(h, created.id)).toEqual(['payment.processing', 'payment.canceled']);
  });

  it.each([
    ['captured', async () => capturedPayment()],
    ['processing with a card (being authorized)', async () => (await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff())).body],
  ])('when the payment is %s, then cancel answers 409 cancel_not_allowed', async (_state, make) => {
    const payment = await make();
    if (payment.status === 'processing') {
      await h.submitCard(payment);
      await h.settle();
    }
    const answer = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`);
    // A payment just given its card may already be captured by the time the cancel arrives: either way it cannot be canceled.
    expect(answer).toMatchObject({ status: 409, body: { code: 'cancel_not_allowed' } });
  });

  it('when a canceled payment is canceled again, then 409 cancel_not_allowed; with the same Idempotency-Key, the canceled payment again', async () => {
    const payment = await authorizedPayment();
    const key = { 'idempotency-key': 'cancel-once' };
    const first = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`, {}, key);
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`, {}, key)).toEqual({ ...first, headers: expect.anything() });
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`)).toMatchObject({ status: 409, body: { code: 'cancel_not_allowed' } });
  });

  it('when another merchant cancels the payment, then 404 payment_not_found; an unknown field is refused', async () => {
    const payment = await authorizedPayment();
    expect(await h.call(OTHER_MERCHANT, 'POST', `/payments/${payment.id}/cancel`)).toMatchObject({ status: 404, body: { code: 'payment_not_found' } });
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`, { amount: 1 })).toMatchObject({ status: 422 });
  });
});

describe('expiring authorizations', () => {
  it('when an authorization is left uncaptured for the validity, then it is voided and the payment canceled with authorization_expired, once', async () => {
    const payment = await authorizedPayment();
    await h.advance(SEVEN_DAYS_MS - 1_000);
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.status).toBe('authorized');
    await h.advance(1_000);
    // Two workers at once (two instances): the move is a compare-and-set, so the payment is voided once.
    await Promise.all([h.app.afterSale.runDue(), h.app.afterSale.runDue()]);
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body).toMatchObject({ status: 'canceled', cancellation_reason: 'authorization_expired' });
    const voids = (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data.filter((t: Json) => t.kind === 'void');
    expect(voids).toHaveLength(1);
    expect(eventsOf(h, payment.id).filter((t) => t === 'payment.canceled')).toHaveLength(1);
  });

  it('when the validity is set shorter (AUTHORIZATION_VALIDITY_SECONDS), then the authorization expires after it', async () => {
    await h.stop();
    h = await startOrchestrator({ env: { AUTHORIZATION_VALIDITY_SECONDS: '60' } });
    await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'simulator_manual_capture', rules: [] });
    const payment = await h.payOneOff(MERCHANT, CARDS.approved);
    await h.advance(60_000);
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body).toMatchObject({ status: 'canceled', cancellation_reason: 'authorization_expired' });
  });

  it('when a captured payment passes the validity, then nothing happens to it', async () => {
    const payment = await capturedPayment();
    await h.advance(SEVEN_DAYS_MS + 1_000);
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.status).toBe('captured');
  });
});

describe('refunds', () => {
  it("when part of a captured payment is refunded, then 201 with a pending refund; it succeeds after the simulator's delay, and the payment shows amount.refunded and stays captured", async () => {
    const payment = await capturedPayment();
    const created = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, {
      amount: 500,
      currency_code: 'EUR',
      reference: 'rma-1',
      reason: 'requested_by_customer',
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        object: 'refund',
        payment_id: payment.id,
        amount: 500,
        currency_code: 'EUR',
        status: 'pending',
        failure_reason: null,
        reason: 'requested_by_customer',
        reference: 'rma-1',
        livemode: false,
      },
    });
    expect(Object.keys(created.body).sort()).toEqual([
      'amount',
      'created_at',
      'currency_code',
      'failure_reason',
      'id',
      'livemode',
      'object',
      'payment_id',
      'reason',
      'reference',
      'status',
    ]);
    await h.advance(200);
    expect((await h.call(MERCHANT, 'GET', `/refunds/${created.body.id}`)).body).toMatchObject({ status: 'succeeded' });
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body).toMatchObject({ status: 'captured', amount: { captured: 1250, refunded: 500 } });
    expect(refundEvents(payment.id)).toEqual([
      ['refund.created', 'pending'],
      ['refund.succeeded', 'succeeded'],
    ]);
  });

  it('when no amount is given, then the refund takes the rest of the refundable amount; one cent more than refundable answers 422 amount_exceeds_refundable', async () => {
    const payment = await capturedPayment();
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 250 })).status).toBe(201);
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 1001 })).toMatchObject({
      status: 422,
      body: { code: 'amount_exceeds_refundable', field: 'amount' },
    });
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, {})).toMatchObject({ status: 201, body: { amount: 1000 } });
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 1 })).toMatchObject({
      status: 422,
      body: { code: 'amount_exceeds_refundable' },
    });
  });

  it('when the payment is not captured, then 409 refund_not_allowed; another currency answers 422 currency_mismatch', async () => {
    const authorized = await authorizedPayment();
    expect(await h.call(MERCHANT, 'POST', `/payments/${authorized.id}/refunds`, {})).toMatchObject({ status: 409, body: { code: 'refund_not_allowed' } });
    const captured = await capturedPayment();
    expect(await h.call(MERCHANT, 'POST', `/payments/${captured.id}/refunds`, { amount: 100, currency_code: 'USD' })).toMatchObject({
      status: 422,
      body: { code: 'currency_mismatch', field: 'currency_code' },
    });
    expect(await h.call(MERCHANT, 'POST', `/payments/${captured.id}/refunds`, { reason: 'changed_my_mind' })).toMatchObject({
      status: 422,
      body: { field: 'reason' },
    });
  });

  it('when 10 refunds of 200 arrive at once on a payment of 1,000, then exactly 5 are created and the others answer amount_exceeds_refundable', async () => {
    const payment = await capturedPayment(1_000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 200 })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 422 && a.body.code === 'amount_exceeds_refundable')).toHaveLength(5);
    await h.advance(200);
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.amount).toMatchObject({ captured: 1_000, refunded: 1_000 });
  });

  it('when the card is 4000000000005126, then the payment is captured but its refund fails with refund_failed and the amount is refundable again', async () => {
    const payment = await capturedPayment(1250, REFUND_FAILS);
    const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, {})).body;
    await h.advance(200);
    expect((await h.call(MERCHANT, 'GET', `/refunds/${refund.id}`)).body).toMatchObject({ status: 'failed', failure_reason: 'refund_failed' });
    expect(refundEvents(payment.id)).toEqual([
      ['refund.created', 'pending'],
      ['refund.failed', 'failed'],
    ]);
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.amount).toMatchObject({ refunded: 0 });
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 1250 })).status).toBe(201);
  });

  it('when a refund request is repeated with the same Idempotency-Key, then the first refund is answered again and nothing more is refunded', async () => {
    const payment = await capturedPayment();
    const key = { 'idempotency-key': 'refund-once' };
    const first = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 100 }, key);
    const again = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 100 }, key);
    expect(again.body.id).toBe(first.body.id);
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}/refunds`)).body.data).toHaveLength(1);
  });

  it('when refunds are listed, then per payment and across payments newest first, with cursor pages and the status and payment_id filters; a bad filter answers 422', async () => {
    const first = await capturedPayment(1_000);
    const second = await capturedPayment(1_000);
    const ids: string[] = [];
    for (const [payment, amount] of [
      [first, 100],
      [first, 200],
      [second, 300],
    ] as const)
      ids.push((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount })).body.id);
    expect((await h.call(MERCHANT, 'GET', `/payments/${first.id}/refunds`)).body.data.map((r: Json) => r.amount)).toEqual([200, 100]);
    const page1 = (await h.call(MERCHANT, 'GET', '/refunds?limit=2')).body;
    expect([page1.data.map((r: Json) => r.id), page1.has_more]).toEqual([[ids[2], ids[1]], true]);
    const page2 = (await h.call(MERCHANT, 'GET', `/refunds?limit=2&starting_after=${page1.next_cursor}`)).body;
    expect([page2.data.map((r: Json) => r.id), page2.has_more]).toEqual([[ids[0]], false]);
    expect((await h.call(MERCHANT, 'GET', `/refunds?payment_id=${second.id}`)).body.data.map((r: Json) => r.id)).toEqual([ids[2]]);
    expect((await h.call(MERCHANT, 'GET', '/refunds?status=succeeded')).body.data).toEqual([]);
    await h.advance(200);
    expect((await h.call(MERCHANT, 'GET', `/refunds?status=succeeded&payment_id=${first.id}`)).body.data).toHaveLength(2);
    expect(await h.call(MERCHANT, 'GET', '/refunds?status=done')).toMatchObject({ status: 422, body: { field: 'status' } });
    expect(await h.call(MERCHANT, 'GET', '/refunds?payment_id=nope')).toMatchObject({ status: 422, body: { field: 'payment_id' } });
  });

  it('when another merchant or a key of the other mode asks for a refund, then 404 refund_not_found', async () => {
    const payment = await capturedPayment();
    const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, {})).body;
    expect(await h.call(OTHER_MERCHANT, 'GET', `/refunds/${refund.id}`)).toMatchObject({ status: 404, body: { code: 'refund_not_found' } });
    expect(await h.call({ merchantId: MERCHANT.merchantId, mode: 'live' }, 'GET', `/refunds/${refund.id}`)).toMatchObject({
      status: 404,
      body: { code: 'refund_not_found' },
    });
    expect((await h.call(LIVE_MERCHANT, 'GET', '/refunds')).body.data).toEqual([]);
  });

  it('when a key of the other mode refunds or cancels the payment, then 404 payment_not_found (test and live are two worlds)', async () => {
    const payment = await capturedPayment();
    const live = { merchantId: MERCHANT.merchantId, mode: 'live' as const };
    expect(await h.call(live, 'POST', `/payments/${payment.id}/refunds`, {})).toMatchObject({ status: 404, body: { code: 'payment_not_found' } });
    expect(await h.call(live, 'POST', `/payments/${payment.id}/cancel`)).toMatchObject({ status: 404, body: { code: 'payment_not_found' } });
    expect(await h.call(live, 'GET', `/payments/${payment.id}/refunds`)).toMatchObject({ status: 404, body: { code: 'payment_not_found' } });
  });
});

describe('payment search', () => {
  it("when payments of the earlier interface are searched by customer_id and by their use case, then only that customer's are listed", async () => {
    const customer = (await h.call(MERCHANT, 'POST', '/customers', { name: 'Ada Lovelace', email: 'ada@example.com' })).body;
    const earlier = (body: Record<string, unknown>) =>
      h.call(MERCHANT, 'POST', '/payments', { amount: 1250, currency_code: 'EUR', confirm: true, payment_method_types: ['card'], ...body });
    // Storing a card for later is still a guest payment in the earlier interface's words (rule 2); a mandate's first payment is first_payment.
    const stored = (await earlier({ customer_id: customer.id, store_payment_method_for: { use_case: 'cof_payments' } })).body;
    const other = (await h.call(MERCHANT, 'POST', '/customers', { name: 'Grace Hopper', email: 'grace@example.com' })).body;
    const mandate = (await earlier({ customer_id: other.id, store_payment_method_for: { use_case: 'recurring_payments', mandate_reference: 'mandate-1' } }))
      .body;
    expect([stored.use_case, mandate.use_case]).toEqual(['guest_payment', 'first_payment']);
    await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    const ids = async (query: string) => (await h.call(MERCHANT, 'GET', `/payments?${query}`)).body.data.map((p: Json) => p.id);
    expect(await ids(`customer_id=${customer.id}`)).toEqual([stored.id]);
    expect(await ids('use_case=first_payment')).toEqual([mandate.id]);
    expect(await ids(`use_case=first_payment&customer_id=${customer.id}`)).toEqual([]);
    expect(await ids(`use_case=first_payment&customer_id=${other.id}`)).toEqual([mandate.id]);
    expect(await ids(`use_case=guest_payment&customer_id=${customer.id}`)).toEqual([stored.id]);
  });

  it('when GET /payments is filtered by status, reference, use_case and creation time, then the filters combine; a bad value answers 422 naming it', async () => {
    const captured = await capturedPayment();
    const authorized = await authorizedPayment();
    await h.advance(60_000);
    const later = (await h.call(MERCHANT, 'POST', '/payments/unscheduled', oneOff({ reference: 'later-1' }))).body;
    const ids = async (query: string) => (await h.call(MERCHANT, 'GET', `/payments?${query}`)).body.data.map((p: Json) => p.id);
    expect(await ids('status=captured')).toEqual([captured.id]);
    expect(await ids('status=authorized&reference=manual-42')).toEqual([authorized.id]);
    expect(await ids('status=captured&reference=manual-42')).toEqual([]);
    expect(await ids('use_case=UNSCHEDULED')).toEqual([later.id]);
    expect(await ids('created_gte=2026-06-01T10:00:30Z')).toEqual([later.id]);
    expect(await ids('created_lte=2026-06-01T12:00:29%2B02:00')).toEqual([authorized.id, captured.id]);
    for (const [query, field] of [
      ['status=paid', 'status'],
      ['use_case=one_off', 'use_case'],
      ['created_gte=yesterday', 'created_gte'],
      ['created_lte=2026-06-01', 'created_lte'],
    ]) {
      expect(await h.call(MERCHANT, 'GET', `/payments?${query}`)).toMatchObject({ status: 422, body: { field } });
    }
  });
});
