import type { MerchantEvent } from '../domain/merchant-event';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';
import type { WebhookMessage } from '../domain/webhook-message';

export function presentEndpoint(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabled_reason,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

/** A delivery is one event for one endpoint; its id is the webhook-id header the receiver saw. */
export function presentDelivery(message: WebhookMessage) {
  return {
    id: message.id,
    object: 'webhook_delivery' as const,
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

export function presentEvent(event: MerchantEvent) {
  return { id: event.id, object: 'event' as const, type: event.type, created_at: event.created_at, data: event.data };
}
