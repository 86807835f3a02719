import { open, seal } from './aes-gcm';

const PREFIX = 'sb1.';

/**
 * Encrypts a short secret (a platform API key held while an import runs) under a 32-byte key.
 * `context` is bound as associated data: a value sealed for one job cannot be opened for another.
 * Result: "sb1." + base64url(iv | ciphertext | tag) — safe to store in a JSON document.
 */
export function encryptSecret(key: Buffer, plaintext: string, context = ''): string {
  return PREFIX + seal(key, Buffer.from(plaintext, 'utf8'), aadOf(context)).toString('base64url');
}

/** Throws DecryptionError when the key or context differ or the value was altered. */
export function decryptSecret(key: Buffer, sealed: string, context = ''): string {
  const body = sealed.startsWith(PREFIX) ? sealed.slice(PREFIX.length) : sealed;
  return open(key, Buffer.from(body, 'base64url'), aadOf(context)).toString('utf8');
}

const aadOf = (context: string): Buffer => Buffer.from(`secret-box:${context}`, 'utf8');
