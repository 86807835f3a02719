import { scopeOfDocument } from '@vaultline/core';
import { disputeClosedV1, disputeCreatedV1, disputeUpdatedV1, type EventData, domainEvent, type DomainEvent } from '@vaultline/contracts';
import type { Dispute, DisputeChange } from './dispute';

const definitions = { 'dispute.created': disputeCreatedV1, 'dispute.updated': disputeUpdatedV1, 'dispute.closed': disputeClosedV1 } as const;

function disputeData(dispute: Omit<Dispute, 'version'>): EventData<typeof disputeCreatedV1> {
  return {
    dispute_id: dispute.id,
    payment_id: dispute.payment_id,
    amount: dispute.amount,
    currency_code: dispute.currency_code,
    status: dispute.status,
    reason: dispute.reason,
    processor_reference: dispute.processor_reference,
    processor: dispute.processor,
    kind: dispute.inquiry ? 'inquiry' : 'chargeback',
    evidence_due_by: dispute.evidence_due_by ?? null,
    livemode: dispute.mode === 'live',
    created_at: dispute.created_at,
    updated_at: dispute.updated_at,
  };
}

/** The events of a dispute's move, built from the dispute as it is after it (key: the dispute id, so one dispute's events stay in order). */
export function disputeEvents(dispute: Omit<Dispute, 'version'>, changes: readonly DisputeChange[], at: Date): DomainEvent[] {
  return changes.map((change) => domainEvent(definitions[change], { scope: scopeOfDocument(dispute), data: disputeData(dispute), occurredAt: at }));
}
