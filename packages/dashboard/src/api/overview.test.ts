import { overviewOf, periodEnding, shortUrl } from './overview';

describe('the overview figures', () => {
  it('when the period ends today, then it starts thirteen days before (fourteen UTC days)', () => {
    expect(periodEnding(new Date('2026-11-26T23:30:00.000Z'))).toEqual({ from: '2026-11-13', to: '2026-11-26' });
  });

  it('when an endpoint URL labels a chart, then it is its host and path, cut at 32 characters', () => {
    expect(shortUrl('https://shop.example/webhooks/vaultline')).toBe('shop.example/webhooks/vaultline');
    expect(shortUrl('https://hooks.a-rather-long-shop-name.example/vaultline/incoming')).toBe('hooks.a-rather-long-shop-name.e…');
  });

  it('when the reports are shaped for the charts, then volumes are per currency and day, and rates are percentages', () => {
    const day = (date: string, count: number, volume: Array<{ currency_code: string; amount: number }>) => ({ date, count, succeeded: count, failed: 0, pending: 0, success_rate: count ? 1 : null, volume });
    const overview = overviewOf(
      {
        object: 'payment_report',
        livemode: false,
        from: '2026-11-25',
        to: '2026-11-26',
        totals: { count: 3, succeeded: 2, failed: 1, pending: 0, success_rate: 0.6667, volume: [] },
        days: [day('2026-11-25', 1, [{ currency_code: 'EUR', amount: 2500 }]), day('2026-11-26', 2, [{ currency_code: 'USD', amount: 700 }, { currency_code: 'EUR', amount: 100 }])],
        by_processor: [{ processor: 'simulator', attempts: 3, succeeded: 2, failed: 1, success_rate: 0.6667 }],
        by_flow: [{ flow: 'simulator_auto_capture', attempts: 3, succeeded: 2, failed: 1, success_rate: null }],
        decline_reasons: [{ reason: 'card_declined', count: 1 }],
      } as never,
      {
        object: 'webhook_delivery_report',
        livemode: false,
        from: '2026-11-25',
        to: '2026-11-26',
        totals: { messages: 4, succeeded: 3, failed: 1, pending: 0, success_rate: 0.75 },
        days: [],
        by_endpoint: [{ endpoint_id: 'e1', url: 'https://shop.example/hooks', messages: 4, succeeded: 3, failed: 1, pending: 0, success_rate: 0.75 }],
      } as never,
    );

    expect(overview).toEqual({
      days: ['2026-11-25', '2026-11-26'],
      volumeByDay: { EUR: [2500, 100], USD: [0, 700] },
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
