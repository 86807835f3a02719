import { AppError } from '@vaultline/core';
import { fingerprint, type KeyRing } from '@vaultline/crypto';

export class UnknownKeyVersion extends AppError {
  constructor(version: number) {
    super('unknown_key_version', 422, `Key-encryption key version ${version} is not configured; add it to VAULT_KEK_KEYS (or VAULT_KEK_FILE) first.`, {
      field: 'to_version',
    });
  }
}

/** Makes a new KEK version where the vault owns its key file (embedded profile only). */
export interface KeyProvisioner {
  addVersion(version: number, ring: KeyRing): KeyRing;
}

/**
 * The vault's key material: the KEK ring (the active version wraps new data keys) and the separate
 * fingerprint key. The ring can change while serving: a rotation activates a new version.
 */
export class VaultKeys {
  #ring: KeyRing;
  readonly #fingerprintKey: Buffer;
  readonly #provisioner: KeyProvisioner | undefined;

  constructor(ring: KeyRing, fingerprintKey: Buffer, provisioner?: KeyProvisioner) {
    this.#ring = ring;
    this.#fingerprintKey = fingerprintKey;
    this.#provisioner = provisioner;
  }

  get ring(): KeyRing {
    return this.#ring;
  }

  fingerprintOf(merchantId: string, pan: string): string {
    return fingerprint(this.#fingerprintKey, pan, merchantId);
  }

  /** Makes `version` available (creating it when the vault provisions its own keys) and active. */
  activate(version: number): void {
    if (!this.#ring.has(version)) {
      if (!this.#provisioner) throw new UnknownKeyVersion(version);
      this.#ring = this.#provisioner.addVersion(version, this.#ring);
    }
    this.#ring = this.#ring.withActive(version);
  }

  canActivate(version: number): boolean {
    return this.#ring.has(version) || this.#provisioner !== undefined;
  }

  toJSON(): string {
    return '[VaultKeys]';
  }
}
