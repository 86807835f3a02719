export { CSRF_HEADER, Vaultline, VaultlineAdmin, type DashboardSession, type Mode } from './vaultline.js';
export { DEFAULT_BASE_URL, type Call, type ClientOptions, type RawRequest, type ResponseData } from './client.js';
export { VaultlineConnectionError, VaultlineError, WebhookVerificationError, errorKindOf, type ErrorKind, type Problem } from './errors.js';
export { DEFAULT_RETRY_OPTIONS, retryAfterMs, type RetryOptions } from './retrying-fetch.js';
export { formatAmount, majorUnits, minorUnitExponent, toMinorUnits } from './money.js';
export { verify as verifyWebhook, webhooks, type WebhookEvent, type WebhookHeaders } from './webhooks.js';
export type { components as MerchantComponents, paths as MerchantPaths, operations as MerchantOperations } from './generated/merchant.js';
export type { components as AdminComponents, paths as AdminPaths } from './generated/admin.js';
