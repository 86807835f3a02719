import { CARDS, eventsOf, MERCHANT, OTHER_MERCHANT, oneOff, recurring, startOrchestrator, type Harness } from './support/orchestrator-harness';

/**
 * A payment request retried after its gateway died with it in flight: the gateway's Idempotency-Key claim
 * lapsed, so the retry reaches the orchestrator a second time (found by the crash-recovery scenario: a
 * second payment with the same reference, a capture answered already_captured).
 */
let h: Harness;
beforeEach(async () => {
  h = await startOrchestrator();
  const matrix = await h.call(MERCHANT, 'PUT', '/flow-matrix', {
    default_flow: 'simulator_auto_capture',
    rules: [{ name: 'manual', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
  });
  expect(matrix.status).toBe(200);
});
afterEach(async () => {
  await h.stop();
});

const key = (value: string) => ({ 'idempotency-key': value });

async function paymentCount(): Promise<number> {
  return (await h.call(MERCHANT, 'GET', '/payments?limit=100')).body.data.length;
}

describe('a payment request that reaches the orchestrator again with its Idempotency-Key', () => {
  it('when a creation is sent again with the same key, then the answer is the payment the first made and no second payment exists', async () => {
    const first = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: 'order-7' }), key('create-7'));
    const again = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: 'order-7' }), key('create-7'));
    await h.settle();

    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.id).toBe(first.body.id);
    expect(await paymentCount()).toBe(1);
    expect(eventsOf(h, first.body.id)).toEqual(['payment.processing']);
  });

  it('when the same key comes with another route or no key is given, then each request makes its own payment', async () => {
    await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff(), key('shared'));
    await h.call(MERCHANT, 'POST', '/payments/recurring', recurring(), key('shared'));
    await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());

    expect(await paymentCount()).toBe(4);
  });

  it('when a subsequent payment is sent again with the same key, then the answer is the subsequent payment the first made', async () => {
    const initial = await h.payOneOff(MERCHANT, CARDS.approved, recurring(), '/payments/recurring');
    await h.advance(200); // the simulator settles the initial payment's capture
    const send = () =>
      h.call(
        MERCHANT,
        'POST',
        `/payments/recurring/${initial.id}/subsequent`,
        { amount: 1000, currency_code: 'EUR' },
        { ...key('month-2'), 'x-test-now': '2026-07-01T10:00:00Z' },
      );
    const first = await send();
    const again = await send();

    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.id).toBe(first.body.id);
    expect(await paymentCount()).toBe(2);
  });

  it('when a capture that happened is sent again with the same key, then the answer is the payment (200), not already_captured; without the key a second capture is still refused', async () => {
    const payment = await h.payOneOff(MERCHANT, CARDS.approved, { reference: 'manual-9' });
    expect(payment.status).toBe('authorized');

    const first = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'shipment-1' }, key('capture-9'));
    const again = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'shipment-1' }, key('capture-9'));
    const unkeyed = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { reference: 'shipment-1' });
    await h.settle();

    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toMatchObject({ id: payment.id, status: 'capturing' });
    expect({ status: unkeyed.status, code: unkeyed.body.code }).toEqual({ status: 409, code: 'already_captured' });
    expect(eventsOf(h, payment.id).filter((type) => type === 'payment.capturing')).toHaveLength(1);
  });

  it('when an earlier-interface payment is sent again with the same key, then the answer is the payment the first made and no second payment exists', async () => {
    const guest = { amount: 2500, currency_code: 'EUR', confirm: true, payment_method_types: ['card'] };
    const first = await h.call(MERCHANT, 'POST', '/payments', guest, key('earlier-1'));
    const again = await h.call(MERCHANT, 'POST', '/payments', guest, key('earlier-1'));

    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    expect(await paymentCount()).toBe(1);
  });
});

describe("the scope and lifetime of a payment request's Idempotency-Key", () => {
  const DAY = 24 * 60 * 60 * 1000;

  it("when merchants A and B create payments with the same key, then each gets its own payment, B's is not refused as a duplicate, and A's repeat still answers A's payment", async () => {
    const a = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: 'a-1' }), key('inv-2026-0001'));
    const b = await h.call(OTHER_MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: 'b-1' }), key('inv-2026-0001'));
    const aAgain = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: 'a-1' }), key('inv-2026-0001'));
    const bAgain = await h.call(OTHER_MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: 'b-1' }), key('inv-2026-0001'));

    expect([a.status, b.status, b.body.code]).toEqual([200, 200, undefined]);
    expect(b.body).toMatchObject({ reference: 'b-1' });
    expect(b.body.id).not.toBe(a.body.id);
    expect([aAgain.body.id, bAgain.body.id]).toEqual([a.body.id, b.body.id]);
  });

  it("when the key's record is older than IDEMPOTENCY_KEY_TTL (24 h), then a repeat is a new request with a payment of its own; within it, a repeat answers the first payment", async () => {
    const first = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff(), key('daily-1'));
    h.clock.advance(DAY - 1_000);
    expect((await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff(), key('daily-1'))).body.id).toBe(first.body.id);
    h.clock.advance(2_000);
    const after = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff(), key('daily-1'));

    expect(after.status).toBe(200);
    expect(after.body.id).not.toBe(first.body.id);
    expect((await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff(), key('daily-1'))).body.id).toBe(after.body.id);
    expect(await paymentCount()).toBe(2);
  });

  it('when expired records are pruned, then they are deleted and the records still within IDEMPOTENCY_KEY_TTL stay', async () => {
    await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff(), key('old-1'));
    await h.call(OTHER_MERCHANT, 'POST', '/payments/one-off', oneOff(), key('old-2'));
    h.clock.advance(DAY / 2);
    const fresh = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff(), key('fresh-1'));
    h.clock.advance(DAY / 2 + 1_000);

    expect(await h.app.pruneExpiredPaymentRequests()).toBe(2);
    const left = await h.store.collection('payment_requests').listAcrossMerchants({}, { limit: 10 });
    expect(left.items.map((record) => (record as unknown as { payment_id: string }).payment_id)).toEqual([fresh.body.id]);
  });
});
