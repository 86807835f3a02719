import type { Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import { MAX_RETURN_PARAMETER_LENGTH } from '../payment-vocabulary/authentication';
import { recordReturn } from './consumer-authentication';
import type { Payment } from './payment';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from './payment-ports';

/** What checkout.session.returned carries: the return parameters the processor named, nothing else. */
export interface ConsumerReturn {
  session_id: string;
  payment_id: string;
  parameters: Record<string, string>;
}

/** Resolves with the payment to run now, or null when the return changed nothing (unknown, not waiting, back already). */
export type ReturnFromAuthentication = (uow: UnitOfWork, scope: Scope, returned: ConsumerReturn) => Promise<Payment | null>;

/**
 * The consumer came back to the hosted page from the issuer's page: the payment records the return
 * (compare-and-set) and is due at once; the runner resumes the authorization outside this unit of work.
 * A second return (a reload, the back button) and a return after the session expired change nothing.
 */
export function returnFromAuthentication({ payments, clock }: { payments: PaymentRepository; clock: Clock }): ReturnFromAuthentication {
  return async (uow, scope, returned) => {
    const payment = await payments.get(scope, returned.payment_id);
    if (!payment || payment.session?.id !== returned.session_id) return null;
    const result = recordReturn(payment, returned.parameters, clock.now(), MAX_RETURN_PARAMETER_LENGTH);
    return result.recorded ? payments.update(uow, result.payment) : null;
  };
}
