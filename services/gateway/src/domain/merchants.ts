import { hashApiKey } from '@vaultline/auth';
import { AppError, NotFoundError, newId, type Clock } from '@vaultline/core';
import type { Merchant } from './merchant';
import type { ApiKeys, PepperSource } from './api-keys';
import type { ApiKeyRepository, MerchantRepository, PageOf, PageRequest } from './ports';

export const BOOTSTRAP_MERCHANT_NAME = 'Bootstrap merchant';

export class Merchants {
  constructor(
    private readonly deps: { merchants: MerchantRepository; keys: ApiKeyRepository; apiKeys: ApiKeys; clock: Clock; pepper: PepperSource },
  ) {}

  /** Creates a merchant with its first (ordinary, test-mode) key; the key is returned once. */
  async create(input: { name: string; cardDataAccess?: boolean }, key?: string): Promise<{ merchant: Merchant; apiKey: string }> {
    const merchant: Merchant = {
      id: newId(),
      name: input.name,
      card_data_access: input.cardDataAccess ?? false,
      created_at: this.deps.clock.now().toISOString(),
    };
    const { record, apiKey } = this.deps.apiKeys.mint(merchant.id, { label: key ? 'bootstrap' : 'initial' }, key);
    await this.deps.merchants.createWithKey(merchant, record);
    return { merchant, apiKey };
  }

  async get(id: string): Promise<Merchant> {
    const merchant = await this.deps.merchants.get(id);
    if (!merchant) throw new NotFoundError('merchant');
    return merchant;
  }

  list(page: PageRequest): Promise<PageOf<Merchant>> {
    return this.deps.merchants.list(page);
  }

  /**
   * Development convenience (BOOTSTRAP_API_KEY): makes sure a merchant owns exactly this key.
   * Idempotent: when the key already resolves, nothing changes. Returns the merchant id.
   */
  async ensureBootstrap(apiKey: string): Promise<string> {
    const hash = hashApiKey(apiKey, this.deps.pepper());
    const existing = await this.deps.keys.findByHash(hash);
    if (existing) return existing.merchant_id;
    try {
      const { merchant } = await this.create({ name: BOOTSTRAP_MERCHANT_NAME, cardDataAccess: true }, apiKey);
      return merchant.id;
    } catch (error) {
      // Another gateway instance bootstrapped the same key at the same moment.
      const winner = error instanceof AppError && error.code === 'duplicate_key' ? await this.deps.keys.findByHash(hash) : null;
      if (winner) return winner.merchant_id;
      throw error;
    }
  }
}
