import { assertKey, InvalidKeyError, keyFromBase64 } from './aes-gcm';

export class UnknownKeyVersionError extends InvalidKeyError {
  constructor(version: number) {
    super(`key-encryption key version ${version} is not configured`);
  }
}

/**
 * The key-encryption keys (KEKs), by version. One version is active: new data keys are wrapped
 * under it; older versions stay to unwrap records until a rotation has re-wrapped them.
 */
export class KeyRing {
  readonly #keys: Map<number, Buffer>;
  readonly activeVersion: number;

  constructor(keys: Map<number, Buffer>, activeVersion: number) {
    for (const [version, key] of keys) {
      if (!Number.isInteger(version) || version < 1) throw new InvalidKeyError(`key version ${version} must be a positive integer`);
      assertKey(key, `key-encryption key version ${version}`);
    }
    if (!keys.has(activeVersion)) throw new UnknownKeyVersionError(activeVersion);
    this.#keys = new Map(keys);
    this.activeVersion = activeVersion;
  }

  /** Parses "1:base64key,2:base64key" (the VAULT_KEK_KEYS format). */
  static parse(list: string, activeVersion?: number): KeyRing {
    const keys = new Map<number, Buffer>();
    for (const entry of list
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const separator = entry.indexOf(':');
      const version = Number(entry.slice(0, separator));
      if (separator < 1 || !Number.isInteger(version)) throw new InvalidKeyError('each key must be written as version:base64key');
      if (keys.has(version)) throw new InvalidKeyError(`key version ${version} appears twice`);
      keys.set(version, keyFromBase64(entry.slice(separator + 1), `key-encryption key version ${version}`));
    }
    if (keys.size === 0) throw new InvalidKeyError('at least one key-encryption key is required');
    return new KeyRing(keys, activeVersion ?? Math.max(...keys.keys()));
  }

  /** Serialises back to the "version:base64key" list (for the embedded profile's key file). */
  format(): string {
    return [...this.#keys].map(([version, key]) => `${version}:${key.toString('base64')}`).join(',');
  }

  has(version: number): boolean {
    return this.#keys.has(version);
  }

  versions(): number[] {
    return [...this.#keys.keys()].sort((a, b) => a - b);
  }

  key(version: number): Buffer {
    const key = this.#keys.get(version);
    if (!key) throw new UnknownKeyVersionError(version);
    return key;
  }

  /** A new ring with another version added (and made active when asked). */
  with(version: number, key: Buffer, makeActive = false): KeyRing {
    const keys = new Map(this.#keys);
    keys.set(version, key);
    return new KeyRing(keys, makeActive ? version : this.activeVersion);
  }

  withActive(version: number): KeyRing {
    return new KeyRing(this.#keys, version);
  }

  toJSON(): string {
    return '[KeyRing]';
  }
}
