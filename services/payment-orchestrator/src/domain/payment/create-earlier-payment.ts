import { newId, ValidationError, type Scope, type Mode } from '@vaultline/core';
import type { CreatePayment } from './create-payment';
import type { CreateSubsequentPayment } from './create-subsequent-payment';
import { CustomerNotFound, type Customer } from '../customers/customer';
import { FirstPaymentRequired, PaymentMethodNotFound, PaymentMethodRevoked, type MandateType, type PaymentMethod } from '../customers/payment-method';
import { decideFlow, type FlowCatalogPorts } from '../flows/flow-catalog';
import { needsSecurityCode } from '../flows/flow';
import { shownPaymentMethod, type EarlierPayment, type PaymentMethodToStore } from '../earlier/earlier-payment';
import type { AuthenticationPreference } from '../payment-vocabulary/authentication';
import type { Payment, StoredCardSession } from './payment';
import { InitialPaymentNotSuccessful } from './payment-errors';
import type { CustomerRepository, PaymentMethodRepository } from '../customers/customer-ports';
import type { ProcessorDirectory } from '../processor-port/processor-port';
import type { PaymentRequestKey } from './payment-requests';

export interface CreateEarlierPaymentPorts extends FlowCatalogPorts {
  customers: CustomerRepository;
  paymentMethods: PaymentMethodRepository;
  directory: ProcessorDirectory;
  /** The newer interface's use cases: the earlier one runs on them. */
  createPayment: CreatePayment;
  createSubsequentPayment: CreateSubsequentPayment;
}

export type StoreFor = 'cof_payments' | MandateType;

/** POST /payments, as parsed (confirm and the store fields are checked here, by the rules). */
export interface EarlierPaymentCommand {
  mode: Mode;
  /** The merchant's name, for the hosted page (from the gateway's internal token). */
  merchantName?: string | null;
  amount: number;
  currencyCode: string;
  confirm: boolean | undefined;
  storePaymentMethodFor: { use_case: StoreFor; mandate_reference: string | null } | null;
  customerId: string | null;
  paymentMethodId: string | null;
  reference: string | null;
  metadata: Record<string, string> | null;
  returnUrl: string | null;
  allowedOrigins: string[] | null;
  /** What the hosted page shows under the amount, and the language it speaks (null: the browser's). */
  description?: string | null;
  locale?: string | null;
  authenticationPreference: AuthenticationPreference;
  effectiveAt: Date | null;
  /** The merchant's Idempotency-Key, passed on to the newer use case that makes the payment. */
  requestKey?: PaymentRequestKey | null;
}

export type CreateEarlierPayment = (scope: Scope, command: EarlierPaymentCommand) => Promise<Payment>;

class ConfirmRequired extends ValidationError {
  constructor() {
    super('confirm', 'confirm must be true: a payment of this interface is confirmed as it is created.', 'confirm_required');
  }
}

/**
 * The earlier interface's POST /payments: its seven rules choose the newer interface's use case the
 * payment runs as, what the hosted page shows (a new card, or a stored card to confirm) and what is
 * stored once the payment is authorized (a card, a mandate, nothing).
 *
 * | request                                              | runs as                   | use_case            | stores  |
 * | no method, no store (1)                              | ONE_OFF                   | guest_payment       | nothing |
 * | store cof_payments (2)                               | ONE_OFF                   | guest_payment       | card    |
 * | stored card (3)                                      | ONE_OFF, stored card      | cof_payment         | nothing |
 * | customer + store recurring/unscheduled (4)           | RECURRING / UNSCHEDULED   | first_payment       | mandate |
 * | stored method + customer + store recurring/unsch (5) | as 4, stored card         | first_payment       | mandate |
 * | mandate (6, 7)                                       | SUBSEQUENT_* (no session) | recurring/unsch.    | nothing |
 */
