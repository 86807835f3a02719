import { assertKey } from './aes-gcm';
import { decryptSecret, encryptSecret } from './secret-box';

/**
 * Seals short secrets at rest (a platform API key while an import runs, a webhook signing secret).
 * `context` is bound to the sealed value: what was sealed for one job or endpoint does not open
 * for another. `open` throws DecryptionError when the key or context differ or the value was altered.
 */
export interface SecretSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** AES-256-GCM under a 32-byte key (the "sb1." secret box: base64url of iv | ciphertext | tag). */
export class AesGcmSecretSealer implements SecretSealer {
  constructor(private readonly key: Buffer) {
    assertKey(key, 'the sealing key');
  }

  seal(plaintext: string, context: string): string {
    return encryptSecret(this.key, plaintext, context);
  }

  open(sealed: string, context: string): string {
    return decryptSecret(this.key, sealed, context);
  }
}
