import { applyDisputeSignal, assertActionAllowed, disputeAfterAction, disputeReasonOf, holdsFunds, type Dispute, type DisputeSignal } from './dispute';

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
const context = (dedupeKey: string, at = '2026-06-02T10:00:00.000Z') => ({
  id: 'd1',
  merchantId: 'm1',
  mode: 'test' as const,
  paymentId: 'pay-1',
  processor: 'acc-1',
  dedupeKey,
  at: new Date(at),
});

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
    expect([review.dispute.status, review.changes, review.dispute.updated_at, review.dispute.created_at]).toEqual([
      'under_review',
      ['dispute.updated'],
      '2026-06-03T10:00:00.000Z',
      '2026-06-02T10:00:00.000Z',
    ]);
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

describe('what a dispute holds of its payment', () => {
  it.each([
    ['needs_response', false, true],
    ['under_review', false, true],
    ['lost', false, true],
    ['won', false, false],
    ['needs_response', true, false],
    ['lost', true, false],
  ] as const)("when a dispute is %s (inquiry: %p), then it holds the payment's money: %p", (status, inquiry, holds) => {
    expect(holdsFunds({ status, inquiry })).toBe(holds);
  });

  it('when an inquiry becomes a chargeback at a later stage in the same status, then it is a chargeback and dispute.updated says so; a late inquiry notice does not undo it', () => {
    const inquiry = stored(signal({ inquiry: true }));
    expect(inquiry.inquiry).toBe(true);
    const escalated = applyDisputeSignal(inquiry, signal({ stage: 2 }), context('k2'))!;
    expect([escalated.dispute.inquiry, escalated.dispute.status, escalated.changes]).toEqual([false, 'needs_response', ['dispute.updated']]);
    const late = applyDisputeSignal({ ...escalated.dispute, version: 2 }, signal({ inquiry: true, stage: 1 }), context('k3'))!;
    expect([late.dispute.inquiry, late.changes]).toEqual([false, []]);
  });

  it('when a later notification names the deadline for evidence, then the dispute keeps it; one without a deadline leaves it as it was', () => {
    const opened = stored(signal());
    const dated = applyDisputeSignal(opened, signal({ stage: 2, evidence_due_by: '2026-06-20T00:00:00.000Z' }), context('k2'))!;
    expect(dated.dispute.evidence_due_by).toBe('2026-06-20T00:00:00.000Z');
    const next = applyDisputeSignal({ ...dated.dispute, version: 2 }, signal({ status: 'under_review', stage: 2 }), context('k3'))!;
    expect(next.dispute.evidence_due_by).toBe('2026-06-20T00:00:00.000Z');
  });
});

describe('a merchant answering a dispute', () => {
  const now = new Date('2026-06-05T10:00:00.000Z');
  const open = (overrides: Partial<Dispute> = {}): Dispute => ({ ...stored(signal({ evidence_due_by: '2026-06-10T00:00:00.000Z' })), ...overrides });

  it('when a dispute needing a response is accepted, then it is lost with dispute.updated and dispute.closed', () => {
    const move = disputeAfterAction(open(), { kind: 'accept' }, now);
    expect([move.dispute.status, move.changes, move.dispute.updated_at]).toEqual(['lost', ['dispute.updated', 'dispute.closed'], now.toISOString()]);
  });

  it('when evidence is submitted, then the dispute is under review since then with dispute.updated; evidence only staged moves nothing', () => {
    const submitted = disputeAfterAction(open(), { kind: 'evidence', submit: true }, now);
    expect([submitted.dispute.status, submitted.dispute.evidence_submitted_at, submitted.changes]).toEqual([
      'under_review',
      now.toISOString(),
      ['dispute.updated'],
    ]);
    expect(disputeAfterAction(open(), { kind: 'evidence', submit: false }, now).changes).toEqual([]);
  });

  it.each([
    ['won', 'accept', 'dispute_closed'],
    ['lost', 'evidence', 'dispute_closed'],
    ['under_review', 'accept', 'dispute_under_review'],
    ['under_review', 'evidence', 'dispute_under_review'],
  ] as const)('when a dispute that is %s is asked to %s, then 409 %s', (status, kind, code) => {
    const action = kind === 'accept' ? ({ kind } as const) : ({ kind, submit: true } as const);
    expect(() => assertActionAllowed(open({ status }), action, now)).toThrow(expect.objectContaining({ status: 409, code }));
  });

  it('when evidence arrives after evidence_due_by, then 409 evidence_deadline_passed; accepting is still allowed then, and evidence before it too', () => {
    const late = new Date('2026-06-10T00:00:01.000Z');
    expect(() => assertActionAllowed(open(), { kind: 'evidence', submit: true }, late)).toThrow(
      expect.objectContaining({ status: 409, code: 'evidence_deadline_passed' }),
    );
    expect(() => assertActionAllowed(open(), { kind: 'accept' }, late)).not.toThrow();
    expect(() => assertActionAllowed(open(), { kind: 'evidence', submit: true }, now)).not.toThrow();
  });
});

describe("dispute reasons in the merchant's words", () => {
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
