import { seededRandom } from '@vaultline/core';
import { chooseOrder, type ChoiceInput } from './choose-processor';
import { emptyDecisions, type RoutingStatsRow } from './routing-stats';
import { amountBandOf, segmentOf, type Segment } from './segment';

const segment: Segment = { scheme: 'VISA', country: 'unknown', currency_code: 'EUR', amount_band: '10_to_100' };
const settings = { windowMs: 3_600_000, halfLifeMs: 600_000, explorationShare: 0.1, minAttempts: 20 };
const row = (processor: string, attempts: number, approved: number, at: Partial<Segment> = {}): RoutingStatsRow => ({
  bucket_start: '2026-06-01T10:00:00.000Z',
  processor,
  segment: { ...segment, ...at },
  attempts,
  approved,
  declined: attempts - approved,
  errors: 0,
  decisions: emptyDecisions(),
});
const input = (overrides: Partial<ChoiceInput>): ChoiceInput => ({
  strategy: 'success_rate',
  candidates: ['a', 'b'],
  segment,
  rows: [],
  settings,
  random: () => 0.5,
  now: new Date('2026-06-01T10:02:30.000Z'),
  ...overrides,
});

describe('segments', () => {
  it.each([
    [999, 'EUR', 'under_10'],
    [1000, 'EUR', '10_to_100'],
    [10_000, 'EUR', '100_to_1000'],
    [100_000, 'EUR', '1000_and_over'],
    [1500, 'JPY', '1000_and_over'],
    [15, 'JPY', '10_to_100'],
    [9999, 'KWD', 'under_10'],
  ] as const)('when the amount is %s %s, then its band is %s (major units of its currency)', (amount, currency, band) => {
    expect(amountBandOf(amount, currency)).toBe(band);
  });

  it('when a payment has no card yet, then its scheme and country are unknown; a reported country is upper case', () => {
    expect(segmentOf({ card_scheme: null, currency_code: 'EUR', amount: { requested: 1250 } })).toEqual({ ...segment, scheme: 'unknown' });
    expect(segmentOf({ card_scheme: 'visa', card_country: 'nl', currency_code: 'EUR', amount: { requested: 1250 } })).toEqual({ ...segment, country: 'NL' });
  });
});

