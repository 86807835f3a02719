import { isUuid, type Scope } from '@vaultline/core';
import type { ProcessorNotificationRecord } from '../processor-port/processor-notification';
import type { NotifiedEvent } from '../processor-port/processor-port';
import type { VoidSettlement } from '../payment/cancel-payment';
import type { Payment } from '../payment/payment';
import type { Refund } from './refund';

export interface AfterSaleNotificationPorts {
  settleVoid: (scope: Scope, paymentId: string, authorizationReference: string, settlement: VoidSettlement) => Promise<Payment | null>;
  wakeRefund: (scope: Scope, event: NotifiedEvent & { payment_reference: string | null }) => Promise<Refund | null>;
}

/**
 * What a recorded refund or void notification moves: the refund it names (settled through the refund
 * runner, or reversed), or the canceling payment whose authorization it names (Adyen CANCELLATION,
 * Checkout.com payment_voided / payment_void_declined). Idempotent: a redelivery finds everything moved.
 * A refund moves only by the account it was sent to (the record's account_id).
 */
export function afterSaleNotifications(
  ports: AfterSaleNotificationPorts,
): (scope: Scope, accountId: string, record: Omit<ProcessorNotificationRecord, 'version'>) => Promise<void> {
  return async (scope, _accountId, record) => {
    if (record.kind === 'refund_succeeded' || record.kind === 'refund_failed') {
      await ports.wakeRefund(scope, record);
      return;
    }
    if (
      (record.kind === 'void_succeeded' || record.kind === 'void_failed') &&
      record.payment_reference &&
      isUuid(record.payment_reference) &&
      record.processor_reference
    ) {
      const settlement: VoidSettlement =
        record.kind === 'void_succeeded'
          ? { status: 'succeeded', void_reference: record.capture_reference }
          : { status: 'failed', failure_reason: record.failure_reason ?? 'void_failed' };
      await ports.settleVoid(scope, record.payment_reference, record.processor_reference, settlement);
    }
  };
}
