import { AppError } from '@vaultline/core';
import type { TokenBucket, TokenTaken } from './ttl.port';

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

export function validBucket(bucket: TokenBucket): TokenBucket {
  const { ratePerSecond, burst } = bucket ?? {};
  if (typeof ratePerSecond !== 'number' || !Number.isFinite(ratePerSecond) || ratePerSecond <= 0)
    throw new InvalidTtlArgumentError('ratePerSecond must be a positive number');
  if (typeof burst !== 'number' || !Number.isInteger(burst) || burst < 1) throw new InvalidTtlArgumentError('burst must be a whole number of at least 1');
  return { ratePerSecond, burst };
}

/**
 * The token-bucket step both adapters run (Redis as the same arithmetic in Lua): refill for the time
 * passed, take one token when there is one. `tokens` is fractional; state is [tokens, atMs].
 */
export function takeFromBucket(
  state: { tokens: number; atMs: number } | null,
  nowMs: number,
  bucket: TokenBucket,
): { state: { tokens: number; atMs: number }; taken: TokenTaken } {
  const { ratePerSecond, burst } = bucket;
  const elapsed = state ? Math.max(0, nowMs - state.atMs) : 0;
  let tokens = state ? Math.min(burst, state.tokens + (elapsed * ratePerSecond) / 1000) : burst;
  const allowed = tokens >= 1;
  if (allowed) tokens -= 1;
  const taken: TokenTaken = {
    allowed,
    remaining: Math.floor(tokens),
    retryAfterMs: allowed ? 0 : Math.ceil(((1 - tokens) * 1000) / ratePerSecond),
    resetMs: Math.ceil(((burst - tokens) * 1000) / ratePerSecond),
  };
  return { state: { tokens, atMs: nowMs }, taken };
}
