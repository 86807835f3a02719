import type { Request, Router } from 'express';
import { isUuid, type Scope, type Mode } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import { answers, authOf, listResponse, parseInput, parsePageQuery, reply, requestRouteOf, requireScope, scopeOfRequest, testClockOf } from '@vaultline/http';
import type { CapturePayment } from '../domain/payment/capture-payment';
import type { CreatePayment } from '../domain/payment/create-payment';
import type { CreateSubsequentPayment } from '../domain/payment/create-subsequent-payment';
import { PaymentNotFound } from '../domain/payment/payment-errors';
import type { PaymentRequestKey } from '../domain/payment/payment-requests';
import type { GetPayment, ListPayments, ListTransactions } from '../domain/payment/query-payments';
import { captureBody, filtersOf, oneOffBody, paymentSearchQuery, recurringBody, subsequentBody, unscheduledBody } from './payment.schemas';
import { toAnyPaymentView } from './earlier-payment.view';
import { toPaymentView, toTransactionView } from './payment.view';

export interface PaymentUseCases {
  createPayment: CreatePayment;
  createSubsequentPayment: CreateSubsequentPayment;
  capturePayment: CapturePayment;
  getPayment: GetPayment;
  listPayments: ListPayments;
  listTransactions: ListTransactions;
  /** Starts a payment's flow at once after the request committed. */
  runPayment: (scope: Scope, paymentId: string) => void;
}

/** A request without a key mode is not a merchant's test request: the simulator is not offered to it. */
const modeOf = (req: Request): Mode => scopeOfRequest(req).mode;

function paymentIdOf(req: Request): string {
  const id = req.params.payment_id;
  if (!isUuid(id)) throw new PaymentNotFound();
  return id;
}

/** The newer payment interface (beta). Every answer is the JSON payment, HTTP 200; reads answer each payment in its interface's shape. */
export function paymentRoutes(router: Router, useCases: PaymentUseCases): void {
  const merchant = requireScope(SCOPES.merchant);

  router.post(
    '/payments/one-off',
    merchant,
    answers(async (req) => {
      const body = parseInput(oneOffBody, req.body);
      return reply(200, toPaymentView(await useCases.createPayment(scopeOfRequest(req), { ...initialCommand(req, body), useCase: 'ONE_OFF' })));
    }),
  );

  router.post(
    '/payments/recurring',
    merchant,
    answers(async (req) => {
      const body = parseInput(recurringBody, req.body);
      const command = {
        ...initialCommand(req, body),
        useCase: 'RECURRING' as const,
        recurringFrequency: body.recurring_frequency,
        recurringExpiry: body.recurring_expiry,
      };
      return reply(200, toPaymentView(await useCases.createPayment(scopeOfRequest(req), command)));
    }),
  );

  router.post(
    '/payments/unscheduled',
    merchant,
    answers(async (req) => {
      const body = parseInput(unscheduledBody, req.body);
      return reply(200, toPaymentView(await useCases.createPayment(scopeOfRequest(req), { ...initialCommand(req, body), useCase: 'UNSCHEDULED' })));
    }),
  );

  for (const kind of ['RECURRING', 'UNSCHEDULED'] as const) {
    router.post(
      `/payments/${kind.toLowerCase()}/:payment_id/subsequent`,
      merchant,
      answers(async (req) => {
        // The test clock first: a malformed X-Test-Now is refused before the body is looked at.
        const effectiveAt = testClockOf(req);
        const initialPaymentId = paymentIdOf(req);
        const body = parseInput(subsequentBody, req.body);
        const scope = scopeOfRequest(req);
        const payment = await useCases.createSubsequentPayment(scope, {
          mode: modeOf(req),
          kind,
          initialPaymentId,
          amount: body.amount,
          currencyCode: body.currency_code,
          reference: body.reference ?? null,
          metadata: body.metadata ?? null,
          authenticationPreference: body.authentication_preference,
          effectiveAt,
          requestKey: requestKeyOf(req),
        });
        useCases.runPayment(scope, payment.id);
        return reply(200, toPaymentView(payment));
      }),
    );
  }

  router.post(
    '/payments/:payment_id/capture',
    merchant,
    answers(async (req) => {
      const paymentId = paymentIdOf(req);
      const body = parseInput(captureBody, req.body ?? {});
      const scope = scopeOfRequest(req);
      const payment = await useCases.capturePayment(scope, {
        paymentId,
        reference: body.reference ?? null,
        amount: body.amount ?? null,
        currencyCode: body.currency_code ?? null,
        finalCapture: body.final_capture ?? null,
        requestKey: requestKeyOf(req),
      });
      useCases.runPayment(scope, payment.id);
      return reply(200, toAnyPaymentView(payment));
    }),
  );

  router.get('/payments/:payment_id/transactions', merchant, async (req, res) => {
    const transactions = await useCases.listTransactions(scopeOfRequest(req), paymentIdOf(req));
    res.json({ object: 'list', data: transactions.map(toTransactionView) });
  });

  router.get('/payments/:payment_id', merchant, async (req, res) => {
    res.json(toAnyPaymentView(await useCases.getPayment(scopeOfRequest(req), paymentIdOf(req))));
  });

  router.get('/payments', merchant, async (req, res) => {
    const page = parsePageQuery(req.query);
    const filters = parseInput(paymentSearchQuery, filtersOf(req.query, ['status', 'reference', 'customer_id', 'use_case', 'created_gte', 'created_lte']));
    res.json(listResponse(await useCases.listPayments(scopeOfRequest(req), filters, page), toAnyPaymentView));
  });
}

function initialCommand(
  req: Request,
  body: {
    amount: number;
    currency_code: string;
    reference?: string;
    return_url?: string;
    allowed_origins?: string[];
    metadata?: Record<string, string>;
    description?: string;
    locale?: string;
  },
) {
  return {
    mode: modeOf(req),
    merchantName: authOf(req).merchantName,
    amount: body.amount,
    currencyCode: body.currency_code,
    reference: body.reference ?? null,
    metadata: body.metadata ?? null,
    returnUrl: body.return_url ?? null,
    allowedOrigins: body.allowed_origins ?? null,
    description: body.description ?? null,
    locale: body.locale ?? null,
    recurringFrequency: null,
    recurringExpiry: null,
    requestKey: requestKeyOf(req),
  };
}

/**
 * The merchant's Idempotency-Key (checked by the Idempotency-Key layer before the route runs), scoped to
 * the key's mode and the route: its name with the values of its parameters (`POST /payments/{id}/capture`),
 * never the path as spelled, so `/payments/one-off` and `/payments/One-Off/` name one request.
 */
export function requestKeyOf(req: Request): PaymentRequestKey | null {
  const key = req.get('idempotency-key');
  return key && key.length <= 255 ? { mode: modeOf(req), route: requestRouteOf(req), key } : null;
}
