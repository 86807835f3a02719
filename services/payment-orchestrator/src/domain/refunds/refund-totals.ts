import type { UnitOfWork } from '@vaultline/store';
import { isFinal, type Payment } from '../payment/payment';
import type { PaymentRepository } from '../payment/payment-ports';

/**
 * Writes a payment whose refund totals changed (compare-and-set on its version): a captured payment has no
 * schedule entry left (updateSettled), a partially captured one is still under way (update keeps its entry).
 */
export function writeRefundTotals(payments: PaymentRepository, uow: UnitOfWork, payment: Payment): Payment {
  return isFinal(payment.status) ? payments.updateSettled(uow, payment) : payments.update(uow, payment);
}
