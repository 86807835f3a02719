import { CAPTURE_RETRIES, captureRetryDelayMs } from './capture-retry';

describe('the retries of an ambiguous capture', () => {
  it('when a capture is answered ambiguously, then it is sent again after 1, 2, 4, 8 and 16 s, and then no more (the payment waits for the processor)', () => {
    expect(Array.from({ length: CAPTURE_RETRIES + 2 }, (_, i) => captureRetryDelayMs(i + 1))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, null, null]);
  });
});
