import { newId } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import { withDisputeHold, type Payment } from '../payment/payment';
import { applyDisputeSignal, holdsFunds } from './dispute';
import { disputeEvents } from './dispute-events';
import type { DisputeRepository } from './dispute-ports';

/**
 * The simulator's disputed card, as Stripe's test cards have one: a payment the built-in simulator
 * captures with 4000 0000 0000 2685 (masked `400000******2685`) is disputed at once, in the capture's
 * commit — a chargeback in `needs_response`, reason `product_not_received`, with `dispute.created` — while
 * it is still refundable: the payment shows `amount.disputed` and a refund answers 409 payment_disputed.
 * Test mode only (the simulator serves nothing else). `POST /payments/{id}/test/dispute` then moves it like
 * any simulated dispute, and POST /disputes/{id}/accept or /evidence answers it.
 */
const SIMULATOR_DISPUTED_CARD = '400000******2685';

/** How long the simulator takes evidence for a dispute it opens (Stripe's test disputes give about a week). */
const SIMULATED_EVIDENCE_DAYS = 7;

export function simulatedEvidenceDueBy(at: Date): string {
  return new Date(at.getTime() + SIMULATED_EVIDENCE_DAYS * 86_400_000).toISOString();
}

export function simulatedChargeback({ disputes }: { disputes: DisputeRepository }): (uow: UnitOfWork, payment: Payment, at: Date) => Payment {
  return (uow, payment, at) => {
    if (payment.mode !== 'test' || payment.progress.authorized_by !== 'simulator' || payment.source?.masked_account_number !== SIMULATOR_DISPUTED_CARD)
      return payment;
    const amount = payment.amount.captured ?? payment.amount.requested;
    const move = applyDisputeSignal(
      null,
      {
        processor_reference: `sim_dp_${payment.id}`,
        payment_reference: payment.id,
        status: 'needs_response',
        stage: 1,
        amount,
        currency_code: payment.currency_code,
        reason: 'product_not_received',
        event: 'simulated_needs_response',
        evidence_due_by: simulatedEvidenceDueBy(at),
      },
      { id: newId(), merchantId: payment.merchant_id, mode: payment.mode, paymentId: payment.id, processor: 'simulator', dedupeKey: newId(), at },
    )!;
    disputes.insert(uow, move.dispute);
    for (const message of disputeEvents(move.dispute, move.changes, at)) uow.publish(message);
    return withDisputeHold(payment, move.dispute.id, holdsFunds(move.dispute) ? move.dispute.amount : null);
  };
}
