import type { SecretSealer } from '../domain/ports';

/**
 * Signing secrets opened once and kept in memory: every delivery attempt signs with its endpoint's
 * secrets, which change only on a rotation (a new sealed value, so a new entry). Keyed by context
 * and sealed value, so the cache never opens a value for a context it was not sealed for.
 */
export class OpenedSecretsCache implements SecretSealer {
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly sealer: SecretSealer,
    private readonly limit = 10_000,
  ) {}

  seal(plaintext: string, context: string): string {
    return this.sealer.seal(plaintext, context);
  }

  open(sealed: string, context: string): string {
    const key = `${context}\n${sealed}`;
    let secret = this.opened.get(key);
    if (secret === undefined) {
      secret = this.sealer.open(sealed, context);
      if (this.opened.size >= this.limit) this.opened.clear();
      this.opened.set(key, secret);
    }
    return secret;
  }
}
