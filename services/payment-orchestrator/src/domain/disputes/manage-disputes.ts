import { ConflictError, ForbiddenError, NotFoundError, type Clock, type Scope } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { PaymentNotFound } from '../payment/payment-errors';
import type { PaymentRepository } from '../payment/payment-ports';
import type { Dispute, DisputeReason, DisputeStatus } from './dispute';
import type { DisputeRepository, DisputeSearch } from './dispute-ports';
import type { RecordDispute } from './record-dispute';
import { simulatedEvidenceDueBy } from './simulated-chargeback';

export class DisputeNotFound extends NotFoundError {
  constructor() {
    super('dispute');
  }
}

class DisputeNotAllowed extends ConflictError {
  constructor(status: string) {
    super('dispute_not_allowed', `Only a captured payment can be disputed; this one is ${status}.`);
  }
}

class TestModeOnly extends ForbiddenError {
  constructor() {
    super("Disputes are simulated with a test key only; live disputes come from the processor's notifications.", 'test_mode_only');
  }
}

export interface DisputeQueryPorts {
  payments: PaymentRepository;
  disputes: DisputeRepository;
}

export type GetDispute = (scope: Scope, disputeId: string) => Promise<Dispute>;
export type ListDisputes = (scope: Scope, filters: DisputeSearch, page: PageRequest) => Promise<Page<Dispute>>;
export type ListPaymentDisputes = (scope: Scope, paymentId: string, page: PageRequest) => Promise<Page<Dispute>>;

export function getDispute({ disputes }: DisputeQueryPorts): GetDispute {
  return async (scope, disputeId) => {
    const dispute = await disputes.get(scope, disputeId);
    if (!dispute) throw new DisputeNotFound();
    return dispute;
  };
}

export function listDisputes({ disputes }: DisputeQueryPorts): ListDisputes {
  return (scope, filters, page) => disputes.list(scope, filters, page);
}

export function listPaymentDisputes({ payments, disputes }: DisputeQueryPorts): ListPaymentDisputes {
  return async (scope, paymentId, page) => {
    const payment = await payments.get(scope, paymentId);
    if (!payment) throw new PaymentNotFound();
    return disputes.listForPayment(scope, paymentId, page);
  };
}

export interface TestDisputeCommand {
  paymentId: string;
  status: DisputeStatus;
  reason: DisputeReason;
  amount: number | null;
  /** Until when evidence is taken (default: a week after the dispute opens); a time in the past tests the deadline. */
  evidenceDueBy: string | null;
}

/** The stage a simulated status stands at, as a processor's notifications would put it. */
const SIMULATED_STAGE: Record<DisputeStatus, number> = { needs_response: 1, under_review: 2, won: 3, lost: 3 };

export type OpenTestDispute = (scope: Scope, command: TestDisputeCommand) => Promise<Dispute>;

/**
 * Test mode only: plays the processor's part for a captured payment. The first call opens the payment's
 * simulated dispute (`needs_response` unless told otherwise); later calls move it as the processor's
 * notifications would (under_review, then won or lost); a call that would move it back changes nothing.
 * It goes through the same recording, events and webhooks as a real chargeback notification.
 */
export function openTestDispute(ports: { payments: PaymentRepository; record: RecordDispute; clock: Clock }): OpenTestDispute {
  const { payments, record } = ports;
  return async (scope, command) => {
    // Looked up first: a key of the other mode learns nothing of the payment (404), as on every route.
    const payment = await payments.get(scope, command.paymentId);
    if (!payment) throw new PaymentNotFound();
    if (scope.mode !== 'test') throw new TestModeOnly();
    if (payment.status !== 'captured') throw new DisputeNotAllowed(payment.status);
    const dispute = await record({ id: 'simulator', merchant_id: payment.merchant_id, mode: payment.mode }, null, {
      processor_reference: `sim_dp_${payment.id}`,
      payment_reference: payment.id,
      status: command.status,
      stage: SIMULATED_STAGE[command.status],
      amount: command.amount ?? payment.amount.captured ?? payment.amount.requested,
      currency_code: payment.currency_code,
      reason: command.reason,
      event: `simulated_${command.status}`,
      evidence_due_by: command.evidenceDueBy ?? simulatedEvidenceDueBy(ports.clock.now()),
    });
    // The payment exists, so the dispute was recorded (a move backwards leaves it as it stands).
    return dispute!;
  };
}
