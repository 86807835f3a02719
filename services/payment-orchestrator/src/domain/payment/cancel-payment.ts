import { newId, type Scope, scopeOfDocument } from '@vaultline/core';
import { ConcurrentModificationError, type UnitOfWork } from '@vaultline/store';
import { processorPayment } from './advance-payment';
import { stepOf } from '../flows/flow';
import { uncapturedAmount, type CancellationReason, type Payment, type ProcessorTransaction } from './payment';
import { isConsumerPresent } from '../payment-vocabulary/use-case';
import { paymentMovedEvent } from './payment-events';
import { CancelNotAllowed, PaymentNotFound } from './payment-errors';
import { movePayment } from './payment-status';
import { paymentOfEarlierRequest, rememberRequest, type PaymentRequestKey, type PaymentRequestPorts } from './payment-requests';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository, TransactionRepository } from './payment-ports';
import type { ProcessorDirectory, StepOutcome } from '../processor-port/processor-port';
import type { TransactionRunner } from '@vaultline/store';
import { shownUseCaseOf } from '../earlier/earlier-payment';

export interface CancelPaymentPorts extends PaymentRequestPorts {
  payments: PaymentRepository;
  transactions: TransactionRepository;
  directory: ProcessorDirectory;
  transaction: TransactionRunner;
  clock: Clock;
}

export interface CancelCommand {
  paymentId: string;
  reference: string | null;
  /** The merchant's Idempotency-Key: a retry of a cancel that happened gets the payment, not cancel_not_allowed. */
  requestKey?: PaymentRequestKey | null;
}

export type CancelPayment = (scope: Scope, command: CancelCommand) => Promise<Payment>;

/** A void the processor took but has not confirmed is sent again (same idempotency key) after this long. */
const VOID_CONFIRMATION_WAIT_MS = 5 * 60_000;
/** A void not sent yet (the request's own try is under way) or that did not reach the processor is sent again after this long. */
const VOID_RETRY_MS = 30_000;

const later = (at: Date, ms: number) => new Date(at.getTime() + ms).toISOString();

/**
 * Pure: the cancel's checks and its first move. A consumer-present payment whose consumer has not
 * entered a card is canceled at once (its session closes: the vault hears payment.canceled); an
 * authorized manual-capture payment moves to canceling while its authorization is voided, and so does a
 * partially captured one, whose void releases what is left uncaptured (it then ends captured).
 */
export function startCancel(payment: Payment, reason: CancellationReason, reference: string | null, at: Date): Payment {
  const cancellation = { reason, reference, requested_at: at.toISOString(), void_reference: null, void_retry_at: later(at, VOID_RETRY_MS) };
  if (payment.status === 'processing' && payment.token_id === null && payment.session !== null && isConsumerPresent(payment.use_case)) {
    return movePayment(payment, 'canceled', { cancellation, next_run_at: null }, at);
  }
  if (
    (payment.status === 'authorized' || payment.status === 'partially_captured') &&
    payment.decision?.flow.capture_mode === 'manual' &&
    !payment.progress.capture
  ) {
    // authorized_at dates the canceling for the worker's scan (payments authorized before it existed lack it).
    return movePayment(payment, 'canceling', { cancellation, next_run_at: null, authorized_at: payment.authorized_at ?? at.toISOString() }, at);
  }
  throw new CancelNotAllowed(cancelRefusal(payment));
}

function cancelRefusal(payment: Payment): string {
  switch (payment.status) {
    case 'captured':
      return 'This payment is captured: a captured payment is refunded (POST /payments/{payment_id}/refunds), not canceled.';
    case 'capturing':
      return 'A capture of this payment is under way: cancel once it settled (what is left uncaptured is then released).';
    case 'canceled':
    case 'canceling':
      return 'This payment is already canceled.';
    case 'processing':
      return 'This payment is being processed: only a payment whose consumer has not entered a card yet, or an authorized one, can be canceled.';
    default:
      return `Only an authorized payment, or one whose consumer has not entered a card yet, can be canceled; this one is ${payment.status}.`;
  }
}

