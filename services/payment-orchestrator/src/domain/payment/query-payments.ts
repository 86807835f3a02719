import type { Scope } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import type { Payment, ProcessorTransaction } from './payment';
import { PaymentNotFound } from './payment-errors';
import type { PaymentRepository, PaymentSearch, TransactionRepository } from './payment-ports';

export type GetPayment = (scope: Scope, paymentId: string) => Promise<Payment>;
export type ListPayments = (scope: Scope, filters: PaymentSearch, page: PageRequest) => Promise<Page<Payment>>;
export type ListTransactions = (scope: Scope, paymentId: string) => Promise<ProcessorTransaction[]>;

export function getPayment({ payments }: { payments: PaymentRepository }): GetPayment {
  return async (scope, paymentId) => {
    const payment = await payments.get(scope, paymentId);
    if (!payment) throw new PaymentNotFound();
    return payment;
  };
}

export function listPayments({ payments }: { payments: PaymentRepository }): ListPayments {
  return (scope, filters, page) => payments.search(scope, filters, page);
}

export function listTransactions({ payments, transactions }: { payments: PaymentRepository; transactions: TransactionRepository }): ListTransactions {
  return async (scope, paymentId) => {
    if (!(await payments.get(scope, paymentId))) throw new PaymentNotFound();
    return transactions.listForPayment(scope, paymentId);
  };
}
