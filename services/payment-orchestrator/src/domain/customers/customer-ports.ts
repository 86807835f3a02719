import type { Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { Customer } from './customer';
import type { PaymentMethod } from './payment-method';

/** Earlier interface: a merchant's customers. */
export interface CustomerRepository {
  get(scope: Scope, id: string): Promise<Customer | null>;
  list(scope: Scope, page: PageRequest): Promise<Page<Customer>>;
  insert(uow: UnitOfWork, customer: Omit<Customer, 'version'>): Customer;
}

/** Earlier interface: stored cards and NPR mandates. */
export interface PaymentMethodRepository {
  get(scope: Scope, id: string): Promise<PaymentMethod | null>;
  /** A customer's methods that are not revoked. */
  listForCustomer(scope: Scope, customerId: string, page: PageRequest): Promise<Page<PaymentMethod>>;
  insert(uow: UnitOfWork, method: Omit<PaymentMethod, 'version'>): PaymentMethod;
  /** Compare-and-set on the version the method was read with. */
  update(uow: UnitOfWork, method: PaymentMethod): PaymentMethod;
}
