import { IllegalPaymentMove } from './payment-errors';
import type { Payment, PaymentStatus } from './payment';
import { TRANSITIONS, canMove, movePayment } from './payment-status';

const STATUSES: PaymentStatus[] = ['processing', 'authorized', 'capturing', 'partially_captured', 'captured', 'failed', 'canceling', 'canceled'];
const LEGAL: Array<[PaymentStatus, PaymentStatus]> = [
  ['processing', 'authorized'],
  ['processing', 'captured'],
  ['processing', 'failed'],
  ['authorized', 'capturing'],
  ['capturing', 'captured'],
  // Several captures: a non-final one settled; a capture that failed leaves the authorization capturable.
  ['capturing', 'partially_captured'],
  ['capturing', 'authorized'],
  ['partially_captured', 'capturing'],
  // The rest released after partial captures: at once, or confirmed later by notification (or refused).
  ['partially_captured', 'captured'],
  ['partially_captured', 'canceling'],
  ['canceling', 'captured'],
  ['canceling', 'partially_captured'],
  ['failed', 'captured'],
  // Cancel before a card, cancel of an authorization (void confirmed at once, or later by notification).
  ['processing', 'canceled'],
  ['authorized', 'canceled'],
  ['authorized', 'canceling'],
  ['canceling', 'canceled'],
  // The processor refused the void: the authorization stands.
  ['canceling', 'authorized'],
];

const payment = (status: PaymentStatus) => ({ status, updated_at: 'before' }) as Payment;

describe('the transition table', () => {
  it.each(LEGAL)('when a payment is %s, then it may move to %s', (from, to) => {
    expect(canMove(from, to)).toBe(true);
    expect(movePayment(payment(from), to, {}, new Date('2026-01-01T00:00:00Z'))).toMatchObject({ status: to, updated_at: '2026-01-01T00:00:00.000Z' });
  });

  const illegal = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as [PaymentStatus, PaymentStatus])).filter(
    ([from, to]) => !LEGAL.some(([f, t]) => f === from && t === to),
  );
  it.each(illegal)('when a payment is %s, then it cannot move to %s', (from, to) => {
    expect(canMove(from, to)).toBe(false);
    expect(() => movePayment(payment(from), to, {}, new Date())).toThrow(IllegalPaymentMove);
  });

  it('when a manual capture fails, then the payment is not failed: capturing moves back to authorized or partially_captured, never to failed', () => {
    expect(canMove('capturing', 'failed')).toBe(false);
    expect(TRANSITIONS.capturing).toEqual(expect.arrayContaining(['authorized', 'partially_captured']));
  });

  it('when the table is read, then captured and canceled are final and failed moves only to captured (a capture that succeeded after a reported failure; a captured payment is refunded, never canceled)', () => {
    expect(TRANSITIONS.captured).toEqual([]);
    expect(TRANSITIONS.failed).toEqual(['captured']);
    expect(TRANSITIONS.canceled).toEqual([]);
  });
});
