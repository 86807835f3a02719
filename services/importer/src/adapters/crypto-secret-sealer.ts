import { decryptSecret, encryptSecret } from '@vaultline/crypto';
import type { SecretSealer } from '../domain/ports';

/** AES-256-GCM (libs/crypto secret box) under the importer's key, bound to the job and purpose. */
export class CryptoSecretSealer implements SecretSealer {
  constructor(private readonly key: Buffer) {}

  seal(plaintext: string, context: string): string {
    return encryptSecret(this.key, plaintext, context);
  }

  open(sealed: string, context: string): string {
    return decryptSecret(this.key, sealed, context);
  }
}
