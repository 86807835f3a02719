import type { Request, Router } from 'express';
import { z } from 'zod';
import { isUuid } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import { answers, listResponse, parseInput, parsePageQuery, reply, requireScope, scopeOfRequest } from '@vaultline/http';
import { DISPUTE_STATUSES, type DisputeReason } from '../domain/disputes/dispute';
import { DisputeNotFound, type GetDispute, type ListDisputes, type ListPaymentDisputes, type OpenTestDispute } from '../domain/disputes/manage-disputes';
import type { AcceptDispute, SubmitDisputeEvidence } from '../domain/disputes/answer-dispute';
import type { DisputeSearch } from '../domain/disputes/dispute-ports';
import { PaymentNotFound } from '../domain/payment/payment-errors';
import { toDisputeView } from './dispute.view';
import { DISPUTE_FILTERS, disputeSearchQuery, evidenceBody, evidenceOf } from './dispute.schemas';
import { filtersOf } from './payment.schemas';

export interface DisputeUseCases {
  getDispute: GetDispute;
  listDisputes: ListDisputes;
  listPaymentDisputes: ListPaymentDisputes;
  openTestDispute: OpenTestDispute;
  acceptDispute: AcceptDispute;
  submitDisputeEvidence: SubmitDisputeEvidence;
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
    evidence_due_by: z.string().datetime({ offset: true, message: 'evidence_due_by must be an ISO 8601 time with its offset.' }).optional(),
  })
  .strict();

const acceptBody = z.object({}).strict();

/** The key's merchant in the key's mode (a request without a mode is live, as for payments). */

function idOf(raw: unknown, notFound: () => Error): string {
  const id = String(raw);
  if (!isUuid(id)) throw notFound();
  return id;
}

/** Disputes: read, answered (accepted, or evidence sent to the processor), and the simulator's test route. */
export function disputeRoutes(router: Router, useCases: DisputeUseCases): void {
  const merchant = requireScope(SCOPES.merchant);
  const disputeId = (req: Request) => idOf(req.params.dispute_id, () => new DisputeNotFound());

  router.get('/disputes', merchant, async (req, res) => {
    const page = parsePageQuery(req.query);
    const filters = parseInput(disputeSearchQuery, filtersOf(req.query, DISPUTE_FILTERS)) as DisputeSearch;
    res.json(listResponse(await useCases.listDisputes(scopeOfRequest(req), filters, page), toDisputeView));
  });

  router.get('/disputes/:dispute_id', merchant, async (req, res) => {
    res.json(toDisputeView(await useCases.getDispute(scopeOfRequest(req), disputeId(req))));
  });

  router.post(
    '/disputes/:dispute_id/accept',
    merchant,
    answers(async (req) => {
      const id = disputeId(req);
      parseInput(acceptBody, req.body ?? {});
      return reply(200, toDisputeView(await useCases.acceptDispute(scopeOfRequest(req), id)));
    }),
  );

  router.post(
    '/disputes/:dispute_id/evidence',
    merchant,
    answers(async (req) => {
      const id = disputeId(req);
      const evidence = evidenceOf(parseInput(evidenceBody, req.body ?? {}));
      return reply(200, toDisputeView(await useCases.submitDisputeEvidence(scopeOfRequest(req), id, evidence)));
    }),
  );

  router.get('/payments/:payment_id/disputes', merchant, async (req, res) => {
    const paymentId = idOf(req.params.payment_id, () => new PaymentNotFound());
    res.json(listResponse(await useCases.listPaymentDisputes(scopeOfRequest(req), paymentId, parsePageQuery(req.query)), toDisputeView));
  });

  router.post(
    '/payments/:payment_id/test/dispute',
    merchant,
    answers(async (req) => {
      const paymentId = idOf(req.params.payment_id, () => new PaymentNotFound());
      const body = parseInput(testDisputeBody, req.body ?? {});
      const dispute = await useCases.openTestDispute(scopeOfRequest(req), {
        paymentId,
        status: (body.status ?? 'needs_response') as (typeof DISPUTE_STATUSES)[number],
        reason: body.reason ?? 'fraudulent',
        amount: body.amount ?? null,
        evidenceDueBy: body.evidence_due_by ? new Date(body.evidence_due_by).toISOString() : null,
      });
      return reply(200, toDisputeView(dispute));
    }),
  );
}
