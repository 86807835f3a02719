import { isUuid, type Scope, scopeOfDocument } from '@vaultline/core';
import { ConcurrentModificationError, type UnitOfWork } from '@vaultline/store';
import { processorPayment } from '../payment/advance-payment';
import type { Payment } from '../payment/payment';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from '../payment/payment-ports';
import type { NotifiedEvent, ProcessorDirectory, RefundOutcome } from '../processor-port/processor-port';
import type { RefundRepository } from './refund-ports';
import type { TransactionRunner } from '@vaultline/store';
import { settleRefund, type Refund } from './refund';
import { refundEvent } from './refund-events';
import { writeRefundTotals } from './refund-totals';
import { settlementRecheckMs } from '../processor-port/settlement-backoff';

export interface AdvanceRefundPorts {
  payments: PaymentRepository;
  refunds: RefundRepository;
  directory: ProcessorDirectory;
  transaction: TransactionRunner;
  clock: Clock;
}

/** A refund that could not reach the processor (timeout, 5xx) is sent again after this long, with the same idempotency key. */
const REFUND_RETRY_MS = 30_000;

/** Sends a pending refund, or asks how a sent one settled; resolves with the refund as stored afterwards. `notified`: a notification that just arrived for it. */
export type AdvanceRefund = (scope: Scope, refundId: string, notified?: NotifiedEvent) => Promise<Refund | null>;

/**
 * The refund runner's step. Outside any unit of work it calls the processor that captured the payment
 * (`<payment>:refund:<refund>` as idempotency key, the same on every try, so a resend after a crash or a
 * timeout cannot refund twice); then commits what it learnt: the processor's reference and when to ask
 * again (pending), or the settlement (succeeded / failed) together with the payment's totals and the
 * refund's event. A runner that lost a race (another worker, a notification) leaves the winner's effect.
 */
export function advanceRefund(ports: AdvanceRefundPorts): AdvanceRefund {
  return async (scope, refundId, notified) => {
    const refund = await ports.refunds.get(scope, refundId);
    if (!refund || refund.status !== 'pending' || refund.next_run_at === null) return refund;
    const now = ports.clock.now();
    if (Date.parse(refund.next_run_at) > now.getTime()) return refund;
    const payment = await ports.payments.get(scopeOfDocument(refund), refund.payment_id);
    if (!payment) return refund;
    const outcome = await askProcessor(ports, payment, refund, now, notified);
    if (outcome.status === 'pending' || outcome.status === 'error') {
      // A sent refund asked about without a final word: the next question waits longer (settlement-backoff.ts).
      const asked = outcome.status === 'pending' && refund.processor_reference !== null;
      const checks = asked ? (refund.status_checks ?? 0) + 1 : (refund.status_checks ?? 0);
      const waitMs = outcome.status === 'pending' ? settlementRecheckMs(outcome.poll_after_ms, asked ? checks : 0) : REFUND_RETRY_MS;
      const waiting: Refund = {
        ...refund,
        processor_reference: outcome.status === 'pending' ? outcome.processor_reference : refund.processor_reference,
        ...(asked ? { status_checks: checks } : {}),
        next_run_at: new Date(now.getTime() + waitMs).toISOString(),
        updated_at: now.toISOString(),
      };
      return commitOrCurrent(ports, scope, refund, (uow) => ports.refunds.update(uow, waiting));
    }
    return settle(
      ports,
      scope,
      refund,
      outcome.status === 'succeeded'
        ? { status: 'succeeded', processor_reference: outcome.processor_reference }
        : { status: 'failed', failure_reason: outcome.failure_reason },
    );
  };
}

async function askProcessor(
  ports: AdvanceRefundPorts,
  payment: Payment,
  refund: Refund,
  now: Date,
  notified: NotifiedEvent | undefined,
): Promise<RefundOutcome> {
  const connection = (await ports.directory(scopeOfDocument(payment), payment.mode, notified)).get(refund.processor);
  if (!connection?.refund) return { status: 'error', failure_reason: connection ? 'capability_missing' : 'processor_unavailable' };
  const request = { ...processorPayment(payment, `refund:${refund.id}`, refund.amount, { processor: refund.processor, now }), refund_reason: refund.reason };
  try {
    if (refund.processor_reference === null) {
      const sent = await connection.refund(request, payment.progress.authorization_reference, refund.id);
      // The notification may have overtaken the answer: it is recorded already, so ask at once.
      if (sent.status === 'pending' && connection.settlesByNotification && connection.refundStatus) {
        const settled = await connection.refundStatus(request, sent.processor_reference);
        return settled.status === 'pending' || settled.status === 'error' ? sent : settled;
      }
      return sent;
    }
    return connection.refundStatus
      ? await connection.refundStatus(request, refund.processor_reference)
      : { status: 'pending', processor_reference: refund.processor_reference, poll_after_ms: REFUND_RETRY_MS };
  } catch {
    return { status: 'error', failure_reason: 'processor_error' };
  }
}

