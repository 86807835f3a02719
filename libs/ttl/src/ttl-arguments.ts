import { AppError } from '@vaultline/core';

/** A TTL store call with impossible arguments: a programming error. */
export class InvalidTtlArgumentError extends AppError {
  constructor(detail: string) {
    super('invalid_ttl_argument', 500, detail);
  }
}

/** TTLs are whole milliseconds, at least 1 (Redis refuses 0 and fractions). */
export function validTtlMs(name: string, ms: number): number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) throw new InvalidTtlArgumentError(`${name} must be a positive number of milliseconds`);
  return Math.ceil(ms);
}

export function validKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidTtlArgumentError('TTL store keys must be non-empty strings');
  return key;
}
