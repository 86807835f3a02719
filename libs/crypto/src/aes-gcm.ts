import { createCipheriv, createDecipheriv } from 'node:crypto';
import { AppError } from '@vaultline/core';
import { randomPool } from './random-pool';

/** AES-256-GCM with a random 96-bit IV and a 128-bit tag. */
export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Decryption failed: wrong key, wrong associated data, or tampered ciphertext. Never says which. */
export class DecryptionError extends AppError {
  constructor(detail = 'The ciphertext could not be authenticated.') {
    super('decryption_failed', 500, detail);
  }
}

export class InvalidKeyError extends AppError {
  constructor(detail: string) {
    super('invalid_key', 500, detail);
  }
}

export function assertKey(key: Buffer, name = 'key'): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    throw new InvalidKeyError(`${name} must be ${KEY_BYTES} bytes`);
  }
}

/** Output layout: iv (12) | ciphertext | tag (16). */
export function seal(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  assertKey(key);
  // GCM is a stream mode: the ciphertext is as long as the plaintext, so the output is laid out at once.
  const out = Buffer.allocUnsafe(IV_BYTES + plaintext.length + TAG_BYTES);
  const iv = randomPool.fill(out, 0, IV_BYTES).subarray(0, IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const body = cipher.update(plaintext);
  const rest = cipher.final();
  body.copy(out, IV_BYTES);
  rest.copy(out, IV_BYTES + body.length);
  cipher.getAuthTag().copy(out, IV_BYTES + body.length + rest.length);
  return out;
}

export function open(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  assertKey(key);
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new DecryptionError('The ciphertext is truncated.');
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const body = sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new DecryptionError();
  }
}

export function generateKey(): Buffer {
  return randomPool.bytes(KEY_BYTES);
}

/** Decodes a base64 (or base64url) 32-byte key; names the setting when it is wrong. */
export function keyFromBase64(value: string, name = 'key'): Buffer {
  const key = Buffer.from(value.trim(), /[-_]/.test(value) ? 'base64url' : 'base64');
  if (key.length !== KEY_BYTES) throw new InvalidKeyError(`${name} must be ${KEY_BYTES} bytes encoded as base64`);
  return key;
}