async function commitOrCurrent(ports: AdvanceRefundPorts, scope: Scope, refund: Refund, work: (uow: UnitOfWork) => Refund): Promise<Refund | null> {
  try {
    return await ports.transaction(work);
  } catch (error) {
    if (!(error instanceof ConcurrentModificationError)) throw error;
    return ports.refunds.get(scope, refund.id);
  }
}

type Settlement = { status: 'succeeded'; processor_reference: string | null } | { status: 'failed'; failure_reason: string };

/**
 * A pending refund settles, or a succeeded one is reversed (Adyen REFUNDED_REVERSED, REFUND_FAILED after
 * REFUND): the refund and the payment's totals move in one commit, with refund.succeeded or refund.failed.
 * A failed refund's amount is refundable again. The payment is re-read on a conflict (a concurrent refund
 * reserved its amount meanwhile); the refund's own version makes a second settlement lose.
 */
async function settle(ports: AdvanceRefundPorts, scope: Scope, refund: Refund, settlement: Settlement): Promise<Refund | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const current = attempt === 0 ? refund : await ports.refunds.get(scope, refund.id);
    if (!current || current.status === 'failed' || (current.status === 'succeeded' && settlement.status === 'succeeded')) return current;
    const payment = await ports.payments.get(scopeOfDocument(current), current.payment_id);
    if (!payment) return current;
    const now = ports.clock.now();
    const reversal = current.status === 'succeeded';
    const settled: Refund = reversal
      ? { ...current, status: 'failed', failure_reason: (settlement as { failure_reason: string }).failure_reason, updated_at: now.toISOString() }
      : settleRefund(current, settlement, now);
    const totals = paymentTotalsAfter(payment, current, settled);
    try {
      return await ports.transaction((uow) => {
        const updated = ports.refunds.update(uow, settled);
        writeRefundTotals(ports.payments, uow, { ...payment, ...totals, updated_at: now.toISOString() });
        uow.publish(refundEvent(updated, now));
        return updated;
      });
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
    }
  }
  throw new ConcurrentModificationError('refunds', refund.id);
}

/** The payment's refunded and pending sums once `before` became `after` (pure). */
export function paymentTotalsAfter(payment: Payment, before: Refund, after: Refund): Pick<Payment, 'amount' | 'refunds_pending'> {
  const share = (refund: Refund, status: Refund['status']) => (refund.status === status ? refund.amount : 0);
  const pending = (payment.refunds_pending ?? 0) - share(before, 'pending') + share(after, 'pending');
  const refunded = (payment.amount.refunded ?? 0) - share(before, 'succeeded') + share(after, 'succeeded');
  return { refunds_pending: pending, amount: { ...payment.amount, refunded } };
}

/**
 * A processor's notification about a refund (recorded already): the refund it names is looked at now.
 * It names the refund by its id (Adyen's merchantReference is the refund id we sent) or by the
 * processor's reference of it. A pending refund then settles through the runner (which reads the
 * recorded event); a succeeded one that the processor reports failed or reversed is reversed here.
 */
export function wakeRefund(
  ports: AdvanceRefundPorts,
  advance: AdvanceRefund,
): (scope: Scope, event: NotifiedEvent & { payment_reference: string | null }) => Promise<Refund | null> {
  return async (scope, event) => {
    // The account's scope: a refund of the other mode is not this account's; nor is one another account was sent.
    const refund = await findRefund(ports, scope, event.payment_reference, event.capture_reference);
    if (!refund || refund.processor !== event.account_id) return null;
    if (refund.status === 'succeeded' && event.kind === 'refund_failed')
      return settle(ports, scope, refund, { status: 'failed', failure_reason: event.failure_reason ?? 'refund_reversed' });
    if (refund.status !== 'pending' || refund.processor_reference === null) return refund;
    const now = ports.clock.now();
    const due = await commitOrCurrent(ports, scope, refund, (uow) => ports.refunds.update(uow, { ...refund, next_run_at: now.toISOString() }));
    // The notification is handed to the refund's processor connection: its status is answered from it, not read back.
    return due ? advance(scope, due.id, event) : null;
  };
}

async function findRefund(ports: AdvanceRefundPorts, scope: Scope, refundId: string | null, processorReference: string | null): Promise<Refund | null> {
  const byId = refundId && isUuid(refundId) ? await ports.refunds.get(scope, refundId) : null;
  if (byId) return byId;
  return processorReference ? ports.refunds.findByProcessorReference(scope, processorReference) : null;
}
