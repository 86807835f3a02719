import type { Scope } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { PaymentNotFound } from '../payment/payment-errors';
import type { PaymentRepository } from '../payment/payment-ports';
import type { RefundRepository, RefundSearch } from './refund-ports';
import { RefundNotFound, type Refund } from './refund';

export type GetRefund = (scope: Scope, refundId: string) => Promise<Refund>;
export type ListRefunds = (scope: Scope, filters: RefundSearch, page: PageRequest) => Promise<Page<Refund>>;
export type ListPaymentRefunds = (scope: Scope, paymentId: string) => Promise<Refund[]>;

export function getRefund({ refunds }: { refunds: RefundRepository }): GetRefund {
  return async (scope, refundId) => {
    const refund = await refunds.get(scope, refundId);
    if (!refund) throw new RefundNotFound();
    return refund;
  };
}

export function listRefunds({ refunds }: { refunds: RefundRepository }): ListRefunds {
  return (scope, filters, page) => refunds.search(scope, filters, page);
}

/** A payment's refunds, newest first. */
export function listPaymentRefunds({ payments, refunds }: { payments: PaymentRepository; refunds: RefundRepository }): ListPaymentRefunds {
  return async (scope, paymentId) => {
    const payment = await payments.get(scope, paymentId);
    if (!payment || payment.mode !== scope.mode) throw new PaymentNotFound();
    return (await refunds.listForPayment(scope, paymentId)).sort((a, b) => (a.id < b.id ? 1 : -1));
  };
}
