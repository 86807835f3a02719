import type { Merchant } from '../domain/merchant';

/** What the API shows of a merchant. */
export const toMerchantView = (m: Merchant) => ({
  id: m.id,
  name: m.name,
  card_data_access: m.card_data_access,
  created_at: m.created_at,
  rate_limit: m.rate_limit ?? null,
});
