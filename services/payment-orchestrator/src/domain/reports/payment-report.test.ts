import type { Payment } from '../payment/payment';
import { outcomeOf } from './payment-report';

const progress = (authorizedBy: string | null): Payment['progress'] => ({
  next_step: 0,
  authorized_by: authorizedBy,
  authorization_reference: null,
  capture: null,
  transactions: 0,
});

describe('what a payment counts as in the report', () => {
  it.each([
    ['failed', null, 'failed'],
    ['failed', 'simulator', 'failed'],
    ['captured', 'simulator', 'succeeded'],
    ['authorized', 'simulator', 'succeeded'],
    ['capturing', 'simulator', 'succeeded'],
    ['canceling', 'simulator', 'succeeded'],
    ['canceled', 'simulator', 'succeeded'],
    ['canceled', null, 'none'],
    ['processing', null, 'pending'],
  ] as const)('when it is %s (authorized by %s), then it counts as %s', (status, authorizedBy, outcome) => {
    expect(outcomeOf({ status, progress: progress(authorizedBy) })).toBe(outcome);
  });
});
