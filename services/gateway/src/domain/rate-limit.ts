import { AppError } from '@vaultline/core';
import type { TtlStore } from '@vaultline/ttl';

/**
 * Requests per API key at the edge: a token bucket per key (RATE_LIMIT_PER_SECOND refill, RATE_LIMIT_BURST
 * size), overridable per merchant (PATCH /admin/merchants/{id} rate_limit). The bucket lives in the
 * runtime's TTL store — Redis in local and production, so every gateway instance draws on one bucket;
 * in-process in embedded.
 */
export interface RateLimit {
  per_second: number;
  burst: number;
}

/** What the edge tells the client about its bucket (RateLimit-* headers), and whether it may go on. */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the bucket is full again. */
  resetSeconds: number;
  /** Whole seconds until one request is allowed again; 0 when allowed. */
  retryAfterSeconds: number;
}

export type TakeRequestToken = (key: { keyId: string; rateLimit?: RateLimit }) => Promise<RateLimitState>;

export function takeRequestToken({ buckets, defaults }: { buckets: Pick<TtlStore, 'takeToken'>; defaults: RateLimit }): TakeRequestToken {
  return async ({ keyId, rateLimit }) => {
    const { per_second, burst } = rateLimit ?? defaults;
    const taken = await buckets.takeToken(`rate-limit:api-key:${keyId}`, { ratePerSecond: per_second, burst });
    return {
      allowed: taken.allowed,
      limit: burst,
      remaining: taken.remaining,
      resetSeconds: Math.ceil(taken.resetMs / 1000),
      // Retry-After is whole seconds: rounding up keeps a client that obeys it from being refused again.
      retryAfterSeconds: taken.allowed ? 0 : Math.max(1, Math.ceil(taken.retryAfterMs / 1000)),
    };
  };
}

export class RateLimited extends AppError {
  constructor(retryAfterSeconds: number) {
    super('rate_limited', 429, `Too many requests for this API key: retry after ${retryAfterSeconds} s.`, { retry_after: retryAfterSeconds }, true);
  }
}
