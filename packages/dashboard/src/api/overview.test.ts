import { overviewOf, periodEnding, shortUrl } from './overview';

describe('the overview figures', () => {
  it('when the period ends today, then it starts thirteen days before (fourteen UTC days)', () => {
    expect(periodEnding(new Date('2026-11-26T23:30:00.000Z'))).toEqual({ from: '2026-11-13', to: '2026-11-26' });
  });

  it('when an endpoint URL labels a chart, then it is its host and path, cut at 32 characters', () => {
    expect(shortUrl('https://shop.example/webhooks/vaultline')).toBe('shop.example/webhooks/vaultline');
    expect(shortUrl('https://hooks.a-rather-long-shop-name.example/vaultline/incoming')).toBe('hooks.a-rather-long-shop-name.e…');
  });

  it('when the reports are shaped for the charts, then money is per currency and day (the most captured currency first), and rates are percentages', () => {
    const row = (currency_code: string, captured: number, refunded = 0, disputed = 0, won_back = 0) => ({
      currency_code,
      authorized: captured,
      captured,
      refunded,
      disputed,
      won_back,
      net: captured - refunded - disputed + won_back,
    });
    const day = (date: string, count: number, amounts: Array<ReturnType<typeof row>>) => ({
      date,
      count,
      succeeded: count,
      failed: 0,
      pending: 0,
      success_rate: count ? 1 : null,
      amounts,
    });
    const overview = overviewOf(
      {
        object: 'payment_report',
        livemode: false,
        from: '2026-11-25',
        to: '2026-11-26',
        totals: { count: 3, succeeded: 2, failed: 1, pending: 0, success_rate: 0.6667, amounts: [row('EUR', 2600, 500, 1000, 1000), row('USD', 7000)] },
        days: [day('2026-11-25', 1, [row('EUR', 2500)]), day('2026-11-26', 2, [row('EUR', 100, 500, 1000, 1000), row('USD', 7000)])],
        by_processor: [{ processor: 'simulator', attempts: 3, succeeded: 2, failed: 1, success_rate: 0.6667 }],
        by_flow: [{ flow: 'simulator_auto_capture', attempts: 3, succeeded: 2, failed: 1, success_rate: null }],
        decline_reasons: [{ reason: 'card_declined', count: 1 }],
      },
      {
        object: 'webhook_delivery_report',
        livemode: false,
        from: '2026-11-25',
        to: '2026-11-26',
        totals: { messages: 4, succeeded: 3, failed: 1, pending: 0, success_rate: 0.75 },
        days: [],
        by_endpoint: [{ endpoint_id: 'e1', url: 'https://shop.example/hooks', messages: 4, succeeded: 3, failed: 1, pending: 0, success_rate: 0.75 }],
      },
    );

    expect(overview).toEqual({
      days: ['2026-11-25', '2026-11-26'],
      money: [
        {
          currency: 'USD',
          totals: { captured: 7000, refunded: 0, disputed: 0, won_back: 0, net: 7000 },
          byDay: { captured: [0, 7000], refunded: [0, 0], disputed: [0, 0], won_back: [0, 0], net: [0, 7000] },
        },
        {
          currency: 'EUR',
          totals: { captured: 2600, refunded: 500, disputed: 1000, won_back: 1000, net: 2100 },
          byDay: { captured: [2500, 100], refunded: [0, 500], disputed: [0, 1000], won_back: [0, 1000], net: [2500, -400] },
        },
      ],
      countByDay: [1, 2],
      byProcessor: [{ label: 'simulator', percent: 66.7 }],
      byFlow: [{ label: 'simulator_auto_capture', percent: 0 }],
      declineReasons: [{ reason: 'card_declined', count: 1 }],
      webhooks: [{ label: 'shop.example/hooks', percent: 75 }],
      payments: 3,
      webhookMessages: 4,
    });
  });
});
