import type { MerchantDestination } from '../domain/merchant-destination';

export function toDestinationView(destination: MerchantDestination) {
  return {
    id: destination.id,
    object: 'forward_destination' as const,
    merchant_id: destination.merchant_id,
    url: destination.url,
    card_fields: destination.card_fields ?? null,
    mode: destination.mode ?? null,
    created_at: destination.created_at,
  };
}
