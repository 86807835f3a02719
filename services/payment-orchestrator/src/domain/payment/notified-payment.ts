import { isUuid, scopeOfDocument, type Mode } from '@vaultline/core';
import type { Payment } from './payment';
import type { PaymentRepository } from './payment-ports';
import type { ProcessorNotificationRepository } from '../processor-port/processor-notification-ports';

/** Who reported something about a payment: a processor account (by its id), or the simulator's test route. */
export interface NotificationReporter {
  id: string;
  merchant_id: string;
  /** The account's mode (the payment's, for the simulator): a payment is looked for in that mode only. */
  mode: Mode;
}

export interface NotifiedPaymentPorts {
  payments: PaymentRepository;
  notifications: ProcessorNotificationRepository;
}

/**
 * The payment a processor's notification names, among the payments its account handled (authorized),
 * else null. The notification names it by the reference we sent (our payment id: Adyen's merchantReference,
 * Checkout.com's payment_reference) or by the processor's own id of the payment (Stripe's PaymentIntent,
 * Checkout.com's pay_ id), which the payment keeps as its authorization's reference. A payment another
 * account or processor handled is never touched: an Adyen account cannot open a dispute on a Stripe
 * payment, even of the same merchant. Payments authorized before the authorization's search key existed
 * are still found through the account's recorded capture notification of that reference.
 */
export async function notifiedPayment(ports: NotifiedPaymentPorts, reporter: NotificationReporter, reference: string): Promise<Payment | null> {
  const scope = scopeOfDocument(reporter);
  let payment: Payment | null = null;
  if (isUuid(reference)) payment = await ports.payments.get(scope, reference);
  else if (reference !== '') {
    payment = await ports.payments.findByAuthorization(scope, reporter.id, reference);
    if (!payment) {
      const captured = await ports.notifications.findCaptureEvent(scope, reporter.id, reference);
      const id = captured?.payment_reference;
      payment = id && isUuid(id) ? await ports.payments.get(scope, id) : null;
    }
  }
  return payment && handledBy(payment, reporter.id) ? payment : null;
}

/** Whether the account (or built-in processor) authorized the payment: only its own payments are its to report on. */
function handledBy(payment: Pick<Payment, 'progress'>, accountId: string): boolean {
  return payment.progress.authorized_by === accountId;
}
