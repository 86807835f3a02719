import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;

/**
 * Bytes from the operating system's CSPRNG, drawn 4 KB at a time: each draw is a call into
 * OpenSSL, which costs more than the AES-GCM seal of a card number it provides the IV for.
 * Bytes handed out are wiped from the pool, so no random value is ever returned twice.
 */
export class RandomPool {
  private readonly pool = Buffer.alloc(POOL_BYTES);
  private position = POOL_BYTES;

  /** Fills `target[offset, offset + length)` with fresh random bytes. */
  fill(target: Buffer, offset = 0, length = target.length - offset): Buffer {
    if (length > POOL_BYTES) return randomFillSync(target, offset, length);
    if (this.position + length > POOL_BYTES) {
      randomFillSync(this.pool);
      this.position = 0;
    }
    this.pool.copy(target, offset, this.position, this.position + length);
    this.pool.fill(0, this.position, this.position + length);
    this.position += length;
    return target;
  }

  bytes(length: number): Buffer {
    return this.fill(Buffer.alloc(length));
  }
}

export const randomPool = new RandomPool();
