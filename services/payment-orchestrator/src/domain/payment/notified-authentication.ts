import type { Scope } from '@vaultline/core';
import { ConcurrentModificationError } from '@vaultline/store';
import { MAX_RETURN_PARAMETER_LENGTH } from '../payment-vocabulary/authentication';
import { recordReturn } from './consumer-authentication';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from './payment-ports';
import type { TransactionRunner } from '@vaultline/store';

export interface NotifiedAuthenticationPorts {
  payments: PaymentRepository;
  transaction: TransactionRunner;
  clock: Clock;
  /** Runs the payment now (the runner resumes its authorization). */
  run: (scope: Scope, paymentId: string) => Promise<void>;
}

/**
 * A processor's notification that it decided an authorization (Checkout.com's payment_approved or
 * payment_authentication_failed) while the payment waits for its consumer to come back from the issuer's
 * page: the processor is done, so it counts as the return, without parameters. The runner then resumes
 * the authorization, which asks the processor by its own reference (GET /payments/{id}) and settles the
 * payment, even when the consumer never comes back. Only the account and reference the payment waits on
 * count (Adyen's RedirectShopper gives none, so its AUTHORISATION leaves the payment to the return).
 * Whichever comes first, return or notification, is recorded; the other changes nothing.
 */
export type NotifiedAuthentication = (scope: Scope, accountId: string, paymentId: string, processorReference: string) => Promise<boolean>;

export function notifiedAuthentication({ payments, transaction, clock, run }: NotifiedAuthenticationPorts): NotifiedAuthentication {
  return async (scope, accountId, paymentId, processorReference) => {
    const payment = await payments.get(scope, paymentId);
    const pending = payment?.pending_authentication;
    if (!payment || !pending || pending.processor !== accountId || pending.processor_reference !== processorReference) return false;
    const returned = recordReturn(payment, {}, clock.now(), MAX_RETURN_PARAMETER_LENGTH);
    if (!returned.recorded) return false;
    try {
      await transaction((uow) => payments.update(uow, returned.payment));
    } catch (error) {
      // The consumer's return (or another delivery) was recorded first: that one resumes the payment.
      if (error instanceof ConcurrentModificationError) return false;
      throw error;
    }
    await run(scope, paymentId);
    return true;
  };
}
