import type { Request, Router } from 'express';
import { isUuid } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import { answers, listResponse, parseInput, parsePageQuery, reply, requireScope, scopeOfRequest } from '@vaultline/http';
import type { CancelPayment } from '../domain/payment/cancel-payment';
import type { CreateRefund } from '../domain/refunds/create-refund';
import type { GetRefund, ListPaymentRefunds, ListRefunds } from '../domain/refunds/query-refunds';
import { RefundNotFound } from '../domain/refunds/refund';
import { PaymentNotFound } from '../domain/payment/payment-errors';
import { toAnyPaymentView } from './earlier-payment.view';
import { cancelBody, filtersOf, refundBody, refundSearchQuery } from './payment.schemas';
import { requestKeyOf } from './payments.routes';
import { toRefundView } from './refund.view';

export interface AfterSaleUseCases {
  cancelPayment: CancelPayment;
  createRefund: CreateRefund;
  getRefund: GetRefund;
  listRefunds: ListRefunds;
  listPaymentRefunds: ListPaymentRefunds;
}

/** The caller's world: a request without a key mode is not a merchant's test request. */

function uuidParam(req: Request, name: string, notFound: () => Error): string {
  const id = req.params[name];
  if (!isUuid(id)) throw notFound();
  return id;
}

/** Cancels and refunds, for payments of both interfaces (they share the payment store). */
export function afterSaleRoutes(router: Router, useCases: AfterSaleUseCases): void {
  const merchant = requireScope(SCOPES.merchant);
  const paymentId = (req: Request) => uuidParam(req, 'payment_id', () => new PaymentNotFound());

  router.post(
    '/payments/:payment_id/cancel',
    merchant,
    answers(async (req) => {
      const id = paymentId(req);
      const body = parseInput(cancelBody, req.body ?? {});
      const payment = await useCases.cancelPayment(scopeOfRequest(req), { paymentId: id, reference: body.reference ?? null, requestKey: requestKeyOf(req) });
      return reply(200, toAnyPaymentView(payment));
    }),
  );

  router.post(
    '/payments/:payment_id/refunds',
    merchant,
    answers(async (req) => {
      const id = paymentId(req);
      const body = parseInput(refundBody, req.body ?? {});
      const refund = await useCases.createRefund(scopeOfRequest(req), {
        paymentId: id,
        amount: body.amount ?? null,
        currencyCode: body.currency_code ?? null,
        reference: body.reference ?? null,
        reason: body.reason ?? null,
        requestKey: requestKeyOf(req),
      });
      return reply(201, toRefundView(refund));
    }),
  );

  router.get('/payments/:payment_id/refunds', merchant, async (req, res) => {
    const refunds = await useCases.listPaymentRefunds(scopeOfRequest(req), paymentId(req));
    res.json({ object: 'list', data: refunds.map(toRefundView), has_more: false, next_cursor: null });
  });

  router.get('/refunds/:refund_id', merchant, async (req, res) => {
    res.json(
      toRefundView(
        await useCases.getRefund(
          scopeOfRequest(req),
          uuidParam(req, 'refund_id', () => new RefundNotFound()),
        ),
      ),
    );
  });

  router.get('/refunds', merchant, async (req, res) => {
    const page = parsePageQuery(req.query);
    const filters = parseInput(refundSearchQuery, filtersOf(req.query, ['status', 'payment_id']));
    res.json(listResponse(await useCases.listRefunds(scopeOfRequest(req), filters, page), toRefundView));
  });
}
