import { CARDS, eventsOf, MERCHANT, startWithManualCaptureRule, type Harness, type Json } from './support/orchestrator-harness';

/**
 * Issue 34, finding 6: captures as shipping works. One authorization, captured in parts as the order ships
 * (`final_capture: false` until the last one), each capture a transaction of its own with its event; what is
 * left is released by the final capture or by a cancel; a capture that fails can be asked again while the
 * authorization is valid; refunds take at most what was captured. On the simulator (manual-capture flow).
 */
let h: Harness;
beforeEach(async () => {
  h = await startWithManualCaptureRule();
});
afterEach(async () => {
  await h.stop();
});

const CAPTURE_FAILS_ONCE = '400000******0267';

const authorized = (masked: string = CARDS.approved): Promise<Json> => h.payOneOff(MERCHANT, masked, { reference: 'manual-order-77', amount: 1250 });
const get = async (payment: Json): Promise<Json> => (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
const capture = (payment: Json, body: Record<string, unknown>) => h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, body);
/** Captures and lets the simulator settle it (200 ms). */
async function captured(payment: Json, body: Record<string, unknown>): Promise<Json> {
  const answer = await capture(payment, body);
  expect(answer.status).toBe(200);
  await h.advance(200);
  return get(payment);
}
const transactions = async (payment: Json) =>
  (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data.map((t: Json) => [t.kind, t.status, t.amount]);
const captureEvents = (payment: Json) =>
  h.events
    .filter((e) => e.data?.payment_id === payment.id && ['payment.capturing', 'payment.captured', 'payment.capture_failed'].includes(e.type))
    .map((e) => [
      e.type,
      e.data.status,
      e.data.capture?.sequence,
      e.data.capture?.amount,
      e.data.capture?.final,
      e.data.amount.captured ?? null,
      e.data.amount.capturable,
    ]);

describe('several captures of one authorization', () => {
  it('when an order ships in three parts, then each part is a capture with final_capture false until the last, amount.capturable shrinks, and each capture is a transaction and a payment.captured event', async () => {
    const payment = await authorized();
    expect(payment.amount).toEqual({ requested: 1250, authorized: 1250, capturable: 1250 });

    const first = await capture(payment, { reference: 'shipment-1', amount: 400, currency_code: 'EUR', final_capture: false });
    expect(first.body).toMatchObject({ status: 'capturing', amount: { authorized: 1250, capturable: 850 } });
    await h.advance(200);
    expect(await get(payment)).toMatchObject({ status: 'partially_captured', amount: { authorized: 1250, captured: 400, capturable: 850 } });

    expect(await captured(payment, { reference: 'shipment-2', amount: 500, currency_code: 'EUR', final_capture: false })).toMatchObject({
      status: 'partially_captured',
      amount: { captured: 900, capturable: 350 },
    });
    expect(await captured(payment, { reference: 'shipment-3', amount: 350, currency_code: 'EUR', final_capture: true })).toMatchObject({
      status: 'captured',
      amount: { captured: 1250, capturable: 0 },
    });

    expect(await transactions(payment)).toEqual([
      ['authorization', 'succeeded', 1250],
      ['capture', 'succeeded', 400],
      ['capture', 'succeeded', 500],
      ['capture', 'succeeded', 350],
    ]);
    expect(captureEvents(payment)).toEqual([
      ['payment.capturing', 'capturing', 1, 400, false, null, 850],
      ['payment.captured', 'partially_captured', 1, 400, false, 400, 850],
      ['payment.capturing', 'capturing', 2, 500, false, 400, 350],
      ['payment.captured', 'partially_captured', 2, 500, false, 900, 350],
      ['payment.capturing', 'capturing', 3, 350, true, 900, 0],
      ['payment.captured', 'captured', 3, 350, true, 1250, 0],
    ]);
  });

  it('when the final capture takes less than what is left, then the rest is released: captured with amount.capturable 0, and a further capture answers 409 already_captured', async () => {
    const payment = await authorized();
    await captured(payment, { amount: 500, currency_code: 'EUR', final_capture: false });
    expect(await captured(payment, { amount: 300, currency_code: 'EUR' })).toMatchObject({
      status: 'captured',
      amount: { authorized: 1250, captured: 800, capturable: 0 },
    });
    expect(await capture(payment, { amount: 100, currency_code: 'EUR' })).toMatchObject({ status: 409, body: { code: 'already_captured' } });
  });

  it('when a capture with final_capture false takes all that is left, then it is the final one: the payment is captured', async () => {
    const payment = await authorized();
    expect(await captured(payment, { amount: 1250, currency_code: 'EUR', final_capture: false })).toMatchObject({
      status: 'captured',
      amount: { captured: 1250, capturable: 0 },
    });
  });

  it('when a capture asks for more than amount.capturable, then it answers 422 amount_exceeds_authorized naming amount and the capturable amount', async () => {
    const payment = await authorized();
    await captured(payment, { amount: 1000, currency_code: 'EUR', final_capture: false });
    const answer = await capture(payment, { amount: 251, currency_code: 'EUR' });
    expect(answer).toMatchObject({ status: 422, body: { code: 'amount_exceeds_authorized', field: 'amount' } });
    expect(answer.body.detail).toContain('250');
  });

  it('when a capture is under way, then another answers 409: capture_not_allowed while a non-final one settles, already_captured while the final one does', async () => {
    const payment = await authorized();
    await capture(payment, { amount: 100, currency_code: 'EUR', final_capture: false });
    expect(await capture(payment, { amount: 100, currency_code: 'EUR', final_capture: false })).toMatchObject({
      status: 409,
      body: { code: 'capture_not_allowed' },
    });
    await h.advance(200);
    await capture(payment, { amount: 100, currency_code: 'EUR' });
    expect(await capture(payment, { amount: 100, currency_code: 'EUR' })).toMatchObject({ status: 409, body: { code: 'already_captured' } });
  });

  it('when final_capture is not a boolean, then it answers 422 naming final_capture', async () => {
    const payment = await authorized();
    expect(await capture(payment, { final_capture: 'no' })).toMatchObject({ status: 422, body: { field: 'final_capture' } });
  });
});

describe('a capture that fails', () => {
  it('when the first capture fails (4000 0000 0000 0267), then the payment stays authorized with payment.capture_failed, and the capture asked again succeeds with a key of its own', async () => {
    const payment = await authorized(CAPTURE_FAILS_ONCE);
    await captured(payment, { reference: 'shipment-1' });
    expect(await get(payment)).toMatchObject({ status: 'authorized', amount: { authorized: 1250, capturable: 1250 } });
    expect(captureEvents(payment).at(-1)).toEqual(['payment.capture_failed', 'authorized', 1, 1250, true, null, 1250]);
    expect(h.events.find((e) => e.type === 'payment.capture_failed')!.data.capture).toMatchObject({
      status: 'failed',
      failure_reason: 'capture_failed',
      reference: 'shipment-1',
    });

    expect(await captured(payment, { reference: 'shipment-1-again' })).toMatchObject({ status: 'captured', amount: { captured: 1250, capturable: 0 } });
    expect(await transactions(payment)).toEqual([
      ['authorization', 'succeeded', 1250],
      ['capture', 'failed', 1250],
      ['capture', 'succeeded', 1250],
    ]);
    expect(eventsOf(h, payment.id)).toEqual([
      'payment.processing',
      'payment.authorized',
      'payment.capturing',
      'payment.capture_failed',
      'payment.capturing',
      'payment.captured',
    ]);
  });

  it('when a capture fails after earlier captures settled, then the payment goes back to partially_captured, its captured amount unchanged', async () => {
    const payment = await authorized(CAPTURE_FAILS_ONCE);
    // The first capture of this card fails: capture 1 fails, then 2 settles, and so on.
    await captured(payment, { amount: 200, currency_code: 'EUR', final_capture: false });
    expect(await get(payment)).toMatchObject({ status: 'authorized', amount: { capturable: 1250 } });
    expect(await captured(payment, { amount: 200, currency_code: 'EUR', final_capture: false })).toMatchObject({
      status: 'partially_captured',
      amount: { captured: 200, capturable: 1050 },
    });
  });

  it('when a capture failed, then cancel releases the authorization (it answered 409 before: the hold stayed on the card)', async () => {
    const payment = await authorized(CARDS.captureFails);
    await captured(payment, {});
    const canceled = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`, { reference: 'out of stock' });
    expect(canceled).toMatchObject({ status: 200, body: { status: 'canceled', cancellation_reason: 'requested_by_merchant' } });
    expect((await transactions(payment)).at(-1)).toEqual(['void', 'succeeded', 1250]);
  });
});

describe('what is left after partial captures', () => {
  it('when a partially captured payment is canceled, then what is left is released (a void of the rest) and the payment ends captured with what was captured', async () => {
    const payment = await authorized();
    await captured(payment, { amount: 500, currency_code: 'EUR', final_capture: false });
    const answer = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`, {});
    expect(answer).toMatchObject({ status: 200, body: { status: 'captured', amount: { authorized: 1250, captured: 500, capturable: 0 } } });
    expect((await transactions(payment)).at(-1)).toEqual(['void', 'succeeded', 750]);
    expect(eventsOf(h, payment.id).at(-1)).toBe('payment.captured');
  });

  it("when a partially captured payment is left past the authorization's validity, then the rest lapses: a void of it, and the payment ends captured", async () => {
    const payment = await authorized();
    await captured(payment, { amount: 300, currency_code: 'EUR', final_capture: false });
    await h.advance(7 * 24 * 3_600_000);
    await h.app.afterSale.runDue();
    expect(await get(payment)).toMatchObject({ status: 'captured', amount: { captured: 300, capturable: 0 } });
    expect((await transactions(payment)).at(-1)).toEqual(['void', 'succeeded', 950]);
  });

  it('when a partially captured payment is refunded, then the refund takes at most what was captured (422 amount_exceeds_refundable above it), and the payment can still be captured', async () => {
    const payment = await authorized();
    await captured(payment, { amount: 500, currency_code: 'EUR', final_capture: false });
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 501, currency_code: 'EUR' })).toMatchObject({
      status: 422,
      body: { code: 'amount_exceeds_refundable' },
    });
    const refund = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 200, currency_code: 'EUR' });
    expect(refund.status).toBe(201);
    await h.advance(200);
    expect((await h.call(MERCHANT, 'GET', `/refunds/${refund.body.id}`)).body.status).toBe('succeeded');
    expect(await get(payment)).toMatchObject({ status: 'partially_captured', amount: { captured: 500, refunded: 200, capturable: 750 } });
    expect(await captured(payment, { amount: 750, currency_code: 'EUR' })).toMatchObject({ status: 'captured', amount: { captured: 1250, refunded: 200 } });
  });

  it('when an authorized payment nothing was captured of is refunded, then it answers 409 refund_not_allowed', async () => {
    const payment = await authorized();
    expect(await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 100, currency_code: 'EUR' })).toMatchObject({
      status: 409,
      body: { code: 'refund_not_allowed' },
    });
  });
});
