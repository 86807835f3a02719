import type { Request, Router } from 'express';
import { z } from 'zod';
import { isUuid, scopeOf, type Scope } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import { answers, authOf, listResponse, parseInput, parsePageQuery, reply, requireScope } from '@vaultline/http';
import { DISPUTE_STATUSES, type DisputeReason } from '../domain/disputes/dispute';
import { DisputeNotFound, type GetDispute, type ListDisputes, type ListPaymentDisputes, type OpenTestDispute } from '../domain/disputes/manage-disputes';
import { PaymentNotFound } from '../domain/payment/payment-errors';
import { toDisputeView } from './dispute.view';

export interface DisputeUseCases {
  getDispute: GetDispute;
  listDisputes: ListDisputes;
  listPaymentDisputes: ListPaymentDisputes;
  openTestDispute: OpenTestDispute;
}

const REASONS: [DisputeReason, ...DisputeReason[]] = [
  'fraudulent',
  'unrecognized',
  'duplicate',
  'subscription_canceled',
  'product_not_received',
  'product_unacceptable',
  'credit_not_processed',
  'incorrect_amount',
  'general',
];

const testDisputeBody = z
  .object({
    status: z.enum(DISPUTE_STATUSES as [string, ...string[]]).optional(),
    reason: z.enum(REASONS).optional(),
    amount: z.number().int().positive().optional(),
  })
  .strict();

/** The key's merchant in the key's mode (a request without a mode is live, as for payments). */
const scopeOfRequest = (req: Request): Scope => scopeOf(authOf(req).merchantId, authOf(req).mode ?? 'live');

function idOf(raw: unknown, notFound: () => Error): string {
  const id = String(raw);
  if (!isUuid(id)) throw notFound();
  return id;
}

/** Disputes: read-only (evidence is answered in the processor's dashboard), plus the simulator's test route. */
export function disputeRoutes(router: Router, useCases: DisputeUseCases): void {
  const merchant = requireScope(SCOPES.merchant);

  router.get('/disputes', merchant, async (req, res) => {
    res.json(listResponse(await useCases.listDisputes(scopeOfRequest(req), parsePageQuery(req.query)), toDisputeView));
  });

  router.get('/disputes/:dispute_id', merchant, async (req, res) => {
    res.json(toDisputeView(await useCases.getDispute(scopeOfRequest(req), idOf(req.params.dispute_id, () => new DisputeNotFound()))));
  });

  router.get('/payments/:payment_id/disputes', merchant, async (req, res) => {
    const paymentId = idOf(req.params.payment_id, () => new PaymentNotFound());
    res.json(listResponse(await useCases.listPaymentDisputes(scopeOfRequest(req), paymentId, parsePageQuery(req.query)), toDisputeView));
  });

  router.post('/payments/:payment_id/test/dispute', merchant, answers(async (req) => {
    const paymentId = idOf(req.params.payment_id, () => new PaymentNotFound());
    const body = parseInput(testDisputeBody, req.body ?? {});
    const dispute = await useCases.openTestDispute(scopeOfRequest(req), {
      paymentId,
      status: (body.status ?? 'needs_response') as (typeof DISPUTE_STATUSES)[number],
      reason: body.reason ?? 'fraudulent',
      amount: body.amount ?? null,
    });
    return reply(200, toDisputeView(dispute));
  }));
}
