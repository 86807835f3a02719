import { declineText, namesOf, processorRatesOf } from './routing';

describe('routing as the dashboard shows it', () => {
  it("when a processor is an account, then it is shown by the account's name; the built-in simulator by its id", () => {
    const nameOf = namesOf([{ id: '019a-acc', name: 'Adyen EU' }]);
    expect([nameOf('019a-acc'), nameOf('simulator')]).toEqual(['Adyen EU', 'simulator']);
  });

  it("when a decline is shown, then it reads its category, our code, the processor's code, the advice and whether it is retried", () => {
    expect(
      declineText({ category: 'do_not_honor', code: 'card_declined', processor_code: '2', processor_message: 'Refused', advice_code: '03', retryable: false }),
    ).toBe('do not honor (card_declined, 2 at the processor, advice 03, never retried)');
    expect(
      declineText({
        category: 'insufficient_funds',
        code: 'insufficient_funds',
        processor_code: 'insufficient_funds',
        processor_message: null,
        advice_code: null,
        retryable: true,
      }),
    ).toBe('insufficient funds (insufficient_funds, retryable)');
  });

  it('when the stats are grouped by processor, then the highest recent rate comes first, both rates in percent with one decimal, a processor without attempts last', () => {
    const line = (processor: string, attempts: number, approved: number, recent = attempts === 0 ? null : approved / attempts) => ({
      processor,
      attempts,
      approved,
      declined: attempts - approved,
      errors: 0,
      authorization_rate: attempts === 0 ? null : approved / attempts,
      recent_authorization_rate: recent,
      decisions: { step_order: 0, weighted: 0, best_rate: 0, exploration: 0, no_data: 0 },
    });
    const stats = {
      object: 'routing_stats' as const,
      livemode: false,
      window_seconds: 3600,
      since: 'x',
      until: 'y',
      group_by: 'processor' as const,
      data: [line('a', 100, 80, 0.9312), line('b', 3, 3, 0.75), line('c', 0, 0)],
    };
    expect(processorRatesOf(stats, namesOf([{ id: 'a', name: 'Account A' }])).map((rate) => [rate.label, rate.recentPercent, rate.percent])).toEqual([
      ['Account A', 93.1, 80],
      ['b', 75, 100],
      ['c', null, null],
    ]);
  });
});
