import { newId } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import type { Payment } from '../payment/payment';
import { applyDisputeSignal } from './dispute';
import { disputeEvents } from './dispute-events';
import type { DisputeRepository } from './dispute-ports';

/**
 * The simulator's disputed card, as Stripe's test cards have one: a payment the built-in simulator
 * captures with 4000 0000 0000 2685 (masked `400000******2685`) is disputed at once, in the capture's
 * commit — `needs_response`, reason `product_not_received`, with `dispute.created`. Test mode only (the
 * simulator serves nothing else). `POST /payments/{id}/test/dispute` then moves it like any simulated dispute.
 */
export const SIMULATOR_DISPUTED_CARD = '400000******2685';

export function simulatedChargeback({ disputes }: { disputes: DisputeRepository }): (uow: UnitOfWork, payment: Payment, at: Date) => Payment {
  return (uow, payment, at) => {
    if (payment.mode !== 'test' || payment.progress.authorized_by !== 'simulator' || payment.source?.masked_account_number !== SIMULATOR_DISPUTED_CARD) return payment;
    const amount = payment.amount.captured ?? payment.amount.requested;
    const move = applyDisputeSignal(
      null,
      { processor_reference: `sim_dp_${payment.id}`, payment_reference: payment.id, status: 'needs_response', stage: 1, amount, currency_code: payment.currency_code, reason: 'product_not_received', event: 'simulated_needs_response' },
      { id: newId(), merchantId: payment.merchant_id, mode: payment.mode, paymentId: payment.id, processor: 'simulator', dedupeKey: newId(), at },
    )!;
    disputes.insert(uow, move.dispute);
    for (const message of disputeEvents(move.dispute, move.changes, at)) uow.publish(message);
    return payment;
  };
}
