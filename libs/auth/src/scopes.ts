/** Scopes carried by internal JWTs. A service checks them with requireScope (libs/http). */
export const SCOPES = {
  merchant: 'merchant',
  cardData: 'card_data',
  admin: 'admin',
  detokenize: 'tokens:detokenize',
  /** The payment orchestrator sending processor requests with placeholders through the forwarder. */
  forwardPayments: 'forward:payments',
  cdeImport: 'cde_import',
  /**
   * A merchant key for the dashboard (read-mostly): every merchant GET, and of the changes only capture, cancel,
   * refund, a webhook delivery's replay and the flow matrix's explain preview (services/gateway/src/domain/dashboard-access.ts).
   */
  dashboard: 'dashboard',
  mintImportKeys: 'api_keys:mint',
  public: 'public',
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];

/** Merchant id used on public (no API key) routes such as checkout pages. */
export const PUBLIC_MERCHANT_ID = '__public__';
/** Merchant id used for system and admin calls (same value as the store's SYSTEM_SCOPE). */
export const SYSTEM_MERCHANT_ID = '__system__';
