import { AppError, ConflictError, newId, type Clock, type Scope } from '@vaultline/core';
import { ConcurrentModificationError, type TransactionRunner } from '@vaultline/store';
import type { PaymentRepository } from '../payment/payment-ports';
import type { DisputeActionOutcome, ProcessorConnection, ProcessorDirectory, ProcessorDispute } from '../processor-port/processor-port';
import { assertActionAllowed, disputeAfterAction, type Dispute, type DisputeAction } from './dispute';
import type { DisputeEvidence } from '../payment-vocabulary/dispute-evidence';
import type { DisputeRepository } from './dispute-ports';
import { DisputeNotFound } from './manage-disputes';
import { commitDisputeMove } from './record-dispute';

export interface AnswerDisputePorts {
  payments: PaymentRepository;
  disputes: DisputeRepository;
  directory: ProcessorDirectory;
  transaction: TransactionRunner;
  clock: Clock;
}

export type AcceptDispute = (scope: Scope, disputeId: string) => Promise<Dispute>;
export type SubmitDisputeEvidence = (scope: Scope, disputeId: string, evidence: DisputeEvidence) => Promise<Dispute>;

/** The processor that reported the dispute cannot take answers through its API (its account was deleted, or its processor has no such API). */
class DisputeAnswerNotSupported extends ConflictError {
  constructor() {
    super(
      'dispute_answer_not_supported',
      "The processor account that reported this dispute is gone, or its processor takes no answer through its API: answer it in the processor's own dashboard.",
    );
  }
}

/** The processor refused the answer (its message quoted): the dispute stays as it was. */
class DisputeActionRefused extends ConflictError {
  constructor(detail: string) {
    super('dispute_action_refused', `The processor refused it: ${detail}`);
  }
}

/** The processor cannot take this piece of evidence at all; nothing was sent. */
class EvidenceNotSupported extends AppError {
  constructor(field: string, detail: string) {
    super('evidence_not_supported', 422, detail, { field });
  }
}

/** The processor did not answer (timeout, 5xx): nothing is known to have changed; the same request may be sent again. */
class ProcessorUnavailable extends AppError {
  constructor() {
    super('processor_unavailable', 503, 'The processor did not answer (timeout or a server error); send the request again.', {}, true);
  }
}

/** How many times a taken answer is committed again when the dispute moved meanwhile (a notification between). */
const ATTEMPTS = 5;

function throwUnless(outcome: DisputeActionOutcome): void {
  if (outcome.status === 'succeeded') return;
  if (outcome.status === 'refused') throw new DisputeActionRefused(outcome.detail);
  if (outcome.status === 'unsupported') throw new EvidenceNotSupported(outcome.field, outcome.detail);
  throw new ProcessorUnavailable();
}

/**
 * A merchant's answer to a dispute: checked against the dispute (only one that needs a response, and
 * evidence before its due time), sent to the processor account that reported it (outside any unit of
 * work), then the dispute's move committed with its events (compare-and-set; a processor's notification
 * that moved it meanwhile is read again, and the answer's move applies only while the dispute still
 * needs a response: the processor's word is newer).
 */
function answerDispute(
  ports: AnswerDisputePorts,
  action: DisputeAction,
  send: (connection: ProcessorConnection, dispute: ProcessorDispute) => Promise<DisputeActionOutcome> | null,
) {
  return async (scope: Scope, disputeId: string): Promise<Dispute> => {
    const dispute = await ports.disputes.get(scope, disputeId);
    if (!dispute) throw new DisputeNotFound();
    assertActionAllowed(dispute, action, ports.clock.now());
    const payment = await ports.payments.get(scope, dispute.payment_id);
    const connection = (await ports.directory(scope, dispute.mode)).get(dispute.processor);
    const request: ProcessorDispute = {
      dispute_id: dispute.id,
      merchant_id: dispute.merchant_id,
      mode: dispute.mode,
      processor_reference: dispute.processor_reference,
      payment_reference: payment?.progress.authorization_reference ?? null,
      // One key per request: a processor keeps a first answer for its key, an error too (Stripe's 500s), so a retry gets a fresh one.
      idempotency_key: `${dispute.id}:${action.kind}:${newId()}`,
    };
    const sent = connection && payment ? send(connection, request) : null;
    if (!sent) throw new DisputeAnswerNotSupported();
    throwUnless(await sent);
    for (let attempt = 1; ; attempt++) {
      const current = (await ports.disputes.get(scope, disputeId))!;
      const paymentNow = (await ports.payments.get(scope, dispute.payment_id))!;
      if (current.status !== 'needs_response') return current;
      const now = ports.clock.now();
      const move = disputeAfterAction(current, action, now);
      if (move.changes.length === 0) return current;
      try {
        return await ports.transaction((uow) => commitDisputeMove(ports, uow, paymentNow, current, move, now));
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError) || attempt >= ATTEMPTS) throw error;
      }
    }
  };
}

/** POST /disputes/{dispute_id}/accept: the merchant gives the dispute up; the processor closes it, lost. */
export function acceptDispute(ports: AnswerDisputePorts): AcceptDispute {
  return answerDispute(ports, { kind: 'accept' }, (connection, dispute) => connection.acceptDispute?.(dispute) ?? null);
}

/** POST /disputes/{dispute_id}/evidence: the merchant's evidence, staged at the processor or submitted for review. */
export function submitDisputeEvidence(ports: AnswerDisputePorts): SubmitDisputeEvidence {
  return (scope, disputeId, evidence) =>
    answerDispute(
      ports,
      { kind: 'evidence', submit: evidence.submit },
      (connection, dispute) => connection.submitDisputeEvidence?.(dispute, evidence) ?? null,
    )(scope, disputeId);
}
