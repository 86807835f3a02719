import { SETTLEMENT_RECHECK_CAP_MS, settlementRecheckMs } from './settlement-backoff';

describe('asking a processor about a pending capture or refund', () => {
  it('when a question gets no final word, then the next waits twice as long, from the wait the processor gave, up to six hours, and the questions never stop', () => {
    expect([0, 1, 2, 3, 4].map((checks) => settlementRecheckMs(5_000, checks))).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect(settlementRecheckMs(5_000, 13)).toBe(SETTLEMENT_RECHECK_CAP_MS);
    expect(settlementRecheckMs(5_000, 10_000)).toBe(6 * 60 * 60_000);
  });

  it('when the processor says to ask again at once (a settlement delay of 0), then every question is due at once', () => {
    expect(settlementRecheckMs(0, 5)).toBe(0);
  });
});