/** POST /payments/{payment_id}/cancel: the first move commits (compare-and-set), then the authorization is released. */
export function cancelPayment(ports: CancelPaymentPorts): CancelPayment {
  const release = releaseAuthorization(ports);
  return async (scope, command) => {
    const earlier = await paymentOfEarlierRequest(ports, scope, command.requestKey);
    if (earlier) return earlier;
    const payment = await ports.payments.get(scope, command.paymentId);
    // Test and live are two worlds: a key of the other mode does not see the payment.
    if (!payment || payment.mode !== scope.mode) throw new PaymentNotFound();
    const now = ports.clock.now();
    const started = startCancel(payment, 'requested_by_merchant', command.reference, now);
    let committed: Payment;
    try {
      committed = await ports.transaction((uow) => {
        if (started.status === 'canceled') uow.publish(paymentMovedEvent(started, now));
        rememberRequest(ports, uow, scope, command.requestKey, started.id);
        return ports.payments.update(uow, started);
      });
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
      // Another request moved the payment first (a capture, a card, another cancel): judge it as it is now.
      const current = await ports.payments.get(scope, command.paymentId);
      if (!current) throw new PaymentNotFound();
      throw new CancelNotAllowed(cancelRefusal(current));
    }
    if (committed.status !== 'canceling') return committed;
    const released = await release(committed);
    if (released.status === 'authorized' || released.status === 'partially_captured')
      throw new CancelNotAllowed(
        `The processor refused to release the authorization (${released.failure_reason ?? 'void_failed'}); the payment stays authorized.`,
      );
    return released;
  };
}

/**
 * Voids a canceling payment's authorization at the processor that made it (idempotency key
 * `<payment>:void`, the same on every try) and records what came of it:
 * - confirmed in the answer (the simulator): canceled, with the void transaction and payment.canceled;
 * - accepted, confirmed later by notification (Adyen, Checkout.com): stays canceling, the void's reference kept;
 * - refused: back to authorized with the failed void recorded (an expiring authorization is canceled
 *   anyway: it lapses at the scheme, and no capture may follow it);
 * - not reached (timeout, 5xx): stays canceling; the after-sale worker sends it again.
 * Resolves with the payment as stored afterwards.
 */
function releaseAuthorization(ports: Omit<CancelPaymentPorts, 'paymentRequests'>): (payment: Payment) => Promise<Payment> {
  return async (payment) => {
    const processorId = payment.progress.authorized_by ?? stepOf(payment.decision!.flow, 'authorization')!.processor;
    const connection = (await ports.directory(scopeOfDocument(payment), payment.mode)).get(processorId);
    const authorizationReference = payment.progress.authorization_reference;
    // After partial captures only what is left uncaptured is released.
    const amount = (payment.amount.captured ?? 0) > 0 ? uncapturedAmount(payment) : (payment.amount.authorized ?? payment.amount.requested);
    const sentAt = ports.clock.now();
    let outcome: StepOutcome;
    if (!connection?.voidAuthorization) outcome = { status: 'error', failure_reason: connection ? 'capability_missing' : 'processor_unavailable' };
    else if (!authorizationReference) outcome = { status: 'failed', failure_reason: 'authorization_reference_missing', processor_reference: null };
    else {
      const request = processorPayment(payment, 'void', amount, { processor: processorId, now: sentAt });
      outcome = await connection
        .voidAuthorization(request, authorizationReference)
        .catch(() => ({ status: 'error' as const, failure_reason: 'processor_error' }));
    }
    const byNotification = connection?.settlesByNotification === true;
    return commitVoidOutcome(ports, payment, outcome, byNotification, sentAt);
  };
}

