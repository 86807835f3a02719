import type { MandateType, PaymentMethod, StoredCard } from '../customers/payment-method';
import type { CardSource } from '../payment-vocabulary/card-source';
import type { UseCase } from '../payment-vocabulary/use-case';

/** The use cases the earlier interface names (its `use_case`). */
export type EarlierUseCase = 'guest_payment' | 'cof_payment' | 'first_payment' | 'recurring_payment' | 'unscheduled_payment';

/** A payment method as the earlier interface shows it; `id` only once it is stored. */
export type ShownPaymentMethod =
  | { id?: string; type: 'card'; card: StoredCard }
  | {
      id: string;
      type: 'npr_mandate';
      npr_mandate: { accepted_on: string; card: StoredCard; customer_id: string | null; reference: string; type: MandateType };
    };

/** What a payment stores once authorized (rules 2, 4, 5); the new method's id is chosen at creation. */
export type PaymentMethodToStore =
  { payment_method_id: string; type: 'card' } | { payment_method_id: string; type: 'npr_mandate'; mandate_type: MandateType; reference: string };

/**
 * The earlier interface's part of a payment created through it (POST /payments): the payment runs on
 * the same engine under the newer use case it maps to, and answers in the earlier shape.
 */
export interface EarlierPayment {
  use_case: EarlierUseCase;
  customer: { id: string; name: string } | null;
  /** The stored method or mandate the payment uses (rules 3, 5, 6). */
  payment_method_id: string | null;
  store: PaymentMethodToStore | null;
  /** The stored method as shown: the one used, replaced by the one stored once authorized. */
  payment_method: ShownPaymentMethod | null;
}

export function storedCardOf(source: CardSource): StoredCard {
  return {
    masked_number: source.masked_account_number,
    expiry_year: source.expiry_year,
    expiry_month: source.expiry_month,
    cardholder_name: source.cardholder_name,
  };
}

export function shownPaymentMethod(method: PaymentMethod): ShownPaymentMethod {
  if (method.type === 'card' || !method.npr_mandate) return { id: method.id, type: 'card', card: { ...method.card } };
  return {
    id: method.id,
    type: 'npr_mandate',
    npr_mandate: {
      accepted_on: method.npr_mandate.accepted_on,
      card: { ...method.card },
      customer_id: method.customer_id,
      reference: method.npr_mandate.reference,
      type: method.npr_mandate.type,
    },
  };
}

/** A merchant-initiated payment's use case in the earlier interface's words (an unscheduled one charged as recurring says so). */
export function earlierUseCaseOf(useCase: UseCase): EarlierUseCase {
  return useCase === 'SUBSEQUENT_UNSCHEDULED' ? 'unscheduled_payment' : 'recurring_payment';
}

/** The use case a payment shows (in events, transactions, search): the earlier interface's words for its payments. */
export function shownUseCaseOf(payment: { use_case: UseCase; earlier?: EarlierPayment }): EarlierUseCase | UseCase {
  return payment.earlier?.use_case ?? payment.use_case;
}

/** What a payment's events add for a payment of the earlier interface. */
export function earlierEventData(earlier: EarlierPayment) {
  return {
    interface: 'earlier' as const,
    customer_id: earlier.customer?.id ?? null,
    payment_method_id: earlier.payment_method?.id ?? earlier.payment_method_id,
  };
}
