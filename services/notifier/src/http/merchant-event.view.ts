import type { MerchantEvent } from '../domain/merchant-event';

/** An entry of the merchant event log, like Stripe's event object. */
export function toMerchantEventView(event: MerchantEvent) {
  return { id: event.id, object: 'event' as const, type: event.type, livemode: event.mode === 'live', created_at: event.created_at, data: event.data };
}
