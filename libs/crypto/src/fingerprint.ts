import { createHmac } from 'node:crypto';
import { assertKey } from './aes-gcm';

/**
 * A keyed fingerprint (HMAC-SHA256) of a value such as a PAN. Its key is separate from every
 * encryption key (PCI DSS 3.5.1: a hash of a PAN must be keyed). `scope` (a merchant id) makes
 * fingerprints of the same card differ between merchants, so they cannot be correlated across tenants.
 */
export function fingerprint(key: Buffer, value: string, scope = ''): string {
  assertKey(key, 'fingerprint key');
  return 'fp_' + createHmac('sha256', key).update(scope).update('\u0000').update(value).digest('base64url').slice(0, 32);
}
