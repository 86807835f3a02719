import type { Payment } from '../payment/payment';
import { refundableAmount } from '../payment/payment';
import { CancelNotAllowed } from '../payment/payment-errors';
import { startCancel } from '../payment/cancel-payment';
import { paymentTotalsAfter } from './advance-refund';
import { startRefund } from './create-refund';
import { AmountExceedsRefundable, RefundNotAllowed, settleRefund, type Refund } from './refund';

const AT = new Date('2026-06-01T10:00:00Z');
const SCOPE = { merchantId: 'm1', mode: 'test' as const };

const flow = (capture_mode: 'automatic' | 'manual') => ({ name: 'f', capture_mode, steps: [{ kind: 'authorization', processor: 'simulator', fallback: [] }] });
const aPayment = (overrides: Partial<Payment> = {}): Payment =>
  ({
    id: 'p1',
    merchant_id: 'm1',
    version: 3,
    mode: 'test',
    use_case: 'ONE_OFF',
    status: 'captured',
    amount: { requested: 1000, authorized: 1000, captured: 1000 },
    currency_code: 'EUR',
    token_id: 't1',
    session: { id: 's1', expires_at: '2026-06-01T10:30:00Z', return_url: null },
    decision: { flow: flow('manual'), matrix_version: 1, rule: null },
    progress: { next_step: 1, authorized_by: 'simulator', authorization_reference: 'sim_a', capture: null, transactions: 1 },
    ...overrides,
  }) as Payment;

const command = (overrides: Partial<Parameters<typeof startRefund>[1]> = {}) => ({
  paymentId: 'p1',
  amount: null,
  currencyCode: null,
  reference: null,
  reason: null,
  ...overrides,
});

describe('cancel rules', () => {
  it('when an authorized manual-capture payment is canceled, then it moves to canceling with the reason, the reference and its authorization time kept', () => {
    const canceling = startCancel(aPayment({ status: 'authorized', authorized_at: '2026-05-31T10:00:00.000Z' }), 'requested_by_merchant', 'ord-1', AT);
    expect(canceling).toMatchObject({
      status: 'canceling',
      authorized_at: '2026-05-31T10:00:00.000Z',
      cancellation: {
        reason: 'requested_by_merchant',
        reference: 'ord-1',
        requested_at: AT.toISOString(),
        void_reference: null,
        void_retry_at: '2026-06-01T10:00:30.000Z',
      },
      next_run_at: null,
    });
  });

  it('when a consumer-present payment without a card is canceled, then it is canceled at once', () => {
    expect(startCancel(aPayment({ status: 'processing', token_id: null }), 'requested_by_merchant', null, AT)).toMatchObject({
      status: 'canceled',
      cancellation: { reason: 'requested_by_merchant' },
    });
  });

  it.each([
    ['captured', {}],
    ['failed', {}],
    ['canceled', {}],
    ['capturing', {}],
    ['processing with its card', { status: 'processing' as const }],
    ['authorized on an automatic-capture flow', { status: 'authorized' as const, decision: { flow: flow('automatic'), matrix_version: 1, rule: null } }],
    [
      'authorized with a capture under way',
      {
        status: 'authorized' as const,
        progress: {
          next_step: 1,
          authorized_by: 'simulator',
          authorization_reference: 'a',
          capture: { amount: 1, reference: null, processor_reference: null },
          transactions: 1,
        },
      },
    ],
  ] as const)('when the payment is %s, then cancel is not allowed', (name, overrides) => {
    const status = (['captured', 'failed', 'canceled', 'capturing'] as const).find((s) => s === name);
    expect(() => startCancel(aPayment({ ...(status ? { status } : {}), ...overrides } as Partial<Payment>), 'requested_by_merchant', null, AT)).toThrow(
      CancelNotAllowed,
    );
  });
});

