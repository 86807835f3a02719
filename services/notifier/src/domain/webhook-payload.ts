import type { EventData, EventEnvelope, EventType, eventCatalog } from '@vaultline/contracts';

type Catalog = typeof eventCatalog;
type DataOf<T extends EventType> = EventData<Catalog[T]>;
/** The types the merchant event log and webhooks carry (token.detokenized, checkout.session.returned and .abandoned are internal). */
export type MerchantEventType = Exclude<EventType, 'token.detokenized' | 'checkout.session.returned' | 'checkout.session.abandoned'>;

type Mapper<D> = (data: D) => Record<string, unknown>;

/**
 * Each merchant-facing field is picked by name: a field added to an event contract later does not
 * reach merchants until someone adds it here on purpose. Card data is never in the contracts; the
 * masked account number is the most a payload carries. The token fingerprint (a keyed hash of the
 * PAN) stays internal: a hash next to a truncation could be correlated (PCI DSS 3.5.1).
 */
const authenticationData = (a: NonNullable<DataOf<'payment.processing'>['authentication']>) => ({
  type: a.type,
  version: a.version,
  status: a.status,
  eci: a.eci,
  liability_shift: a.liability_shift,
});

const declineData = (c: NonNullable<DataOf<'payment.failed'>['decline']>) => ({
  category: c.category,
  code: c.code,
  processor_code: c.processor_code,
  processor_message: c.processor_message,
  advice_code: c.advice_code,
  retryable: c.retryable,
});

const paymentData: Mapper<DataOf<'payment.processing'>> = (d) => ({
  payment_id: d.payment_id,
  status: d.status,
  amount: {
    requested: d.amount.requested,
    ...(d.amount.authorized !== undefined ? { authorized: d.amount.authorized } : {}),
    ...(d.amount.captured !== undefined ? { captured: d.amount.captured } : {}),
    ...(d.amount.refunded !== undefined ? { refunded: d.amount.refunded } : {}),
    ...(d.amount.capturable !== undefined ? { capturable: d.amount.capturable } : {}),
    ...(d.amount.refund_pending !== undefined ? { refund_pending: d.amount.refund_pending } : {}),
    ...(d.amount.disputed !== undefined ? { disputed: d.amount.disputed } : {}),
    ...(d.amount.net !== undefined ? { net: d.amount.net } : {}),
  },
  // A manual capture (payment.capturing, payment.captured, payment.capture_failed): which one and how it went.
  ...(d.capture
    ? {
        capture: {
          sequence: d.capture.sequence,
          amount: d.capture.amount,
          final: d.capture.final,
          status: d.capture.status,
          failure_reason: d.capture.failure_reason,
          reference: d.capture.reference,
        },
      }
    : {}),
  currency_code: d.currency_code,
  use_case: d.use_case,
  reference: d.reference,
  credential_id: d.credential_id,
  initial_payment_id: d.initial_payment_id,
  flow: d.flow,
  failure_reason: d.failure_reason,
  masked_account_number: d.masked_account_number,
  // Earlier-interface payments (POST /payments) say so, with their customer and stored method or mandate.
  ...(d.interface ? { interface: d.interface, customer_id: d.customer_id ?? null, payment_method_id: d.payment_method_id ?? null } : {}),
  ...(d.status === 'canceled' ? { cancellation_reason: d.cancellation_reason ?? null } : {}),
  ...(d.authentication ? { authentication: authenticationData(d.authentication) } : {}),
  // A payment failed by a decline: the decline, normalised across processors.
  ...(d.decline ? { decline: declineData(d.decline) } : {}),
});

/** A refund as the merchant's API shows it (the refund's id under `id`, as GET /refunds/{refund_id} answers). */
const refundData: Mapper<DataOf<'refund.created'>> = (d) => ({
  id: d.refund_id,
  object: 'refund',
  payment_id: d.payment_id,
  amount: d.amount,
  currency_code: d.currency_code,
  status: d.status,
  failure_reason: d.failure_reason,
  reason: d.reason,
  reference: d.reference,
  livemode: d.livemode,
});

const disputeData: Mapper<DataOf<'dispute.created'>> = (d) => ({
  dispute_id: d.dispute_id,
  payment_id: d.payment_id,
  amount: d.amount,
  currency_code: d.currency_code,
  status: d.status,
  reason: d.reason,
  // Added within v1: events published before read as a chargeback whose deadline was not said.
  kind: d.kind ?? 'chargeback',
  processor_reference: d.processor_reference,
  evidence_due_by: d.evidence_due_by ?? null,
  livemode: d.livemode,
  created_at: d.created_at,
  updated_at: d.updated_at,
});

