import type { Router } from 'express';
import { SCOPES } from '@vaultline/auth';
import { authOf, parseInput, requireScope, testClockOf } from '@vaultline/http';
import type { CreateEarlierPayment } from '../domain/create-earlier-payment';
import { earlierPaymentBody } from './earlier-payment.schemas';
import { requestKeyOf } from './payments.routes';
import { toEarlierPaymentView } from './earlier-payment.view';

export interface EarlierPaymentUseCases {
  createEarlierPayment: CreateEarlierPayment;
  runPayment: (merchantId: string, paymentId: string) => void;
}

/** The earlier payment interface: POST /payments, 201 with the payment in the earlier shape. */
export function earlierPaymentRoutes(router: Router, useCases: EarlierPaymentUseCases): void {
  router.post('/payments', requireScope(SCOPES.merchant), async (req, res) => {
    const effectiveAt = testClockOf(req);
    const body = parseInput(earlierPaymentBody, req.body);
    const { merchantId, mode } = authOf(req);
    const store = body.store_payment_method_for;
    const payment = await useCases.createEarlierPayment(merchantId, {
      // A request without a key mode is not a merchant's test request: the simulator is not offered to it.
      mode: mode ?? 'live',
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
    if (payment.session === null) useCases.runPayment(merchantId, payment.id);
    res.status(201).json(toEarlierPaymentView(payment));
  });
}
