import { TypedApi, type ClientOptions } from './client.js';
import type { paths as AdminPaths } from './generated/admin.js';
import type { paths as MerchantPaths } from './generated/merchant.js';
import { webhooks } from './webhooks.js';

export type Mode = 'test' | 'live';

const MERCHANT_KEY = /^sk_(test|live)_/;

/**
 * The merchant API, every route typed from the OpenAPI document:
 *
 *   const vaultline = new Vaultline(process.env.VAULTLINE_API_KEY!, { baseUrl: 'https://vault.example.com' });
 *   const payment = await vaultline.post('/payments/one-off', { body: { amount: 1999, currency_code: 'EUR' } });
 *   for await (const event of vaultline.list('/events', { params: { query: { type: 'payment.captured.v1' } } })) …
 *
 * A test key (sk_test_…) and a live key (sk_live_…) reach the same API; `mode` and `livemode` say which
 * data the key sees.
 */
export class Vaultline extends TypedApi<MerchantPaths> {
  readonly mode: Mode;
  readonly webhooks = webhooks;

  constructor(apiKey: string, options: ClientOptions = {}) {
    const mode = MERCHANT_KEY.exec(apiKey)?.[1];
    if (mode !== 'test' && mode !== 'live') throw new TypeError('A Vaultline API key starts with sk_test_ or sk_live_.');
    super({ 'X-API-Key': apiKey }, options);
    this.mode = mode;
  }

  get livemode(): boolean {
    return this.mode === 'live';
  }
}

/** The operator API (/admin, X-Admin-Key): merchants, their keys, operators, the audit, forward destinations. */
export class VaultlineAdmin extends TypedApi<AdminPaths> {
  constructor(adminKey: string, options: ClientOptions = {}) {
    if (!adminKey) throw new TypeError('An admin key (X-Admin-Key) is required.');
    super({ 'X-Admin-Key': adminKey }, options);
  }
}
