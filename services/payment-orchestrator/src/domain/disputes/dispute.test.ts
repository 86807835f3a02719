import { applyDisputeSignal, disputeReasonOf, type Dispute, type DisputeSignal } from './dispute';

const signal = (overrides: Partial<DisputeSignal> = {}): DisputeSignal => ({
  processor_reference: 'DSP1',
  payment_reference: 'pay-1',
  status: 'needs_response',
  stage: 1,
  amount: 1250,
  currency_code: 'EUR',
  reason: 'fraudulent',
  event: 'NOTIFICATION_OF_CHARGEBACK',
  ...overrides,
});
const context = (dedupeKey: string, at = '2026-06-02T10:00:00.000Z') => ({ id: 'd1', merchantId: 'm1', mode: 'test' as const, paymentId: 'pay-1', processor: 'acc-1', dedupeKey, at: new Date(at) });

function stored(first: DisputeSignal, key = 'k1'): Dispute {
  return { ...applyDisputeSignal(null, first, context(key))!.dispute, version: 1 };
}

describe('a dispute moved by processor signals', () => {
  it('when the first signal arrives, then the dispute is created in its status with dispute.created', () => {
    const move = applyDisputeSignal(null, signal(), context('k1'))!;
    expect([move.dispute.status, move.dispute.stage, move.dispute.applied, move.changes]).toEqual(['needs_response', 1, ['k1'], ['dispute.created']]);
  });

  it('when the first signal already says won or lost, then the dispute is created and closed in one move', () => {
    expect(applyDisputeSignal(null, signal({ status: 'won', stage: 3 }), context('k1'))!.changes).toEqual(['dispute.created', 'dispute.closed']);
  });

  it('when the same notification is applied again, then nothing moves (null)', () => {
    expect(applyDisputeSignal(stored(signal()), signal(), context('k1'))).toBeNull();
  });

  it('when a later stage arrives, then open statuses publish dispute.updated and decisions dispute.closed, updated_at moving', () => {
    const open = stored(signal());
    const review = applyDisputeSignal(open, signal({ status: 'under_review', stage: 2 }), context('k2', '2026-06-03T10:00:00.000Z'))!;
    expect([review.dispute.status, review.changes, review.dispute.updated_at, review.dispute.created_at]).toEqual(['under_review', ['dispute.updated'], '2026-06-03T10:00:00.000Z', '2026-06-02T10:00:00.000Z']);
    const lost = applyDisputeSignal({ ...review.dispute, version: 2 }, signal({ status: 'lost', stage: 3 }), context('k3'))!;
    expect([lost.dispute.status, lost.changes]).toEqual(['lost', ['dispute.closed']]);
  });

  it('when a signal of an earlier stage, or an open status of the same stage after a decision, arrives late, then the status stays and the signal is remembered', () => {
    const won = stored(signal({ status: 'won', stage: 3 }));
    const late = applyDisputeSignal(won, signal({ status: 'needs_response', stage: 1 }), context('k2'))!;
    expect([late.dispute.status, late.changes, late.dispute.applied]).toEqual(['won', [], ['k1', 'k2']]);
    const reviewed = stored(signal({ status: 'under_review', stage: 2 }));
    expect(applyDisputeSignal(reviewed, signal({ status: 'needs_response', stage: 2 }), context('k2'))!.changes).toEqual([]);
  });

  it('when a decided dispute meets a later stage (second chargeback, arbitration), then it is reopened or decided again', () => {
    const won = stored(signal({ status: 'won', stage: 3 }));
    const second = applyDisputeSignal(won, signal({ status: 'lost', stage: 4 }), context('k2'))!;
    expect([second.dispute.status, second.changes]).toEqual(['lost', ['dispute.closed']]);
    const arbitration = applyDisputeSignal({ ...second.dispute, version: 2 }, signal({ status: 'under_review', stage: 4 }), context('k3'))!;
    expect(arbitration.changes).toEqual([]);
  });
});

describe('dispute reasons in the merchant\'s words', () => {
  it.each([
    ['Fraud', 'fraudulent'],
    ['No Cardholder Authorisation', 'fraudulent'],
    ['Merchandise/Services Not Received', 'product_not_received'],
    ['Duplicate Processing', 'duplicate'],
    ['Cancelled Recurring Transaction', 'subscription_canceled'],
    ['Not as Described or Defective Merchandise', 'product_unacceptable'],
    ['Credit Not Processed', 'credit_not_processed'],
    ['Incorrect Amount', 'incorrect_amount'],
    ['Something else', 'general'],
    [null, 'general'],
  ])('when the processor says %p, then the reason is %p', (text, reason) => {
    expect(disputeReasonOf(text)).toBe(reason);
  });
});
