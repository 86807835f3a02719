import type { Request, Router } from 'express';
import { SCOPES } from '@vaultline/auth';
import { isUuid } from '@vaultline/core';
import { answers, listResponse, parseInput, parsePageQuery, reply, requireScope, scopeOfRequest } from '@vaultline/http';
import { CustomerNotFound } from '../domain/customers/customer';
import { PaymentMethodNotFound } from '../domain/customers/payment-method';
import type {
  CreateCustomer,
  GetCustomer,
  GetPaymentMethod,
  ListCustomerPaymentMethods,
  ListCustomers,
  RevokePaymentMethod,
} from '../domain/customers/manage-customers';
import { customerBody } from './earlier-payment.schemas';
import { toCustomerView, toPaymentMethodView } from './earlier-payment.view';

export interface CustomerUseCases {
  createCustomer: CreateCustomer;
  getCustomer: GetCustomer;
  listCustomers: ListCustomers;
  listCustomerPaymentMethods: ListCustomerPaymentMethods;
  getPaymentMethod: GetPaymentMethod;
  revokePaymentMethod: RevokePaymentMethod;
}

function idOf(req: Request, notFound: () => Error): string {
  const id = req.params.id;
  if (!isUuid(id)) throw notFound();
  return id;
}
const customerIdOf = (req: Request) => idOf(req, () => new CustomerNotFound());
const paymentMethodIdOf = (req: Request) => idOf(req, () => new PaymentMethodNotFound());

/** Earlier interface: customers, their stored cards and mandates. */
export function customerRoutes(router: Router, useCases: CustomerUseCases): void {
  const merchant = requireScope(SCOPES.merchant);

  router.post(
    '/customers',
    merchant,
    answers(async (req) => {
      const body = parseInput(customerBody, req.body);
      return reply(
        201,
        toCustomerView(await useCases.createCustomer(scopeOfRequest(req), { name: body.name, email: body.email ?? null, metadata: body.metadata ?? null })),
      );
    }),
  );

  router.get('/customers', merchant, async (req, res) => {
    res.json(listResponse(await useCases.listCustomers(scopeOfRequest(req), parsePageQuery(req.query)), toCustomerView));
  });

  router.get('/customers/:id', merchant, async (req, res) => {
    res.json(toCustomerView(await useCases.getCustomer(scopeOfRequest(req), customerIdOf(req))));
  });

  router.get('/customers/:id/payment-methods', merchant, async (req, res) => {
    const customerId = customerIdOf(req);
    res.json(listResponse(await useCases.listCustomerPaymentMethods(scopeOfRequest(req), customerId, parsePageQuery(req.query)), toPaymentMethodView));
  });

  router.get('/payment-methods/:id', merchant, async (req, res) => {
    res.json(toPaymentMethodView(await useCases.getPaymentMethod(scopeOfRequest(req), paymentMethodIdOf(req))));
  });

  router.delete('/payment-methods/:id', merchant, async (req, res) => {
    await useCases.revokePaymentMethod(scopeOfRequest(req), paymentMethodIdOf(req));
    res.status(204).end();
  });
}