describe('refund rules', () => {
  it('when nothing was refunded, then the whole captured amount is refundable; pending and succeeded refunds count against it', () => {
    expect(refundableAmount(aPayment())).toBe(1000);
    expect(refundableAmount(aPayment({ amount: { requested: 1000, captured: 800, refunded: 300 }, refunds_pending: 200 }))).toBe(300);
  });

  it("when a refund starts, then it is pending, due at once, in the caller's mode, and its amount is reserved on the payment", () => {
    const { refund, payment } = startRefund(aPayment(), command({ amount: 400, reason: 'duplicate', reference: 'r' }), SCOPE, AT, 'r1');
    expect(refund).toMatchObject({
      id: 'r1',
      mode: 'test',
      amount: 400,
      status: 'pending',
      processor: 'simulator',
      next_run_at: AT.toISOString(),
      reason: 'duplicate',
      reference: 'r',
    });
    expect(payment).toMatchObject({ refunds_pending: 400, amount: { captured: 1000, refunded: 0 }, status: 'captured' });
  });

  it('when no amount is given, then the refund takes what is left; exactly the refundable amount passes and one cent more does not', () => {
    const partlyRefunded = aPayment({ amount: { requested: 1000, captured: 1000, refunded: 600 }, refunds_pending: 100 });
    expect(startRefund(partlyRefunded, command(), SCOPE, AT, 'r').refund.amount).toBe(300);
    expect(startRefund(partlyRefunded, command({ amount: 300 }), SCOPE, AT, 'r').refund.amount).toBe(300);
    expect(() => startRefund(partlyRefunded, command({ amount: 301 }), SCOPE, AT, 'r')).toThrow(AmountExceedsRefundable);
  });

  it('when everything is refunded or reserved, then a refund without amount is refused', () => {
    expect(() => startRefund(aPayment({ refunds_pending: 1000 }), command(), SCOPE, AT, 'r')).toThrow(AmountExceedsRefundable);
  });

  it.each(['processing', 'authorized', 'capturing', 'failed', 'canceled'] as const)(
    'when the payment is %s with nothing captured, then refund_not_allowed',
    (status) => {
      expect(() => startRefund(aPayment({ status, amount: { requested: 1000, authorized: 1000 } }), command(), SCOPE, AT, 'r')).toThrow(RefundNotAllowed);
    },
  );

  it.each(['partially_captured', 'capturing'] as const)(
    'when the payment is %s after a capture of part of it, then a refund takes at most what was captured',
    (status) => {
      const partly = aPayment({ status, amount: { requested: 1000, authorized: 1000, captured: 400 } });
      expect(startRefund(partly, command(), SCOPE, AT, 'r').refund.amount).toBe(400);
      expect(() => startRefund(partly, command({ amount: 401 }), SCOPE, AT, 'r')).toThrow(AmountExceedsRefundable);
    },
  );

  it("when the currency is not the payment's, then currency_mismatch", () => {
    expect(() => startRefund(aPayment(), command({ amount: 1, currencyCode: 'USD' }), SCOPE, AT, 'r')).toThrow(
      expect.objectContaining({ code: 'currency_mismatch' }),
    );
  });
});

describe('refund settlement', () => {
  const pending = startRefund(aPayment(), command({ amount: 400 }), SCOPE, AT, 'r1').refund as Refund;
  const reserved = aPayment({ amount: { requested: 1000, captured: 1000, refunded: 0 }, refunds_pending: 400 });

  it('when a pending refund succeeds, then it leaves pending and counts as refunded', () => {
    const succeeded = settleRefund(pending, { status: 'succeeded', processor_reference: 'x' }, AT);
    expect(succeeded).toMatchObject({ status: 'succeeded', processor_reference: 'x', next_run_at: null });
    expect(paymentTotalsAfter(reserved, pending, succeeded)).toEqual({ refunds_pending: 0, amount: { requested: 1000, captured: 1000, refunded: 400 } });
  });

  it('when a pending refund fails, then its amount is refundable again', () => {
    const failed = settleRefund(pending, { status: 'failed', failure_reason: 'refund_failed' }, AT);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'refund_failed' });
    const totals = paymentTotalsAfter(reserved, pending, failed);
    expect(refundableAmount({ ...reserved, ...totals })).toBe(1000);
  });

  it('when a succeeded refund is reversed, then refunded shrinks by its amount', () => {
    const succeeded = settleRefund(pending, { status: 'succeeded', processor_reference: null }, AT);
    const refunded = { ...reserved, amount: { ...reserved.amount, refunded: 400 }, refunds_pending: 0 };
    expect(paymentTotalsAfter(refunded, succeeded, { ...succeeded, status: 'failed' }).amount.refunded).toBe(0);
  });

  it('when a settled refund is settled again, then that is refused', () => {
    const succeeded = settleRefund(pending, { status: 'succeeded', processor_reference: null }, AT);
    expect(() => settleRefund(succeeded, { status: 'failed', failure_reason: 'x' }, AT)).toThrow();
  });
});
