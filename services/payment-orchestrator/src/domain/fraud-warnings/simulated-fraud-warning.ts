import { newId } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import type { Payment } from '../payment/payment';
import { applyFraudWarningSignal } from './early-fraud-warning';
import type { EarlyFraudWarningRepository } from './early-fraud-warning-ports';
import { commitFraudWarningMove, isRefundable } from './record-early-fraud-warning';

/**
 * The simulator's fraud-warning card: a payment the built-in simulator captures with 4000 0000 0000 5423
 * (masked `400000******5423`) receives an early fraud warning at once, in the capture's commit —
 * `made_with_stolen_card`, actionable, with `early_fraud_warning.created` — and no dispute. Test mode only.
 */
const SIMULATOR_FRAUD_WARNING_CARD = '400000******5423';

export function simulatedFraudWarning({ warnings }: { warnings: EarlyFraudWarningRepository }): (uow: UnitOfWork, payment: Payment, at: Date) => Payment {
  return (uow, payment, at) => {
    if (payment.mode !== 'test' || payment.progress.authorized_by !== 'simulator' || payment.source?.masked_account_number !== SIMULATOR_FRAUD_WARNING_CARD)
      return payment;
    const move = applyFraudWarningSignal(
      null,
      { processor_reference: `sim_efw_${payment.id}`, payment_reference: payment.id, fraud_type: 'made_with_stolen_card', actionable: null },
      {
        id: newId(),
        merchantId: payment.merchant_id,
        mode: payment.mode,
        paymentId: payment.id,
        processor: 'simulator',
        dedupeKey: newId(),
        at,
        refundable: isRefundable(payment),
      },
    )!;
    commitFraudWarningMove(warnings, uow, null, move, at);
    return payment;
  };
}