type VoidVerdict =
  | { status: 'succeeded'; processor_reference: string | null }
  | { status: 'failed'; failure_reason: string }
  | { status: 'accepted'; processor_reference: string | null }
  | { status: 'error' };

function verdictOf(outcome: StepOutcome, byNotification: boolean): VoidVerdict {
  if (outcome.status === 'error') return { status: 'error' };
  if (outcome.status === 'failed') return { status: 'failed', failure_reason: outcome.failure_reason };
  return byNotification
    ? { status: 'accepted', processor_reference: outcome.processor_reference }
    : { status: 'succeeded', processor_reference: outcome.processor_reference };
}

/** Commits the void's verdict on the payment (compare-and-set; a concurrent settle by notification wins and is returned). */
async function commitVoidOutcome(
  ports: Omit<CancelPaymentPorts, 'paymentRequests'>,
  payment: Payment,
  outcome: StepOutcome,
  byNotification: boolean,
  at: Date,
): Promise<Payment> {
  const verdict = verdictOf(outcome, byNotification);
  const cancellation = payment.cancellation!;
  try {
    return await ports.transaction((uow) => {
      switch (verdict.status) {
        case 'accepted':
        case 'error':
          return ports.payments.update(uow, {
            ...payment,
            cancellation:
              verdict.status === 'accepted'
                ? { ...cancellation, void_reference: verdict.processor_reference, void_retry_at: later(at, VOID_CONFIRMATION_WAIT_MS) }
                : { ...cancellation, void_retry_at: later(at, VOID_RETRY_MS) },
            updated_at: at.toISOString(),
          });
        case 'succeeded':
          return settleVoid(ports, uow, payment, { status: 'succeeded', void_reference: verdict.processor_reference }, at);
        case 'failed':
          return settleVoid(ports, uow, payment, { status: 'failed', failure_reason: verdict.failure_reason }, at);
      }
    });
  } catch (error) {
    if (!(error instanceof ConcurrentModificationError)) throw error;
    return (await ports.payments.get(scopeOfDocument(payment), payment.id)) ?? payment;
  }
}

export type VoidSettlement = { status: 'succeeded'; void_reference: string | null } | { status: 'failed'; failure_reason: string };

/**
 * In the caller's unit of work: a canceling payment's void settled. Succeeded: canceled, the void listed
 * as a transaction, payment.canceled published. Failed: the authorization stands (back to authorized,
 * the failed void listed), except for an expiring one, which is canceled all the same. A payment with
 * captures settled before the cancel keeps them: its void released the rest, and it ends captured
 * (payment.captured, amount.capturable 0), or, refused, stays partially_captured.
 */
function settleVoid(
  ports: Pick<CancelPaymentPorts, 'payments' | 'transactions'>,
  uow: UnitOfWork,
  payment: Payment,
  settlement: VoidSettlement,
  at: Date,
): Payment {
  const cancellation = payment.cancellation!;
  const sequence = payment.progress.transactions;
  const progress = { ...payment.progress, transactions: sequence + 1 };
  const partiallyCaptured = (payment.amount.captured ?? 0) > 0;
  ports.transactions.insert(uow, voidTransaction(payment, sequence, settlement, at));
  if (settlement.status === 'failed' && cancellation.reason === 'requested_by_merchant') {
    return ports.payments.update(
      uow,
      movePayment(payment, partiallyCaptured ? 'partially_captured' : 'authorized', { progress, cancellation: null, next_run_at: null }, at),
    );
  }
  const voidReference = settlement.status === 'succeeded' ? (settlement.void_reference ?? cancellation.void_reference) : cancellation.void_reference;
  const done = movePayment(
    payment,
    partiallyCaptured ? 'captured' : 'canceled',
    { progress, cancellation: { ...cancellation, void_reference: voidReference }, next_run_at: null },
    at,
  );
  uow.publish(paymentMovedEvent(done, at));
  return ports.payments.update(uow, done);
}