describe('choosing the first processor', () => {
  it("when the strategy is ordered, then the step's order is the order, every time", () => {
    expect(chooseOrder(input({ strategy: 'ordered' }))).toMatchObject({ order: ['a', 'b'], reason: 'step_order' });
  });

  it('when only one processor can take the payment, then it is the choice whatever the strategy', () => {
    expect(chooseOrder(input({ candidates: ['b'] }))).toMatchObject({
      order: ['b'],
      reason: 'step_order',
      detail: 'b: the only processor of the step that can take the payment',
    });
  });

  it('when the strategy is weighted, then draws split payments by the weights, and the rest follow heaviest first', () => {
    const random = seededRandom(7);
    const firsts = Array.from(
      { length: 1000 },
      () => chooseOrder(input({ strategy: 'weighted', candidates: ['a', 'b', 'c'], weights: [60, 30, 10], random })).order,
    );
    const share = (id: string) => firsts.filter((order) => order[0] === id).length / 1000;
    expect(share('a')).toBeCloseTo(0.6, 1);
    expect(share('b')).toBeCloseTo(0.3, 1);
    expect(firsts.find((order) => order[0] === 'c')).toEqual(['c', 'a', 'b']);
  });

  it("when every weight left is 0, then the step's order decides", () => {
    expect(chooseOrder(input({ strategy: 'weighted', weights: [0, 0] }))).toMatchObject({ order: ['a', 'b'], reason: 'step_order' });
  });

  it("when no outcome was counted in the window, then success_rate keeps the step's order and says so", () => {
    expect(chooseOrder(input({}))).toMatchObject({
      order: ['a', 'b'],
      reason: 'no_data',
      detail: expect.stringContaining('no authorization outcomes in the last 60 min'),
    });
  });

  it("when both processors have enough outcomes in the payment's own segment, then the higher rate there goes first", () => {
    const choice = chooseOrder(input({ rows: [row('a', 100, 80), row('b', 100, 92)] }));
    expect(choice).toMatchObject({ order: ['b', 'a'], reason: 'best_rate', level: 'segment' });
    expect(choice.rates).toEqual([
      expect.objectContaining({ processor: 'a', attempts: 100, rate: 0.8 }),
      expect.objectContaining({ processor: 'b', attempts: 100, rate: 0.92 }),
    ]);
    expect(choice.detail).toBe(
      'b: the highest recent authorization rate for VISA cards issued in unknown, EUR, amount 10_to_100, the last 60 min, recent outcomes weighing more (a 80 % of 100, b 92 % of 100)',
    );
  });

  it("when a processor was the better one an hour ago but is the worse one now, then recent outcomes decide (a bucket's weight halves every half-life)", () => {
    const at = (processor: string, minutesAgo: number, attempts: number, approved: number): RoutingStatsRow => ({
      ...row(processor, attempts, approved),
      bucket_start: new Date(Date.parse('2026-06-01T10:00:00.000Z') - minutesAgo * 60_000).toISOString(),
    });
    // Over the whole window a is better (150 of 200 against 120 of 200); over the last minutes b is.
    const rows = [at('a', 50, 100, 95), at('a', 0, 100, 55), at('b', 50, 100, 40), at('b', 0, 100, 80)];
    const choice = chooseOrder(input({ rows, now: new Date('2026-06-01T10:02:30.000Z') }));
    expect(choice.order[0]).toBe('b');
    expect(choice.rates).toEqual([
      expect.objectContaining({ processor: 'a', attempts: 200, approved: 150 }),
      expect.objectContaining({ processor: 'b', attempts: 200, approved: 120 }),
    ]);
    expect(choice.rates![1]!.rate).toBeGreaterThan(choice.rates![0]!.rate!);
  });

  it('when the better processor stopped answering (an outage), then the other takes the payments at once; a few minutes after it answers again, it gets them back', () => {
    const bucket = (processor: string, start: string, attempts: number, approved: number, errors: number): RoutingStatsRow => ({
      ...row(processor, attempts, approved),
      bucket_start: start,
      declined: attempts - approved - errors,
      errors,
    });
    // b approved 92 % all along; a steady 80 %. In the 10:00 bucket b stopped answering for part of it.
    const before = [
      bucket('a', '2026-06-01T09:55:00.000Z', 100, 80, 0),
      bucket('b', '2026-06-01T09:55:00.000Z', 100, 92, 0),
      bucket('a', '2026-06-01T10:00:00.000Z', 100, 80, 0),
    ];
    const during = chooseOrder(input({ rows: [...before, bucket('b', '2026-06-01T10:00:00.000Z', 60, 18, 40)], now: new Date('2026-06-01T10:04:00.000Z') }));
    expect(during.order[0]).toBe('a');
    expect(during.rates!.find((rate) => rate.processor === 'b')).toMatchObject({ errors: 40 });
    // Ten minutes later b answered every attempt of the last bucket (exploration), approving as before.
    const after = chooseOrder(
      input({
        rows: [
          ...before,
          bucket('b', '2026-06-01T10:00:00.000Z', 60, 18, 40),
          bucket('a', '2026-06-01T10:10:00.000Z', 100, 80, 0),
          bucket('b', '2026-06-01T10:10:00.000Z', 5, 5, 0),
        ],
        now: new Date('2026-06-01T10:14:00.000Z'),
      }),
    );
    expect(after.order[0]).toBe('b');
  });

  it('when a processor has too few outcomes in the segment, then the segment widens to where both have enough (here: any amount)', () => {
    const rows = [row('a', 30, 27), row('b', 10, 2), row('b', 40, 20, { amount_band: '100_to_1000' })];
    expect(chooseOrder(input({ rows }))).toMatchObject({ level: 'any_amount', order: ['a', 'b'] });
  });

  it('when a processor has many outcomes in the segment but all of them old, then they weigh as few and the segment widens to where recent ones are', () => {
    const hourOld = { ...row('b', 50, 45), bucket_start: '2026-06-01T09:05:00.000Z' };
    const rows = [row('a', 30, 27), hourOld, row('b', 40, 20, { amount_band: '100_to_1000' })];
    expect(chooseOrder(input({ rows }))).toMatchObject({ level: 'any_amount' });
    expect(chooseOrder(input({ rows: [row('a', 30, 27), row('b', 50, 45)] }))).toMatchObject({ level: 'segment' });
  });

  it("when another currency's outcomes are all there is, then they count only at the widest level", () => {
    const rows = [row('a', 5, 5, { currency_code: 'USD' }), row('b', 5, 0, { currency_code: 'USD' })];
    expect(chooseOrder(input({ rows }))).toMatchObject({ level: 'all', order: ['a', 'b'], reason: 'best_rate' });
  });

  it('when the draw falls in the exploration share, then another processor than the best goes first, and the best second', () => {
    const draws = [0.05, 0.0];
    const choice = chooseOrder(input({ rows: [row('a', 100, 80), row('b', 100, 92)], random: () => draws.shift() ?? 0.9 }));
    expect(choice).toMatchObject({ order: ['a', 'b'], reason: 'exploration', detail: expect.stringContaining('the best was b') });
  });

  it('when a decision is only explained, then there is no draw: the best, never exploration', () => {
    const random = jest.fn(() => 0);
    expect(chooseOrder(input({ rows: [row('a', 100, 80), row('b', 100, 92)], random, explainOnly: true }))).toMatchObject({
      order: ['b', 'a'],
      reason: 'best_rate',
    });
    expect(random).not.toHaveBeenCalled();
  });

  it('when the same seed decides the same inputs twice, then the decisions are the same', () => {
    const decide = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 50 }, () => chooseOrder(input({ rows: [row('a', 100, 80), row('b', 100, 92)], random })).order[0]).join('');
    };
    expect(decide(11)).toBe(decide(11));
  });
});
