import type { Scope } from '@vaultline/core';
import type { Router } from 'express';
import { SCOPES } from '@vaultline/auth';
import { answers, authOf, parseInput, reply, requireScope, scopeOfRequest, testClockOf } from '@vaultline/http';
import type { CreateEarlierPayment } from '../domain/payment/create-earlier-payment';
import { earlierPaymentBody } from './earlier-payment.schemas';
import { requestKeyOf } from './payments.routes';
import { toEarlierPaymentView } from './earlier-payment.view';

export interface EarlierPaymentUseCases {
  createEarlierPayment: CreateEarlierPayment;
  runPayment: (scope: Scope, paymentId: string) => void;
}

/** The earlier payment interface: POST /payments, 201 with the payment in the earlier shape. */
export function earlierPaymentRoutes(router: Router, useCases: EarlierPaymentUseCases): void {
  router.post(
    '/payments',
    requireScope(SCOPES.merchant),
    answers(async (req) => {
      const effectiveAt = testClockOf(req);
      const body = parseInput(earlierPaymentBody, req.body);
      const scope = scopeOfRequest(req);
      const store = body.store_payment_method_for;
      const payment = await useCases.createEarlierPayment(scope, {
        mode: scope.mode,
        merchantName: authOf(req).merchantName,
        amount: body.amount,
        currencyCode: body.currency_code,
        confirm: body.confirm,
        storePaymentMethodFor: store ? { use_case: store.use_case, mandate_reference: store.mandate_reference ?? null } : null,
        customerId: body.customer_id ?? null,
        paymentMethodId: body.payment_method_id ?? null,
        reference: body.reference ?? null,
        metadata: body.metadata ?? null,
        returnUrl: body.return_url ?? null,
        allowedOrigins: body.allowed_origins ?? null,
        description: body.description ?? null,
        locale: body.locale ?? null,
        authenticationPreference: body.authentication_preference,
        effectiveAt,
        requestKey: requestKeyOf(req),
      });
      // A merchant-initiated payment runs at once; a consumer-present one waits for its session.
      if (payment.session === null) useCases.runPayment(scope, payment.id);
      return reply(201, toEarlierPaymentView(payment));
    }),
  );
}
