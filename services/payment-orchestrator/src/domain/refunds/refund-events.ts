import { scopeOfDocument } from '@vaultline/core';
import { refundCreatedV1, refundFailedV1, refundSucceededV1, type EventData, domainEvent, type DomainEvent } from '@vaultline/contracts';
import type { Refund, RefundStatus } from './refund';

const definitions = { pending: refundCreatedV1, succeeded: refundSucceededV1, failed: refundFailedV1 } as const satisfies Record<RefundStatus, unknown>;

function refundData(refund: Refund): EventData<typeof refundCreatedV1> {
  return {
    refund_id: refund.id,
    payment_id: refund.payment_id,
    amount: refund.amount,
    currency_code: refund.currency_code,
    status: refund.status,
    failure_reason: refund.failure_reason,
    reason: refund.reason,
    reference: refund.reference,
    livemode: refund.mode === 'live',
  };
}

/** refund.created (a new pending refund), refund.succeeded or refund.failed: the refund's status says which. */
export function refundEvent(refund: Refund, at: Date): DomainEvent {
  return domainEvent(definitions[refund.status], { scope: scopeOfDocument(refund), data: refundData(refund), occurredAt: at });
}
