import { CARDS, MERCHANT, recurring, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

let h: Harness;
beforeEach(async () => {
  h = await startOrchestrator();
});
afterEach(async () => {
  await h.stop();
});

describe('the test clock (X-Test-Now) stamps everything of the payment it made', () => {
  it('when a subsequent payment is made with X-Test-Now, then its created_at, its transactions and its events carry the test time (moving on with the real clock), not the real time', async () => {
    const initial = await h.payOneOff(MERCHANT, CARDS.approved, recurring(), '/payments/recurring');
    await h.advance(200);
    const realNow = h.clock.now().toISOString();
    const created = await h.call(
      MERCHANT,
      'POST',
      `/payments/recurring/${initial.id}/subsequent`,
      { amount: 1000, currency_code: 'EUR' },
      { 'x-test-now': '2026-07-01T10:00:00Z' },
    );
    expect(created.body.created_at).toBe('2026-07-01T10:00:00.000Z');
    await h.settle();
    await h.advance(200);

    const payment = (await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body;
    expect(payment.status).toBe('captured');
    const stamps = (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data.map((t: Json) => [t.kind, t.created_at]);
    expect(stamps).toEqual([
      ['authorization', '2026-07-01T10:00:00.000Z'],
      ['capture', '2026-07-01T10:00:00.200Z'],
    ]);
    const events = h.events.filter((e) => e.data.payment_id === payment.id).map((e) => [e.type, (e as unknown as { occurred_at: string }).occurred_at]);
    expect(events).toEqual([
      ['payment.processing', '2026-07-01T10:00:00.000Z'],
      ['payment.captured', '2026-07-01T10:00:00.200Z'],
    ]);
    expect(realNow.startsWith('2026-06-01')).toBe(true);
  });

  it('when a subsequent payment is made without the header, then it is stamped with the real time', async () => {
    const unscheduled = await h.payOneOff(MERCHANT, CARDS.approved, { recurring_frequency: undefined, recurring_expiry: undefined }, '/payments/unscheduled');
    await h.advance(200);
    const next = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${unscheduled.id}/subsequent`, { amount: 900, currency_code: 'EUR' });
    await h.settle();
    const transactions = (await h.call(MERCHANT, 'GET', `/payments/${next.body.id}/transactions`)).body.data;
    expect(transactions[0].created_at).toBe(h.clock.now().toISOString());
    expect(next.body.created_at).toBe(h.clock.now().toISOString());
  });
});
