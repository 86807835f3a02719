import { apiKeyMode, apiKeyPrefix, generateApiKey, hashApiKey, SCOPES, type ApiKeyMode } from '@vaultline/auth';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, constantTimeEquals, newId, type Clock } from '@vaultline/core';
import type { ApiKeyRecord, ResolvedKey } from './merchant';
import type { ApiKeyRepository, MerchantRepository, PageOf, PageRequest, PepperSource } from './ports';

export interface IssueKeyOptions {
  mode?: ApiKeyMode;
  label?: string | null;
  scopes?: string[];
  expiresAt?: string | null;
}

/** A new key record and the key itself (never stored). `key` lets the bootstrap choose it. */
export type MintApiKey = (merchantId: string, options?: IssueKeyOptions, key?: string) => { record: ApiKeyRecord; apiKey: string };

export function mintApiKey({ clock, pepper }: { clock: Clock; pepper: PepperSource }): MintApiKey {
  return (merchantId, options = {}, key) => {
    const mode = options.mode ?? (key ? apiKeyMode(key) : undefined) ?? 'test';
    const apiKey = key ?? generateApiKey(mode);
    const record: ApiKeyRecord = {
      id: newId(),
      merchant_id: merchantId,
      key_hash: hashApiKey(apiKey, pepper()),
      prefix: apiKeyPrefix(apiKey),
      mode,
      scopes: options.scopes ?? [SCOPES.merchant],
      label: options.label ?? null,
      created_at: clock.now().toISOString(),
      revoked_at: null,
      expires_at: options.expiresAt ?? null,
    };
    return { record, apiKey };
  };
}

/** Keys leave the gateway in clear only here, when issued. */
export type IssueApiKey = (merchantId: string, options?: IssueKeyOptions) => Promise<{ record: ApiKeyRecord; apiKey: string }>;

export function issueApiKey({
  merchants,
  keys,
  mint,
}: {
  merchants: Pick<MerchantRepository, 'get'>;
  keys: Pick<ApiKeyRepository, 'insert'>;
  mint: MintApiKey;
}): IssueApiKey {
  return async (merchantId, options = {}) => {
    if (!(await merchants.get(merchantId))) throw new NotFoundError('merchant');
    const minted = mint(merchantId, options);
    await keys.insert(minted.record);
    return minted;
  };
}

/**
 * A refused API key. Every refusal reads the same, so that a holder of a leaked or guessed key cannot
 * tell a revoked or expired key (one that existed) from one that never did; `reason` is for the log.
 */
export class InvalidApiKey extends UnauthorizedError {
  constructor(
    readonly reason: 'malformed' | 'unknown' | 'revoked' | 'expired' | 'merchant_unknown',
    readonly keyId: string | null = null,
  ) {
    super('The API key is not valid.', 'invalid_api_key');
  }
}

export type AuthenticateApiKey = (apiKey: string | undefined) => Promise<ResolvedKey>;

export interface AuthenticateApiKeyPorts {
  merchants: Pick<MerchantRepository, 'get'>;
  keys: Pick<ApiKeyRepository, 'findByHash'>;
  clock: Clock;
  pepper: PepperSource;
}

/**
 * Resolves X-API-Key to the merchant and its scopes: lookup by hash, then a constant-time
 * comparison. Ordinary keys get `merchant`, plus `card_data` while the merchant has card data
 * access; import-job keys keep exactly their stored scopes. Expiry is checked on every request
 * (the repositories may serve the key and merchant from a short-lived cache, see data/).
 */
export function authenticateApiKey({ merchants, keys, clock, pepper }: AuthenticateApiKeyPorts): AuthenticateApiKey {
  return async (apiKey) => {
    if (!apiKey) throw new UnauthorizedError('A valid API key is required in the X-API-Key header.', 'missing_api_key');
    if (!apiKeyMode(apiKey) || apiKey.length > 200) throw new InvalidApiKey('malformed');
    const hash = hashApiKey(apiKey, pepper());
    const record = await keys.findByHash(hash);
    if (!record || !constantTimeEquals(record.key_hash, hash)) throw new InvalidApiKey('unknown');
    return resolveRecord(record, { merchants, clock });
  };
}

/**
 * A stored key as a request's credential, or the refusal: revoked, expired, or of a merchant that is
 * gone. Shared by the key in X-API-Key and the key behind a dashboard session (checked on every request).
 */
async function resolveRecord(record: ApiKeyRecord, { merchants, clock }: Pick<AuthenticateApiKeyPorts, 'merchants' | 'clock'>): Promise<ResolvedKey> {
  if (record.revoked_at) throw new InvalidApiKey('revoked', record.id);
  const merchant = await merchants.get(record.merchant_id);
  if (!merchant) throw new InvalidApiKey('merchant_unknown', record.id);
  if (record.expires_at && record.expires_at <= clock.now().toISOString()) throw new InvalidApiKey('expired', record.id);
  const scopes = record.scopes.includes(SCOPES.merchant) ? [SCOPES.merchant, ...(merchant.card_data_access ? [SCOPES.cardData] : [])] : [...record.scopes];
  return {
    merchantId: merchant.id,
    merchantName: merchant.name,
    keyId: record.id,
    scopes,
    mode: record.mode,
    ...(merchant.rate_limit ? { rateLimit: merchant.rate_limit } : {}),
  };
}

