import type { Page, PageRequest } from '@vaultline/store';
import type { Payment, ProcessorTransaction } from './payment/payment';
import { PaymentNotFound } from './payment/payment-errors';
import type { PaymentRepository, TransactionRepository } from './ports';

export type GetPayment = (merchantId: string, paymentId: string) => Promise<Payment>;
export type ListPayments = (merchantId: string, page: PageRequest) => Promise<Page<Payment>>;
export type ListTransactions = (merchantId: string, paymentId: string) => Promise<ProcessorTransaction[]>;

export function getPayment({ payments }: { payments: PaymentRepository }): GetPayment {
  return async (merchantId, paymentId) => {
    const payment = await payments.get(merchantId, paymentId);
    if (!payment) throw new PaymentNotFound();
    return payment;
  };
}

export function listPayments({ payments }: { payments: PaymentRepository }): ListPayments {
  return (merchantId, page) => payments.list(merchantId, page);
}

export function listTransactions({ payments, transactions }: { payments: PaymentRepository; transactions: TransactionRepository }): ListTransactions {
  return async (merchantId, paymentId) => {
    if (!(await payments.get(merchantId, paymentId))) throw new PaymentNotFound();
    return transactions.listForPayment(merchantId, paymentId);
  };
}
