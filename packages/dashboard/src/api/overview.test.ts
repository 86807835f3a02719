import { summarize } from './overview';
import type { Payment, Transaction, WebhookDelivery, WebhookEndpoint } from './types';

const since = new Date('2026-11-20T00:00:00.000Z');
const now = new Date('2026-11-22T15:00:00.000Z');

function payment(id: string, fields: Partial<Record<string, unknown>>): Payment {
  return { id, livemode: false, amount: { requested: 1000 }, currency_code: 'EUR', created_at: '2026-11-21T10:00:00.000Z', status: 'captured', use_case: 'ONE_OFF', flow: 'auto', ...fields } as unknown as Payment;
}

describe('the overview figures', () => {
  it('when payments, transactions and deliveries are counted, then the days, volumes, success rates and decline reasons add up', () => {
    const payments = [
      payment('p1', {}),
      payment('p2', { amount: { requested: 500 }, created_at: '2026-11-22T09:00:00.000Z' }),
      payment('p3', { status: 'failed', failure_reason: 'card_declined', flow: 'manual' }),
      payment('p4', { status: 'failed', failure_reason: 'card_declined' }),
      payment('p5', { status: 'processing', currency_code: 'USD', amount: { requested: 700 } }),
      // An earlier payment: amount as a number, no flow.
      payment('p6', { amount: 300, flow: undefined, status: 'failed', failure_reason: 'insufficient_funds' }),
    ];
    const transactions = [
      { processor: 'simulator', kind: 'authorization', status: 'succeeded' },
      { processor: 'simulator', kind: 'authorization', status: 'failed' },
      { processor: 'simulator', kind: 'capture', status: 'succeeded' },
      { processor: 'adyen', kind: 'authorization', status: 'succeeded' },
    ] as unknown as Transaction[];
    const endpoint = { id: 'e1', url: 'https://shop.example/hooks' } as WebhookEndpoint;
    const deliveries = [{ status: 'succeeded' }, { status: 'failed' }, { status: 'pending' }, { status: 'succeeded' }] as WebhookDelivery[];

    const overview = summarize(payments, transactions, [{ endpoint, deliveries }], since, now);

    expect(overview.days).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(overview.countByDay).toEqual([0, 5, 1]);
    expect(overview.volumeByDay).toEqual({ EUR: [0, 3300, 500], USD: [0, 700, 0] });
    expect(overview.byProcessor).toEqual([
      { label: 'simulator', succeeded: 1, total: 2 },
      { label: 'adyen', succeeded: 1, total: 1 },
    ]);
    expect(overview.byFlow).toEqual([
      { label: 'auto', succeeded: 2, total: 3 },
      { label: 'manual', succeeded: 0, total: 1 },
      { label: 'earlier payments', succeeded: 0, total: 1 },
    ]);
    expect(overview.declineReasons).toEqual([
      { reason: 'card_declined', count: 2 },
      { reason: 'insufficient_funds', count: 1 },
    ]);
    expect(overview.webhooks).toEqual([{ label: 'https://shop.example/hooks', succeeded: 2, total: 3 }]);
  });
});