function voidTransaction(payment: Payment, sequence: number, settlement: VoidSettlement, at: Date): Omit<ProcessorTransaction, 'version'> {
  return {
    id: newId(),
    merchant_id: payment.merchant_id,
    mode: payment.mode,
    payment_id: payment.id,
    sequence,
    processor: payment.progress.authorized_by ?? 'unknown',
    kind: 'void',
    status: settlement.status,
    failure_reason: settlement.status === 'failed' ? settlement.failure_reason : null,
    amount: (payment.amount.captured ?? 0) > 0 ? uncapturedAmount(payment) : (payment.amount.authorized ?? payment.amount.requested),
    // The authorization released, as for a stray authorization's void.
    processor_reference: payment.progress.authorization_reference,
    use_case: shownUseCaseOf(payment),
    created_at: at.toISOString(),
  };
}

/**
 * A processor's notification confirmed or refused a void (Adyen CANCELLATION, Checkout.com
 * payment_voided / payment_void_declined). Only a canceling payment whose authorization it names moves;
 * anything else (a stray authorization's void, a redelivery after the move) changes nothing.
 */
export function settleVoidByNotification(
  ports: Omit<CancelPaymentPorts, 'paymentRequests'>,
): (scope: Scope, paymentId: string, authorizationReference: string, settlement: VoidSettlement) => Promise<Payment | null> {
  return async (scope, paymentId, authorizationReference, settlement) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const payment = await ports.payments.get(scope, paymentId);
      if (!payment || payment.status !== 'canceling' || payment.progress.authorization_reference !== authorizationReference) return null;
      const now = ports.clock.now();
      try {
        return await ports.transaction((uow) => settleVoid(ports, uow, payment, settlement, now));
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      }
    }
    return null;
  };
}

export interface ExpireAuthorizationsPorts extends Omit<CancelPaymentPorts, 'paymentRequests'> {
  authorizationValidityMs: number;
}

/**
 * One pass of the after-sale worker over authorizations: each manual-capture authorization older than
 * the validity is voided and its payment canceled (authorization_expired); each canceling payment whose
 * void did not reach the processor, or whose confirmation is overdue, has its void sent again. Runs once
 * per payment under concurrency: the move to canceling is a compare-and-set, so of two workers one wins
 * and the other passes over it. Resolves with how many payments it moved or retried.
 */
export function expireAuthorizations(ports: ExpireAuthorizationsPorts): (limit: number) => Promise<number> {
  const release = releaseAuthorization(ports);
  return async (limit) => {
    const now = ports.clock.now();
    let handled = 0;
    const expiredBefore = new Date(now.getTime() - ports.authorizationValidityMs);
    // Partially captured payments too: what is left of their authorization lapses (they end captured).
    const expiring = [
      ...(await ports.payments.listAuthorizedBefore('authorized', expiredBefore, limit)),
      ...(await ports.payments.listAuthorizedBefore('partially_captured', expiredBefore, limit)),
    ];
    for (const due of expiring) {
      const payment = await ports.payments.get(due.scope, due.paymentId);
      if (!payment || (payment.status !== 'authorized' && payment.status !== 'partially_captured') || payment.decision?.flow.capture_mode !== 'manual')
        continue;
      let canceling: Payment;
      try {
        canceling = await ports.transaction((uow) => ports.payments.update(uow, startCancel(payment, 'authorization_expired', null, now)));
      } catch (error) {
        if (error instanceof ConcurrentModificationError) continue;
        throw error;
      }
      await release(canceling);
      handled += 1;
    }
    for (const due of await ports.payments.listAuthorizedBefore('canceling', now, limit)) {
      const payment = await ports.payments.get(due.scope, due.paymentId);
      if (!payment || payment.status !== 'canceling' || !payment.cancellation) continue;
      const retryAt = payment.cancellation.void_retry_at;
      if (retryAt !== null && Date.parse(retryAt) > now.getTime()) continue;
      await release(payment);
      handled += 1;
    }
    return handled;
  };
}
