import type { UnitOfWork } from '@vaultline/store';
import type { PaymentMethod } from '../customers/payment-method';
import { shownPaymentMethod, storedCardOf } from '../earlier/earlier-payment';
import type { Payment } from './payment';
import type { PaymentMethodRepository } from '../customers/customer-ports';

export type StorePaymentMethod = (uow: UnitOfWork, payment: Payment, now: Date) => Payment;

/**
 * Earlier interface, rules 2, 4 and 5: once the card is authorized, the card (COF) or the NPR mandate
 * is stored, in the commit of the authorization; a declined payment stores nothing. A mandate runs on
 * the stored credentials its first payment created (token, network transaction reference); it was
 * accepted when the consumer submitted the session.
 */
export function storePaymentMethod({ paymentMethods }: { paymentMethods: PaymentMethodRepository }): StorePaymentMethod {
  return (uow, payment, now) => {
    const earlier = payment.earlier;
    if (!earlier?.store || !payment.source || !payment.token_id) return payment;
    const { store } = earlier;
    const method: Omit<PaymentMethod, 'version'> = {
      id: store.payment_method_id,
      merchant_id: payment.merchant_id,
      mode: payment.mode,
      type: store.type,
      customer_id: earlier.customer?.id ?? null,
      card: storedCardOf(payment.source),
      token_id: payment.token_id,
      card_scheme: payment.card_scheme,
      npr_mandate:
        store.type === 'npr_mandate'
          ? { accepted_on: payment.card_submitted_at ?? payment.created_at, reference: store.reference, type: store.mandate_type }
          : null,
      credential_id: store.type === 'npr_mandate' ? payment.credential_id : null,
      first_payment_id: payment.id,
      status: 'active',
      created_at: now.toISOString(),
      revoked_at: null,
    };
    const stored = paymentMethods.insert(uow, method);
    return { ...payment, earlier: { ...earlier, payment_method: shownPaymentMethod(stored) } };
  };
}
