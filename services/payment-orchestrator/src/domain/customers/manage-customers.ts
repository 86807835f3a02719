import { newId, type Scope } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { CustomerNotFound, type Customer } from './customer';
import { PaymentMethodNotFound, PaymentMethodRevoked, type PaymentMethod } from './payment-method';
import type { Clock } from '@vaultline/core';
import type { CustomerRepository, PaymentMethodRepository } from './customer-ports';
import type { TransactionRunner } from '@vaultline/store';

export interface ManageCustomersPorts {
  customers: CustomerRepository;
  paymentMethods: PaymentMethodRepository;
  transaction: TransactionRunner;
  clock: Clock;
}

export interface NewCustomer {
  name: string;
  email: string | null;
  metadata: Record<string, string> | null;
}

export type CreateCustomer = (scope: Scope, input: NewCustomer) => Promise<Customer>;
export type GetCustomer = (scope: Scope, id: string) => Promise<Customer>;
export type ListCustomers = (scope: Scope, page: PageRequest) => Promise<Page<Customer>>;
export type ListCustomerPaymentMethods = (scope: Scope, customerId: string, page: PageRequest) => Promise<Page<PaymentMethod>>;
export type GetPaymentMethod = (scope: Scope, id: string) => Promise<PaymentMethod>;
export type RevokePaymentMethod = (scope: Scope, id: string) => Promise<PaymentMethod>;

export function createCustomer({ customers, transaction, clock }: ManageCustomersPorts): CreateCustomer {
  return (scope, input) =>
    transaction((uow) =>
      customers.insert(uow, {
        id: newId(),
        merchant_id: scope.merchantId,
        mode: scope.mode,
        name: input.name,
        email: input.email,
        metadata: input.metadata,
        created_at: clock.now().toISOString(),
      }),
    );
}

export function getCustomer({ customers }: ManageCustomersPorts): GetCustomer {
  return async (scope, id) => {
    const customer = await customers.get(scope, id);
    if (!customer) throw new CustomerNotFound();
    return customer;
  };
}

export function listCustomers({ customers }: ManageCustomersPorts): ListCustomers {
  return (scope, page) => customers.list(scope, page);
}

/** The customer's stored cards and mandates that are not revoked. */
export function listCustomerPaymentMethods(ports: ManageCustomersPorts): ListCustomerPaymentMethods {
  const customer = getCustomer(ports);
  return async (scope, customerId, page) => {
    await customer(scope, customerId);
    return ports.paymentMethods.listForCustomer(scope, customerId, page);
  };
}

/** A revoked method is gone for every use, reading included (410). */
export function getPaymentMethod({ paymentMethods }: ManageCustomersPorts): GetPaymentMethod {
  return async (scope, id) => {
    const method = await paymentMethods.get(scope, id);
    if (!method) throw new PaymentMethodNotFound();
    if (method.status === 'revoked') throw new PaymentMethodRevoked();
    return method;
  };
}

/**
 * Revokes a stored card or mandate: later payments with it answer 410. Payments already under way keep
 * running (their card was confirmed before the revocation). Compare-and-set: of two revocations one wins.
 */
export function revokePaymentMethod(ports: ManageCustomersPorts): RevokePaymentMethod {
  const get = getPaymentMethod(ports);
  return async (scope, id) => {
    const method = await get(scope, id);
    const now = ports.clock.now().toISOString();
    return ports.transaction((uow) => ports.paymentMethods.update(uow, { ...method, status: 'revoked', revoked_at: now }));
  };
}
