import { scopeOfDocument } from '@vaultline/core';
import { domainEvent, earlyFraudWarningCreatedV1, earlyFraudWarningUpdatedV1, type DomainEvent, type EventData } from '@vaultline/contracts';
import type { EarlyFraudWarning, EarlyFraudWarningChange } from './early-fraud-warning';

const definitions = { 'early_fraud_warning.created': earlyFraudWarningCreatedV1, 'early_fraud_warning.updated': earlyFraudWarningUpdatedV1 } as const;

function warningData(warning: Omit<EarlyFraudWarning, 'version'>): EventData<typeof earlyFraudWarningCreatedV1> {
  return {
    early_fraud_warning_id: warning.id,
    payment_id: warning.payment_id,
    fraud_type: warning.fraud_type,
    actionable: warning.actionable,
    processor_reference: warning.processor_reference,
    processor: warning.processor,
    livemode: warning.mode === 'live',
    created_at: warning.created_at,
    updated_at: warning.updated_at,
  };
}

/** The events of a warning's move, built from the warning as it is after it (key: the warning id). */
export function earlyFraudWarningEvents(warning: Omit<EarlyFraudWarning, 'version'>, changes: readonly EarlyFraudWarningChange[], at: Date): DomainEvent[] {
  return changes.map((change) => domainEvent(definitions[change], { scope: scopeOfDocument(warning), data: warningData(warning), occurredAt: at }));
}