export function createEarlierPayment(ports: CreateEarlierPaymentPorts): CreateEarlierPayment {
  const { customers, paymentMethods } = ports;
  return async (scope, command) => {
    if (command.confirm !== true) throw new ConfirmRequired();
    const storeFor = command.storePaymentMethodFor;
    const storesMandate = storeFor !== null && storeFor.use_case !== 'cof_payments';
    if (storesMandate && command.customerId === null) {
      throw new ValidationError(
        'customer_id',
        'customer_id is required for a first payment (store_payment_method_for.use_case recurring_payments or unscheduled_payments).',
      );
    }
    if (storesMandate && !storeFor.mandate_reference) {
      throw new ValidationError('store_payment_method_for.mandate_reference', 'mandate_reference is required for recurring_payments and unscheduled_payments.');
    }
    let customer = command.customerId === null ? null : await customers.get(scope, command.customerId);
    if (command.customerId !== null && !customer) throw new CustomerNotFound();
    const method = command.paymentMethodId === null ? null : await usableMethod(paymentMethods, scope, command.paymentMethodId, command.customerId);
    if (method && !customer && method.customer_id !== null) customer = await customers.get(scope, method.customer_id);
    const shownCustomer = customer ? { id: customer.id, name: customer.name } : null;

    if (method?.type === 'npr_mandate' && storeFor === null) return merchantInitiated(ports, scope, command, method, shownCustomer);

    const store: PaymentMethodToStore | null = storesMandate
      ? { payment_method_id: newId(), type: 'npr_mandate', mandate_type: storeFor.use_case as MandateType, reference: storeFor.mandate_reference! }
      : storeFor?.use_case === 'cof_payments' && !method
        ? { payment_method_id: newId(), type: 'card' }
        : null;
    const useCase = store?.type === 'npr_mandate' ? (store.mandate_type === 'recurring_payments' ? 'RECURRING' : 'UNSCHEDULED') : 'ONE_OFF';
    const earlier: EarlierPayment = {
      use_case: store?.type === 'npr_mandate' ? 'first_payment' : method ? 'cof_payment' : 'guest_payment',
      customer: shownCustomer,
      payment_method_id: method?.id ?? null,
      store,
      payment_method: method ? shownPaymentMethod(method) : null,
    };
    return ports.createPayment(scope, {
      mode: command.mode,
      merchantName: command.merchantName ?? null,
      useCase,
      amount: command.amount,
      currencyCode: command.currencyCode,
      reference: command.reference,
      metadata: command.metadata,
      returnUrl: command.returnUrl,
      allowedOrigins: command.allowedOrigins,
      description: command.description ?? null,
      locale: command.locale ?? null,
      recurringFrequency: null,
      recurringExpiry: null,
      earlier,
      requestKey: command.requestKey,
      ...(method ? { storedCard: await storedCardSession(ports, scope, command, useCase, method) } : {}),
    });
  };
}

/** A stored method of this merchant (and of this customer, when one is named): else 404, revoked 410. */
async function usableMethod(paymentMethods: PaymentMethodRepository, scope: Scope, id: string, customerId: string | null): Promise<PaymentMethod> {
  const method = await paymentMethods.get(scope, id);
  if (!method || (customerId !== null && method.customer_id !== null && method.customer_id !== customerId)) throw new PaymentMethodNotFound();
  if (method.status === 'revoked') throw new PaymentMethodRevoked();
  return method;
}

/** The consumer confirms the stored card on the hosted page, with its security code when the flow's processor needs one. */
async function storedCardSession(
  ports: CreateEarlierPaymentPorts,
  scope: Scope,
  command: EarlierPaymentCommand,
  useCase: 'ONE_OFF' | 'RECURRING' | 'UNSCHEDULED',
  method: PaymentMethod,
): Promise<StoredCardSession> {
  const decision = await decideFlow(ports, scope, {
    use_case: useCase,
    currency_code: command.currencyCode,
    amount: command.amount,
    reference: command.reference,
    scheme: method.card_scheme,
    metadata: command.metadata,
  });
  return {
    token_id: method.token_id,
    masked_account_number: method.card.masked_number,
    scheme: method.card_scheme,
    expiry_month: method.card.expiry_month,
    expiry_year: method.card.expiry_year,
    cardholder_name: method.card.cardholder_name,
    security_code_required: needsSecurityCode(decision.flow, await ports.directory(scope, command.mode)),
  };
}

/**
 * Rules 6 and 7: a merchant-initiated payment on a mandate is the newer interface's subsequent payment
 * on the credentials of the mandate's first payment (its network transaction reference, 3RI, no session).
 */
async function merchantInitiated(
  ports: CreateEarlierPaymentPorts,
  scope: Scope,
  command: EarlierPaymentCommand,
  mandate: PaymentMethod,
  customer: Pick<Customer, 'id' | 'name'> | null,
): Promise<Payment> {
  try {
    return await ports.createSubsequentPayment(scope, {
      mode: command.mode,
      kind: mandate.npr_mandate?.type === 'unscheduled_payments' ? 'UNSCHEDULED' : 'RECURRING',
      initialPaymentId: mandate.first_payment_id,
      amount: command.amount,
      currencyCode: command.currencyCode,
      reference: command.reference,
      metadata: command.metadata,
      authenticationPreference: command.authenticationPreference,
      effectiveAt: command.effectiveAt,
      requestKey: command.requestKey,
      earlier: { customer, payment_method_id: mandate.id, store: null, payment_method: shownPaymentMethod(mandate) },
    });
  } catch (error) {
    if (error instanceof InitialPaymentNotSuccessful) throw new FirstPaymentRequired();
    throw error;
  }
}
