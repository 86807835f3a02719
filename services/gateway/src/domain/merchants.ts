import { hashApiKey } from '@vaultline/auth';
import { AppError, NotFoundError, newId, type Clock } from '@vaultline/core';
import type { Merchant } from './merchant';
import type { RateLimit } from './rate-limit';
import type { MintApiKey } from './api-keys';
import type { ApiKeyRepository, MerchantRepository, PageOf, PageRequest, PepperSource } from './ports';

export const BOOTSTRAP_MERCHANT_NAME = 'Bootstrap merchant';

/** Creates a merchant with its first (ordinary, test-mode) key; the key is returned once. `key` lets the bootstrap choose it. */
export type CreateMerchant = (input: { name: string; cardDataAccess?: boolean }, key?: string) => Promise<{ merchant: Merchant; apiKey: string }>;

export function createMerchant({
  merchants,
  mint,
  clock,
}: {
  merchants: Pick<MerchantRepository, 'createWithKey'>;
  mint: MintApiKey;
  clock: Clock;
}): CreateMerchant {
  return async (input, key) => {
    const merchant: Merchant = {
      id: newId(),
      name: input.name,
      card_data_access: input.cardDataAccess ?? false,
      created_at: clock.now().toISOString(),
    };
    const { record, apiKey } = mint(merchant.id, { label: key ? 'bootstrap' : 'initial' }, key);
    await merchants.createWithKey(merchant, record);
    return { merchant, apiKey };
  };
}

export type GetMerchant = (id: string) => Promise<Merchant>;

export function getMerchant({ merchants }: { merchants: Pick<MerchantRepository, 'get'> }): GetMerchant {
  return async (id) => {
    const merchant = await merchants.get(id);
    if (!merchant) throw new NotFoundError('merchant');
    return merchant;
  };
}

export type ListMerchants = (page: PageRequest) => Promise<PageOf<Merchant>>;

export function listMerchants({ merchants }: { merchants: Pick<MerchantRepository, 'list'> }): ListMerchants {
  return (page) => merchants.list(page);
}

/** Returns the id of the merchant owning the key. */
export type EnsureBootstrapMerchant = (apiKey: string) => Promise<string>;

/**
 * Development convenience (BOOTSTRAP_API_KEY): makes sure a merchant owns exactly this key.
 * Idempotent: when the key already resolves, nothing changes.
 */
export function ensureBootstrapMerchant({
  keys,
  createMerchant: create,
  pepper,
}: {
  keys: Pick<ApiKeyRepository, 'findByHash'>;
  createMerchant: CreateMerchant;
  pepper: PepperSource;
}): EnsureBootstrapMerchant {
  return async (apiKey) => {
    const hash = hashApiKey(apiKey, pepper());
    const existing = await keys.findByHash(hash);
    if (existing) return existing.merchant_id;
    try {
      const { merchant } = await create({ name: BOOTSTRAP_MERCHANT_NAME, cardDataAccess: true }, apiKey);
      return merchant.id;
    } catch (error) {
      // Another gateway instance bootstrapped the same key at the same moment (the hash is unique across merchants).
      const winner = error instanceof AppError && error.code === 'duplicate_key' ? await keys.findByHash(hash) : null;
      if (winner) return winner.merchant_id;
      throw error;
    }
  };
}

export type UpdateMerchant = (id: string, changes: { rateLimit?: RateLimit | null }) => Promise<Merchant>;

/** An operator's change to a merchant: today its rate limit (null puts it back to the defaults). */
export function updateMerchant({ merchants }: { merchants: Pick<MerchantRepository, 'get' | 'setRateLimit'> }): UpdateMerchant {
  return async (id, changes) => {
    if (changes.rateLimit === undefined) {
      const merchant = await merchants.get(id);
      if (!merchant) throw new NotFoundError('merchant');
      return merchant;
    }
    const updated = await merchants.setRateLimit(id, changes.rateLimit ?? undefined);
    if (!updated) throw new NotFoundError('merchant');
    return updated;
  };
}

/** The merchant use cases as the admin router takes them (built in app.ts). */
export interface Merchants {
  create: CreateMerchant;
  get: GetMerchant;
  list: ListMerchants;
  update: UpdateMerchant;
}
