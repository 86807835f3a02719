import { createHmac, randomBytes } from 'node:crypto';
import { constantTimeEquals, type Mode as ApiKeyMode } from '@vaultline/core';

export type { Mode as ApiKeyMode } from '@vaultline/core';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32;
/** Generated keys are base62; configured ones (BOOTSTRAP_API_KEY) may also contain underscores. */
export const API_KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z_]+$/;

/** `sk_test_` / `sk_live_` + 32 base62 characters from the CSPRNG (≈190 bits). */
export function generateApiKey(mode: ApiKeyMode): string {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(SECRET_LENGTH * 2)) {
      // 248 = 62 * 4: rejecting bytes above it keeps the alphabet unbiased.
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  return `sk_${mode}_${secret}`;
}

/** An operator's admin key (X-Admin-Key): `admin_` + 32 base62 characters from the CSPRNG. */
export function generateAdminKey(): string {
  return `admin_${generateApiKey('live').slice('sk_live_'.length)}`;
}

/** The stored form of a key: HMAC-SHA256 with the pepper, hex. Keys are never stored in clear. */
export function hashApiKey(apiKey: string, pepper: string): string {
  return createHmac('sha256', pepper).update(apiKey, 'utf8').digest('hex');
}

/** What may be shown of a key after creation: its first 12 characters (e.g. `sk_test_AbCd`). */
export function apiKeyPrefix(apiKey: string): string {
  return apiKey.slice(0, 12);
}

export function apiKeyMode(apiKey: string): ApiKeyMode | undefined {
  const match = API_KEY_PATTERN.exec(apiKey);
  return match ? (match[1] as ApiKeyMode) : undefined;
}

/**
 * Second step of a lookup by hash: compares the presented key's hash with the stored one
 * in constant time, so that a store that matched loosely cannot leak timing.
 */
export function apiKeyMatches(apiKey: string, storedHash: string, pepper: string): boolean {
  return constantTimeEquals(hashApiKey(apiKey, pepper), storedHash);
}
