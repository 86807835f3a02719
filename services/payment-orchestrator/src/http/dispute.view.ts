import type { Dispute } from '../domain/disputes/dispute';

/** What a merchant sees of a dispute: no internal bookkeeping (stage, applied notifications, the reporting account). */
export function toDisputeView(dispute: Dispute): Record<string, unknown> {
  return {
    id: dispute.id,
    object: 'dispute',
    payment_id: dispute.payment_id,
    amount: dispute.amount,
    currency_code: dispute.currency_code,
    status: dispute.status,
    reason: dispute.reason,
    kind: dispute.inquiry ? 'inquiry' : 'chargeback',
    processor_reference: dispute.processor_reference,
    evidence_due_by: dispute.evidence_due_by ?? null,
    evidence_submitted_at: dispute.evidence_submitted_at ?? null,
    livemode: dispute.mode === 'live',
    created_at: dispute.created_at,
    updated_at: dispute.updated_at,
  };
}
