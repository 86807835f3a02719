import { decryptSecret, encryptSecret } from '@vaultline/crypto';

/** Seals endpoint signing secrets at rest. The endpoint id is bound as context: a sealed secret cannot be moved to another endpoint. */
export interface SecretCipher {
  seal(endpointId: string, secret: string): string;
  open(endpointId: string, sealed: string): string;
}

export function createSecretCipher(key: Buffer): SecretCipher {
  return {
    seal: (endpointId, secret) => encryptSecret(key, secret, `webhook-endpoint:${endpointId}`),
    open: (endpointId, sealed) => decryptSecret(key, sealed, `webhook-endpoint:${endpointId}`),
  };
}
