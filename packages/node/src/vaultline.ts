import { TypedApi, type ClientOptions } from './client.js';
import type { paths as AdminPaths } from './generated/admin.js';
import type { paths as MerchantPaths } from './generated/merchant.js';
import { webhooks } from './webhooks.js';

export type Mode = 'test' | 'live';

const MERCHANT_KEY = /^sk_(test|live)_/;

/** The request header that carries a dashboard session's CSRF token on every call. */
export const CSRF_HEADER = 'X-CSRF-Token';

/**
 * A dashboard session in the browser (POST /dashboard/session): the httpOnly session cookie authenticates,
 * so the client holds no key, only the session's CSRF token and the mode the session is in.
 */
export interface DashboardSession {
  csrfToken: string;
  mode: Mode;
}

/** The headers and options of a client signed in by the session cookie: sent to the page's own origin only. */
function sessionOptions(session: Pick<DashboardSession, 'csrfToken'>, options: ClientOptions): ClientOptions {
  return { ...options, credentials: 'same-origin', headers: { ...options.headers, [CSRF_HEADER]: session.csrfToken } };
}

/**
 * The merchant API, every route typed from the OpenAPI document:
 *
 *   const vaultline = new Vaultline(process.env.VAULTLINE_API_KEY!, { baseUrl: 'https://vault.example.com' });
 *   const payment = await vaultline.post('/payments/one-off', { body: { amount: 1999, currency_code: 'EUR' } });
 *   for await (const event of vaultline.list('/events', { params: { query: { type: 'payment.captured.v1' } } })) …
 *
 * A test key (sk_test_…) and a live key (sk_live_…) reach the same API; `mode` and `livemode` say which
 * data the key sees. In a browser signed in to the dashboard, pass the session instead of a key:
 * `new Vaultline({ csrfToken, mode }, { baseUrl: location.origin })`.
 */
export class Vaultline extends TypedApi<MerchantPaths> {
  readonly mode: Mode;
  readonly webhooks = webhooks;

  constructor(apiKeyOrSession: string | DashboardSession, options: ClientOptions = {}) {
    if (typeof apiKeyOrSession !== 'string') {
      super({}, sessionOptions(apiKeyOrSession, options));
      this.mode = apiKeyOrSession.mode;
      return;
    }
    const mode = MERCHANT_KEY.exec(apiKeyOrSession)?.[1];
    if (mode !== 'test' && mode !== 'live') throw new TypeError('A Vaultline API key starts with sk_test_ or sk_live_.');
    super({ 'X-API-Key': apiKeyOrSession }, options);
    this.mode = mode;
  }

  get livemode(): boolean {
    return this.mode === 'live';
  }
}

/**
 * The operator API (/admin, X-Admin-Key): merchants, their keys, operators, the audit, forward destinations.
 * In a browser signed in to the dashboard with an operator key: `new VaultlineAdmin({ csrfToken }, …)`.
 */
export class VaultlineAdmin extends TypedApi<AdminPaths> {
  constructor(adminKeyOrSession: string | Pick<DashboardSession, 'csrfToken'>, options: ClientOptions = {}) {
    if (typeof adminKeyOrSession !== 'string') {
      super({}, sessionOptions(adminKeyOrSession, options));
      return;
    }
    if (!adminKeyOrSession) throw new TypeError('An admin key (X-Admin-Key) is required.');
    super({ 'X-Admin-Key': adminKeyOrSession }, options);
  }
}
