import { CARDS, MERCHANT, OTHER_MERCHANT, oneOff, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

/*
 * Issue #34, finding 7: /reports/payments counted the authorized amounts of the payments created on a day,
 * not the money: captured minus refunded and disputed. It now gives, per UTC day and currency, what moved
 * that day at the processor, whatever day the payment was created on.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
let h: Harness;

beforeEach(async () => {
  // The harness's clock starts on 2026-06-01 at 10:00 UTC.
  h = await startOrchestrator();
  const matrix = await h.call(MERCHANT, 'PUT', '/flow-matrix', {
    default_flow: 'simulator_auto_capture',
    rules: [{ name: 'yen-by-hand', when: { currency_code: ['JPY'] }, flow: 'simulator_manual_capture' }],
  });
  expect(matrix.status).toBe(200);
});
afterEach(async () => {
  await h.stop();
});

const report = async (from = '2026-06-01', to = '2026-06-03'): Promise<Json> => {
  const answer = await h.call(MERCHANT, 'GET', `/reports/payments?from=${from}&to=${to}`);
  expect(answer.status).toBe(200);
  return answer.body;
};
/** Pays a one-off payment and lets its capture settle (the simulator's capture delay is 200 ms). */
const paid = async (masked: string, body: Record<string, unknown>): Promise<Json> => {
  const payment = await h.payOneOff(MERCHANT, masked, body);
  await h.advance(500);
  return (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
};
const amountsOn = (body: Json, date: string) => (body.days as Json[]).find((day) => day.date === date)!.amounts;
const money = (currency_code: string, figures: Partial<Record<'authorized' | 'captured' | 'refunded' | 'disputed' | 'won_back' | 'net', number>>) => ({
  currency_code,
  authorized: 0,
  captured: 0,
  refunded: 0,
  disputed: 0,
  won_back: 0,
  net: 0,
  ...figures,
});

describe('GET /reports/payments: the money per UTC day and currency', () => {
  it('when payments are captured on one day, refunded and disputed on the next and a dispute is won on the third, then each figure is on its own day and net is captured − refunded − disputed + won back', async () => {
    // Day 1: EUR 12.50 and EUR 20.00 captured, EUR 10.00 captured, JPY 5000 authorized and 3000 of it captured by hand, one EUR decline.
    const first = await paid(CARDS.approved, { amount: 1250 });
    const second = await paid(CARDS.approved, { amount: 2000, reference: 'order-2' });
    const third = await paid(CARDS.approved, { amount: 1000, reference: 'order-3' });
    await paid(CARDS.declined, { amount: 700, reference: 'order-4' });
    const yen = await paid(CARDS.approved, { amount: 5000, currency_code: 'JPY', reference: 'order-5' });
    expect([first.status, second.status, third.status, yen.status]).toEqual(['captured', 'captured', 'captured', 'authorized']);
    expect((await h.call(MERCHANT, 'POST', `/payments/${yen.id}/capture`, { amount: 3000, currency_code: 'JPY' })).status).toBe(200);
    await h.advance(500);

    // Day 2: EUR 2.50 of the first refunded; the second disputed in full, the third for EUR 6.00.
    await h.advance(DAY_MS);
    expect((await h.call(MERCHANT, 'POST', `/payments/${first.id}/refunds`, { amount: 250 })).status).toBe(201);
    await h.advance(500);
    expect((await h.call(MERCHANT, 'POST', `/payments/${second.id}/test/dispute`, {})).status).toBe(200);
    expect((await h.call(MERCHANT, 'POST', `/payments/${third.id}/test/dispute`, { amount: 600 })).status).toBe(200);

    // Day 3: the dispute of the second is won, the third's lost.
    await h.advance(DAY_MS);
    expect((await h.call(MERCHANT, 'POST', `/payments/${second.id}/test/dispute`, { status: 'won' })).body.status).toBe('won');
    expect((await h.call(MERCHANT, 'POST', `/payments/${third.id}/test/dispute`, { status: 'lost', amount: 600 })).body.status).toBe('lost');

    const body = await report();
    expect(amountsOn(body, '2026-06-01')).toEqual([
      money('EUR', { authorized: 4250, captured: 4250, net: 4250 }),
      money('JPY', { authorized: 5000, captured: 3000, net: 3000 }),
    ]);
    expect(amountsOn(body, '2026-06-02')).toEqual([money('EUR', { refunded: 250, disputed: 2600, net: -2850 })]);
    expect(amountsOn(body, '2026-06-03')).toEqual([money('EUR', { won_back: 2000, net: 2000 })]);
    expect(body.totals.amounts).toEqual([
      money('EUR', { authorized: 4250, captured: 4250, refunded: 250, disputed: 2600, won_back: 2000, net: 3400 }),
      money('JPY', { authorized: 5000, captured: 3000, net: 3000 }),
    ]);
    // The payments' counts stay by the day they were created.
    expect(body.totals).toMatchObject({ count: 5, succeeded: 4, failed: 1 });
  });

  it("when the period starts after the payments were created, then their later refund and dispute are still in it (money is counted when it moves, not by the payment's day)", async () => {
    const payment = await paid(CARDS.approved, { amount: 1250 });
    await h.advance(DAY_MS);
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 1250 })).status).toBe(201);
    await h.advance(500);
    const body = await report('2026-06-02', '2026-06-02');
    expect(body.totals).toMatchObject({ count: 0, amounts: [money('EUR', { refunded: 1250, net: -1250 })] });
    expect(amountsOn(await report('2026-06-01', '2026-06-01'), '2026-06-01')).toEqual([money('EUR', { authorized: 1250, captured: 1250, net: 1250 })]);
  });

  it('when a refund fails, then it moved no money and is not counted', async () => {
    const payment = await paid(CARDS.refundFails, { amount: 1250 });
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 500 })).status).toBe(201);
    await h.advance(500);
    expect((await report()).totals.amounts).toEqual([money('EUR', { authorized: 1250, captured: 1250, net: 1250 })]);
  });

  it("when another merchant reads its report, then it sees none of this merchant's money", async () => {
    await paid(CARDS.approved, oneOff());
    const other = await h.call(OTHER_MERCHANT, 'GET', '/reports/payments?from=2026-06-01&to=2026-06-01');
    expect(other.body.totals).toMatchObject({ count: 0, amounts: [] });
  });
});