/** An early fraud warning as the merchant's API shows it (GET /early-fraud-warnings/{id}). */
const earlyFraudWarningData: Mapper<DataOf<'early_fraud_warning.created'>> = (d) => ({
  id: d.early_fraud_warning_id,
  object: 'early_fraud_warning',
  payment_id: d.payment_id,
  fraud_type: d.fraud_type,
  actionable: d.actionable,
  processor_reference: d.processor_reference,
  livemode: d.livemode,
  created_at: d.created_at,
  updated_at: d.updated_at,
});

const importCounts = (c: DataOf<'import.completed'>['counts']) => ({
  total: c.total,
  imported: c.imported,
  updated: c.updated,
  failed: c.failed,
});

export const webhookDataMappers: { [T in MerchantEventType]: Mapper<DataOf<T>> } = {
  'token.created': (d) => ({
    token_id: d.token_id,
    business_key: d.business_key,
    scheme: d.scheme,
    source: d.source,
    updated: d.updated,
    correlation_id: d.correlation_id,
  }),
  'token.deleted': (d) => ({ token_id: d.token_id }),
  'checkout.session.opened': (d) => ({
    session_id: d.session_id,
    payment_id: d.payment_id,
    amount: d.amount,
    currency: d.currency,
    expires_at: d.expires_at,
    return_url: d.return_url,
  }),
  'checkout.session.completed': (d) => ({ session_id: d.session_id, payment_id: d.payment_id, token_id: d.token_id }),
  'forward.completed': (d) => ({
    forward_id: d.forward_id,
    token_id: d.token_id,
    destination_host: d.destination_host,
    destination_path: d.destination_path,
    status: d.status,
    outcome: d.outcome,
    duration_ms: d.duration_ms,
    added_ms: d.added_ms,
  }),
  'import.started': (d) => ({ import_id: d.import_id, provider: d.provider }),
  'import.completed': (d) => ({
    import_id: d.import_id,
    provider: d.provider,
    state: d.state,
    counts: importCounts(d.counts),
    finished_at: d.finished_at,
  }),
  'import.failed': (d) => ({
    import_id: d.import_id,
    provider: d.provider,
    state: d.state,
    reason: d.reason,
    counts: importCounts(d.counts),
    finished_at: d.finished_at,
  }),
  'payment.processing': paymentData,
  'payment.authorized': paymentData,
  'payment.capturing': paymentData,
  'payment.captured': paymentData,
  'payment.capture_failed': paymentData,
  'payment.failed': paymentData,
  // The issuer's address and form stay with the hosted page: the merchant hears that the consumer is authenticating.
  'payment.action_required': (d) => ({ ...paymentData(d), action: { type: 'consumer_authentication' } }),
  // The payment stays processing; `attempt` is the card that failed (masked) and why, for the consumer may try another.
  'payment.attempt_failed': (d) => ({
    ...paymentData(d),
    attempt: {
      number: d.attempt.number,
      failure_reason: d.attempt.failure_reason,
      masked_account_number: d.attempt.masked_account_number,
      ...(d.attempt.authentication ? { authentication: authenticationData(d.attempt.authentication) } : {}),
      ...(d.attempt.decline ? { decline: declineData(d.attempt.decline) } : {}),
    },
  }),
  'dispute.created': disputeData,
  'dispute.updated': disputeData,
  'dispute.closed': disputeData,
  'early_fraud_warning.created': earlyFraudWarningData,
  'early_fraud_warning.updated': earlyFraudWarningData,
  'payment.canceled': paymentData,
  'refund.created': refundData,
  'refund.succeeded': refundData,
  'refund.failed': refundData,
};

export function isMerchantEventType(type: string): type is MerchantEventType {
  return Object.prototype.hasOwnProperty.call(webhookDataMappers, type);
}

export function mapEventData<T extends MerchantEventType>(type: T, data: DataOf<T>): Record<string, unknown> {
  return (webhookDataMappers[type] as Mapper<DataOf<T>>)(data);
}

/**
 * The Standard Webhooks body: {type, timestamp, livemode, data}, serialised once and sent as is on every
 * attempt. livemode says which world the event is about (only endpoints of that mode receive it).
 */
export function webhookBody(event: Pick<EventEnvelope, 'type' | 'occurred_at' | 'livemode'>, data: Record<string, unknown>): string {
  return JSON.stringify({ type: event.type, timestamp: event.occurred_at, livemode: event.livemode, data });
}
