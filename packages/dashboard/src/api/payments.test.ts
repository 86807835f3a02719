import { attemptsOf, authenticationOf, isSettling, refundPendingAmount, shownStatus } from './payments';
import type { Payment } from './types';

const captured = (amount: Record<string, number>, extra: Record<string, unknown> = {}) =>
  ({
    id: 'p1',
    livemode: false,
    amount: { requested: 4200, authorized: 4200, captured: 4200, ...amount },
    created_at: '2026-11-26T10:00:00.000Z',
    currency_code: 'EUR',
    reference: 'r',
    status: 'captured',
    use_case: 'ONE_OFF',
    ...extra,
  }) as unknown as Payment;

describe('a payment as the dashboard shows it', () => {
  it('when a captured payment is refunded in full, in part or not at all, then its badge says refunded, partially refunded or captured', () => {
    expect(shownStatus(captured({ refunded: 4200 }))).toBe('refunded');
    expect(shownStatus(captured({ refunded: 1000 }))).toBe('partially_refunded');
    expect(shownStatus(captured({ refunded: 0 }))).toBe('captured');
    expect(shownStatus(captured({}))).toBe('captured');
    expect(shownStatus({ ...captured({}), status: 'failed' } as Payment)).toBe('failed');
  });

  it('when a refund is pending or a capture or void is unconfirmed, then the payment is still settling (the page follows it)', () => {
    expect(
      refundPendingAmount([
        { status: 'pending', amount: 500 },
        { status: 'succeeded', amount: 300 },
        { status: 'pending', amount: 200 },
      ]),
    ).toBe(700);
    expect(isSettling(captured({}), 700)).toBe(true);
    expect(isSettling(captured({}), 0)).toBe(false);
    expect(isSettling({ ...captured({}), status: 'capturing' } as Payment, 0)).toBe(true);
    expect(isSettling({ ...captured({}), status: 'canceling' } as Payment, 0)).toBe(true);
  });

  it('when a payment ran 3-D Secure and took a second card, then both read in words', () => {
    const paid = captured(
      {},
      {
        authentication: { type: '3ds', version: '2.2.0', status: 'authenticated', eci: '05', liability_shift: true },
        attempts: 2,
        last_failed_attempt: { number: 1, failure_reason: 'card_declined', masked_account_number: '400000******0002', failed_at: '2026-11-26T10:00:00.000Z' },
      },
    );
    expect(authenticationOf(paid)).toBe('authenticated · ECI 05 · liability shift · 3DS 2.2.0');
    expect(attemptsOf(paid)).toBe('2 cards; card 1 (400000******0002) card declined');
    expect(authenticationOf(captured({}))).toBeNull();
    expect(attemptsOf(captured({}, { attempts: 1 }))).toBe('1 card');
  });
});
