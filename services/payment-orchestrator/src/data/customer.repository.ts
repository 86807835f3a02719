import type { Scope } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { Customer } from '../domain/customers/customer';
import type { PaymentMethod } from '../domain/customers/payment-method';
import type { CustomerRepository, PaymentMethodRepository } from '../domain/customers/customer-ports';
import { CUSTOMERS, PAYMENT_METHODS } from './collections';

export class StoreCustomerRepository implements CustomerRepository {
  constructor(private readonly store: DocumentStore) {}

  get(scope: Scope, id: string): Promise<Customer | null> {
    return this.store.collection<Customer>(CUSTOMERS).get(scope, id);
  }

  list(scope: Scope, page: PageRequest): Promise<Page<Customer>> {
    return this.store.collection<Customer>(CUSTOMERS).list(scope, {}, page);
  }

  insert(uow: UnitOfWork, customer: Omit<Customer, 'version'>): Customer {
    return uow.insert<Customer>(CUSTOMERS, customer);
  }
}

export class StorePaymentMethodRepository implements PaymentMethodRepository {
  constructor(private readonly store: DocumentStore) {}

  get(scope: Scope, id: string): Promise<PaymentMethod | null> {
    return this.store.collection<PaymentMethod>(PAYMENT_METHODS).get(scope, id);
  }

  listForCustomer(scope: Scope, customerId: string, page: PageRequest): Promise<Page<PaymentMethod>> {
    return this.store.collection<PaymentMethod>(PAYMENT_METHODS).list(scope, { customer_id: customerId, status: 'active' }, page);
  }

  insert(uow: UnitOfWork, method: Omit<PaymentMethod, 'version'>): PaymentMethod {
    return uow.insert<PaymentMethod>(PAYMENT_METHODS, method);
  }

  update(uow: UnitOfWork, method: PaymentMethod): PaymentMethod {
    return uow.update<PaymentMethod>(PAYMENT_METHODS, method);
  }
}
