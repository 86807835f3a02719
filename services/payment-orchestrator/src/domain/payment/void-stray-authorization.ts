import { AppError, newId, type Scope } from '@vaultline/core';
import { ConcurrentModificationError, DuplicateKeyError } from '@vaultline/store';
import { processorPayment } from './advance-payment';
import { effectiveTime, isFinal, type Payment } from './payment';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository, TransactionRepository } from './payment-ports';
import type { ProcessorDirectory } from '../processor-port/processor-port';
import type { TransactionRunner } from '@vaultline/store';

export interface VoidStrayAuthorizationPorts {
  payments: PaymentRepository;
  transactions: TransactionRepository;
  directory: ProcessorDirectory;
  transaction: TransactionRunner;
  clock: Clock;
  /** Waits for the payment's run in this process, if one is under way (its authorization may be deciding now). */
  settle: (scope: Scope, paymentId: string) => Promise<void>;
}

/**
 * Not settled yet, so the processor should send its notification again later (Adyen and Checkout.com
 * redeliver on any answer but success): the payment's authorization is still being decided (another
 * process runs it), or the void could not reach the processor.
 */
class StrayAuthorizationPending extends AppError {
  constructor(detail: string) {
    super('stray_authorization_pending', 503, detail, {}, true);
  }
}

export type StrayAuthorizationOutcome = 'unknown_payment' | 'chosen' | 'already_voided' | 'voided' | 'not_voided';

/**
 * A processor account reported a successful authorization of a payment (its notification, late answer
 * included). If the payment uses another one (an account that timed out, then answered, after the
 * engine fell back to the next) or failed, this authorization is voided at that account and recorded as
 * a `void` transaction, so the consumer is charged at most once. Idempotent: a redelivered notification
 * finds the void recorded; the void request's idempotency key is the same for every try.
 */
export type VoidStrayAuthorization = (scope: Scope, accountId: string, paymentId: string, authorizationReference: string) => Promise<StrayAuthorizationOutcome>;

const MAX_TRIES = 3;

export function voidStrayAuthorization(ports: VoidStrayAuthorizationPorts): VoidStrayAuthorization {
  const { payments, transactions, clock } = ports;
  return async (scope, accountId, paymentId, authorizationReference) => {
    let payment = await payments.get(scope, paymentId);
    if (!payment) return 'unknown_payment';
    if (!isDecided(payment)) {
      await ports.settle(scope, paymentId);
      payment = await payments.get(scope, paymentId);
      if (!payment) return 'unknown_payment';
      if (!isDecided(payment)) throw new StrayAuthorizationPending("The payment's authorization is still being decided; send the notification again later.");
    }
    if (payment.progress.authorized_by === accountId && payment.progress.authorization_reference === authorizationReference) return 'chosen';
    const isThisVoid = (t: { kind: string; processor: string; processor_reference: string | null; status: string }) =>
      t.kind === 'void' && t.processor === accountId && t.processor_reference === authorizationReference && t.status === 'succeeded';
    const listed = await transactions.listForPayment(scope, paymentId);
    if (listed.some(isThisVoid)) return 'already_voided';

    const connection = (await ports.directory(scope, payment.mode)).get(accountId);
    const now = clock.now();
    const request = processorPayment(payment, `void:${authorizationReference}`, payment.amount.requested, { processor: accountId, now });
    const outcome = connection?.voidAuthorization
      ? await connection.voidAuthorization(request, authorizationReference).catch(() => ({ status: 'error' as const, failure_reason: 'processor_error' }))
      : { status: 'error' as const, failure_reason: connection ? 'capability_missing' : 'processor_unavailable' };

    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const current: Payment = payment;
      const recorded = attempt === 0 ? listed : await transactions.listForPayment(scope, paymentId);
      if (attempt > 0 && recorded.some(isThisVoid)) return 'already_voided';
      // A payment still under way counts its transactions (the engine numbers the next from there); a final
      // one has no more steps and is never written again, so the void takes the next number after the last.
      const final = isFinal(current.status);
      const sequence = final ? Math.max(-1, ...recorded.map((t) => t.sequence)) + 1 : current.progress.transactions;
      try {
        await ports.transaction((uow) => {
          transactions.insert(uow, {
            id: newId(),
            merchant_id: scope.merchantId,
            mode: scope.mode,
            payment_id: paymentId,
            sequence,
            processor: accountId,
            kind: 'void',
            status: outcome.status,
            failure_reason: outcome.status === 'succeeded' ? null : outcome.failure_reason,
            amount: current.amount.requested,
            // The authorization released, so a redelivered notification finds it.
            processor_reference: authorizationReference,
            created_at: effectiveTime(current, now).toISOString(),
          });
          if (!final) payments.update(uow, { ...current, progress: { ...current.progress, transactions: sequence + 1 }, updated_at: now.toISOString() });
        });
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError) && !(error instanceof DuplicateKeyError)) throw error;
        // Another writer moved the payment or numbered a transaction first: record the void after it.
        const reread = await payments.get(scope, paymentId);
        if (!reread) return 'unknown_payment';
        payment = reread;
        continue;
      }
      if (outcome.status === 'error') throw new StrayAuthorizationPending('The void did not reach the processor; send the notification again later.');
      return outcome.status === 'succeeded' ? 'voided' : 'not_voided';
    }
    throw new ConcurrentModificationError('payments', paymentId);
  };
}

/**
 * The authorization step has an answer: one account authorized, or the payment failed, or (hosted page)
 * its card failed and it waits for another: no authorization is in flight then, so one reported is stray.
 */
function isDecided(payment: Payment): boolean {
  return (
    payment.progress.authorized_by !== null ||
    payment.status === 'failed' ||
    (payment.status === 'processing' && payment.token_id === null && !!payment.last_failed_attempt)
  );
}
