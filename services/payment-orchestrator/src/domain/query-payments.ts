import type { Page, PageRequest } from '@vaultline/store';
import type { Payment, ProcessorTransaction } from './payment/payment';
import { PaymentNotFound } from './payment/payment-errors';
import type { Scope } from '@vaultline/core';
import type { PaymentRepository, PaymentSearch, TransactionRepository } from './ports';

export type GetPayment = (merchantId: string, paymentId: string) => Promise<Payment>;
export type ListPayments = (scope: Scope, filters: PaymentSearch, page: PageRequest) => Promise<Page<Payment>>;
export type ListTransactions = (merchantId: string, paymentId: string) => Promise<ProcessorTransaction[]>;

export function getPayment({ payments }: { payments: PaymentRepository }): GetPayment {
  return async (merchantId, paymentId) => {
    const payment = await payments.get(merchantId, paymentId);
    if (!payment) throw new PaymentNotFound();
    return payment;
  };
}

export function listPayments({ payments }: { payments: PaymentRepository }): ListPayments {
  return (scope, filters, page) => payments.search(scope, filters, page);
}

export function listTransactions({ payments, transactions }: { payments: PaymentRepository; transactions: TransactionRepository }): ListTransactions {
  return async (merchantId, paymentId) => {
    if (!(await payments.get(merchantId, paymentId))) throw new PaymentNotFound();
    return transactions.listForPayment(merchantId, paymentId);
  };
}
