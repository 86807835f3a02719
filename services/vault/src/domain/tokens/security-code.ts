import type { Clock } from '@vaultline/core';
import type { RecordCipher } from '@vaultline/crypto';
import type { TtlStore } from '@vaultline/ttl';

/** PCI DSS 3.3: the security code lives only encrypted in the TTL store, for 15 minutes. */
export const SECURITY_CODE_TTL_MS = 15 * 60_000;
export type SecurityCodeStatus = 'available' | 'expired' | 'not_collected';

const FIELD = 'security_code';
const keyOf = (tokenId: string): string => `vault:security-code:${tokenId}`;

export function securityCodeExpiresAt(storedAt: string | null): string | null {
  return storedAt ? new Date(Date.parse(storedAt) + SECURITY_CODE_TTL_MS).toISOString() : null;
}

/** Encrypted under the token's own data key (bound to the token and merchant) before it leaves memory. */
export async function storeSecurityCode(ttl: TtlStore, cipher: RecordCipher, tokenId: string, code: string): Promise<void> {
  await ttl.set(keyOf(tokenId), cipher.encrypt(FIELD, code), SECURITY_CODE_TTL_MS);
}

export async function destroySecurityCode(ttl: TtlStore, tokenId: string): Promise<void> {
  await ttl.delete(keyOf(tokenId));
}

/**
 * The TTL store drops the value after 15 minutes; the stored time is checked as well so the
 * answer does not depend on the TTL adapter's clock.
 */
export async function readSecurityCode(
  ttl: TtlStore,
  clock: Clock,
  cipher: RecordCipher,
  tokenId: string,
  storedAt: string | null,
): Promise<{ status: SecurityCodeStatus; code: string | null }> {
  if (!storedAt) return { status: 'not_collected', code: null };
  if (clock.now().getTime() - Date.parse(storedAt) >= SECURITY_CODE_TTL_MS) {
    await ttl.delete(keyOf(tokenId));
    return { status: 'expired', code: null };
  }
  const sealed = await ttl.get(keyOf(tokenId));
  if (!sealed) return { status: 'expired', code: null };
  try {
    return { status: 'available', code: cipher.decrypt(FIELD, sealed) };
  } catch {
    // Sealed under a data key the token no longer has (its card data was replaced meanwhile).
    return { status: 'expired', code: null };
  }
}