/** The key a dashboard session was opened with, checked again as on every request (a revocation ends the session's access at once). */
export type ResolveApiKeyById = (merchantId: string, keyId: string) => Promise<ResolvedKey>;

export function resolveApiKeyById({
  merchants,
  keys,
  clock,
}: Omit<AuthenticateApiKeyPorts, 'pepper' | 'keys'> & { keys: Pick<ApiKeyRepository, 'get'> }): ResolveApiKeyById {
  return async (merchantId, keyId) => {
    const record = await keys.get(merchantId, keyId);
    if (!record) throw new InvalidApiKey('unknown', keyId);
    return resolveRecord(record, { merchants, clock });
  };
}

/** A merchant's keys: both modes for an operator; one mode for the merchant itself (its key's). */
export type ListApiKeys = (merchantId: string, page: PageRequest, mode?: ApiKeyMode) => Promise<PageOf<ApiKeyRecord>>;

export function listApiKeys({ merchants, keys }: { merchants: Pick<MerchantRepository, 'get'>; keys: Pick<ApiKeyRepository, 'list'> }): ListApiKeys {
  return async (merchantId, page, mode) => {
    if (!(await merchants.get(merchantId))) throw new NotFoundError('merchant');
    return keys.list(merchantId, page, mode);
  };
}

/**
 * Revokes a key. `onlyScope` limits which keys a caller may revoke (the importer: its import keys; a
 * merchant: its dashboard keys); `mode` hides the other mode's keys (a merchant's key sees its own mode's).
 */
export type RevokeApiKey = (merchantId: string, keyId: string, onlyScope?: string | string[], mode?: ApiKeyMode) => Promise<ApiKeyRecord>;

export function revokeApiKey({ keys, clock }: { keys: Pick<ApiKeyRepository, 'get' | 'revoke'>; clock: Clock }): RevokeApiKey {
  return async (merchantId, keyId, onlyScope, mode) => {
    const record = await keys.get(merchantId, keyId);
    if (!record || (mode && record.mode !== mode)) throw new NotFoundError('api_key');
    const allowed = onlyScope === undefined ? null : Array.isArray(onlyScope) ? onlyScope : [onlyScope];
    if (allowed && !(record.scopes.length === 1 && allowed.includes(record.scopes[0]!))) {
      throw new ForbiddenError(`Only keys with the single scope ${allowed.join(' or ')} can be revoked here.`, 'insufficient_scope');
    }
    if (record.revoked_at) throw new ConflictError('api_key_revoked', 'The API key is already revoked.');
    return keys.revoke(merchantId, keyId, clock.now().toISOString());
  };
}

/** The longest an old key may keep working after a roll: Stripe's longest choice, a week. */
export const MAX_ROLL_EXPIRY_SECONDS = 7 * 24 * 3600;

/** The key cannot be rolled: it is revoked or has expired (nothing to replace). */
export class ApiKeyNotRollable extends ConflictError {
  constructor(detail: string) {
    super('api_key_not_rollable', detail);
  }
}

/**
 * Rolls a key, as Stripe's dashboard does: a new key of the same mode, scopes and label (shown once, naming
 * the old one in `rolled_from`), and the old key kept working until `expiresInSeconds` from now (0: it stops
 * at once; at most a week), so the merchant can deploy the new one first. An old key that was to expire
 * sooner keeps its earlier expiry. `mode` hides the other mode's keys.
 */
export type RollApiKey = (
  merchantId: string,
  keyId: string,
  options: { expiresInSeconds: number; mode?: ApiKeyMode; onlyScopes?: string[] },
) => Promise<{ previous: ApiKeyRecord; record: ApiKeyRecord; apiKey: string }>;

export function rollApiKey({ keys, mint, clock }: { keys: Pick<ApiKeyRepository, 'get' | 'roll'>; mint: MintApiKey; clock: Clock }): RollApiKey {
  return async (merchantId, keyId, { expiresInSeconds, mode, onlyScopes }) => {
    const record = await keys.get(merchantId, keyId);
    if (!record || (mode && record.mode !== mode)) throw new NotFoundError('api_key');
    if (onlyScopes && !record.scopes.every((scope) => onlyScopes.includes(scope)))
      throw new ForbiddenError(`Only keys with the scopes ${onlyScopes.join(', ')} can be rolled here.`, 'insufficient_scope');
    const now = clock.now();
    if (record.revoked_at) throw new ApiKeyNotRollable('The API key is revoked: create a new one instead.');
    if (record.expires_at && record.expires_at <= now.toISOString()) throw new ApiKeyNotRollable('The API key has expired: create a new one instead.');
    const asked = new Date(now.getTime() + expiresInSeconds * 1000).toISOString();
    const oldExpiresAt = record.expires_at && record.expires_at < asked ? record.expires_at : asked;
    const minted = mint(merchantId, { mode: record.mode, label: record.label, scopes: record.scopes, expiresAt: null });
    const next = { ...minted.record, rolled_from: record.id };
    const previous = await keys.roll(merchantId, record.id, oldExpiresAt, next);
    return { previous, record: next, apiKey: minted.apiKey };
  };
}

/** The API-key use cases as the edge, the admin router and the internal routes take them (built in app.ts). */
export interface ApiKeys {
  issue: IssueApiKey;
  authenticate: AuthenticateApiKey;
  resolveById: ResolveApiKeyById;
  list: ListApiKeys;
  revoke: RevokeApiKey;
  roll: RollApiKey;
}
