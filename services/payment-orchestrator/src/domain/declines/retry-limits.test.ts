import { declineOf, type Decline } from './decline';
import { DEFAULT_RETRY_LIMITS, retryRefusal, withCardAttempts, type CardAttempt } from './retry-limits';

const soft = (advice: string | null = null): Decline =>
  declineOf({ category: 'insufficient_funds', code: 'insufficient_funds' }, { processor_code: '51', processor_message: null, advice_code: advice });
const hard: Decline = declineOf({ category: 'lost_or_stolen', code: 'card_blocked' }, { processor_code: '43', processor_message: null, advice_code: null });
const at = (iso: string) => new Date(iso);

/** The card's history: each entry a decline (or null for an approval) at the given time. */
function history(...entries: Array<[string, Decline | null]>): CardAttempt[] {
  return entries.reduce<CardAttempt[]>((kept, [when, decline]) => withCardAttempts(kept, [decline], at(when)), []);
}

describe("the schemes' retry limits for merchant-initiated payments", () => {
  it('when the card has no attempt, or its latest was approved, then a charge is no retry and may go', () => {
    expect(retryRefusal(undefined, 'VISA', at('2026-06-01T00:00:00Z'), DEFAULT_RETRY_LIMITS)).toBeNull();
    expect(
      retryRefusal(history(['2026-06-01T00:00:00Z', soft()], ['2026-06-02T00:00:00Z', null]), 'VISA', at('2026-06-03T00:00:00Z'), DEFAULT_RETRY_LIMITS),
    ).toBeNull();
  });

  it("when the card's latest decline was hard, then no retry is allowed, however long ago within 30 days", () => {
    expect(retryRefusal(history(['2026-06-01T00:00:00Z', hard]), 'VISA', at('2026-06-20T00:00:00Z'), DEFAULT_RETRY_LIMITS)).toContain('hard decline');
  });

  it('when a hard decline is older than 30 days, then it is forgotten (and the chain with it)', () => {
    expect(retryRefusal(history(['2026-05-01T00:00:00Z', hard]), 'VISA', at('2026-06-05T00:00:00Z'), DEFAULT_RETRY_LIMITS)).toBeNull();
  });

  it('when a Visa card was declined and retried 15 times in 30 days, then the 16th retry is refused; 14 retries leave one more', () => {
    const declines = (count: number) =>
      history(
        ...Array.from({ length: count }, (_, n): [string, Decline] => [new Date(Date.parse('2026-06-01T00:00:00Z') + n * 3_600_000).toISOString(), soft()]),
      );
    const now = at('2026-06-10T00:00:00Z');
    expect(retryRefusal(declines(15), 'VISA', now, DEFAULT_RETRY_LIMITS)).toBeNull();
    expect(retryRefusal(declines(16), 'VISA', now, DEFAULT_RETRY_LIMITS)).toBe('Visa allows 15 reattempts of a declined card in 30 days, and 15 were made');
  });

  it('when a Mastercard card was retried 10 times in 24 hours, then the next is refused; a day later the 24-hour limit is clear', () => {
    const eleven = history(
      ...Array.from({ length: 11 }, (_, n): [string, Decline] => [new Date(Date.parse('2026-06-01T00:00:00Z') + n * 60_000).toISOString(), soft()]),
    );
    expect(retryRefusal(eleven, 'MASTERCARD', at('2026-06-01T01:00:00Z'), DEFAULT_RETRY_LIMITS)).toContain(
      'Mastercard allows 10 retries of a declined card in 24 hours',
    );
    expect(retryRefusal(eleven, 'MASTERCARD', at('2026-06-02T01:00:00Z'), DEFAULT_RETRY_LIMITS)).toBeNull();
  });

  it('when Mastercard advised MAC 24 (retry after 1 hour), then a retry within the hour is refused and one after it may go', () => {
    const card = history(['2026-06-01T10:00:00Z', soft('24')]);
    expect(retryRefusal(card, 'MASTERCARD', at('2026-06-01T10:30:00Z'), DEFAULT_RETRY_LIMITS)).toBe(
      "Mastercard's advice (MAC 24) allows the next attempt from 2026-06-01T11:00:00.000Z",
    );
    expect(retryRefusal(card, 'MASTERCARD', at('2026-06-01T11:00:00Z'), DEFAULT_RETRY_LIMITS)).toBeNull();
  });

  it("when a payment's own declines (a next processor within it) reach the limit, then they count with the card's history", () => {
    const limits = { ...DEFAULT_RETRY_LIMITS, otherPer30Days: 1 };
    expect(retryRefusal(history(['2026-06-01T00:00:00Z', soft()]), 'AMEX', at('2026-06-02T00:00:00Z'), limits)).toBeNull();
    expect(retryRefusal(history(['2026-06-01T00:00:00Z', soft()]), 'AMEX', at('2026-06-02T00:00:00Z'), limits, [soft()])).toContain('at most 1 retries');
  });

  it('when a card has made more attempts than the credentials keep, then only the last 64 are kept', () => {
    const many = Array.from({ length: 70 }, (): Decline | null => soft());
    expect(withCardAttempts([], many, at('2026-06-01T00:00:00Z'))).toHaveLength(64);
  });
});
