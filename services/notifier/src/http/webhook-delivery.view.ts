import type { WebhookMessage } from '../domain/webhook-message';

/** A delivery is one event for one endpoint; its id is the webhook-id header the receiver saw. */
export function toWebhookDeliveryView(message: WebhookMessage) {
  return {
    id: message.id,
    object: 'webhook_delivery' as const,
    livemode: message.mode === 'live',
    endpoint_id: message.endpoint_id,
    event_id: message.event_id,
    event_type: message.event_type,
    status: message.status,
    attempt_count: message.attempt_count,
    next_attempt_at: message.status === 'pending' && message.next_attempt_at !== null ? new Date(message.next_attempt_at).toISOString() : null,
    last_attempt_at: message.last_attempt_at,
    failure_reason: message.failure_reason,
    created_at: message.created_at,
    attempts: message.attempts.map((a) => ({
      attempted_at: a.attempted_at,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      trigger: a.trigger,
    })),
  };
}
