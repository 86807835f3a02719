/**
 * Short-lived values (the security code, rate-limit counters, session capabilities).
 * Adapters: memory (embedded), Redis (local, production).
 * What must stay true: a value is gone once its TTL has passed — `get` never returns it after
 * that — and nothing a TTL store holds is ever persisted to a database file.
 */
export interface TtlStore {
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Sets the value only when the key is absent (or expired): true when this call set it. Atomic —
   * of concurrent calls for one key exactly one gets true (a claim, e.g. an Idempotency-Key).
   */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<string | null>;
  /** Remaining lifetime in ms, or null when the key is absent or expired. */
  remainingMs(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Increments a counter that expires windowMs after its first increment; returns the new count. */
  increment(key: string, windowMs: number): Promise<number>;
  /**
   * Takes one token from the bucket at `key` (created full): atomic, so concurrent takers never share a
   * token. The bucket refills at `ratePerSecond` up to `burst` and is forgotten once it would be full.
   */
  takeToken(key: string, bucket: TokenBucket): Promise<TokenTaken>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A token bucket's shape: it holds at most `burst` tokens and gains `ratePerSecond` of them each second. */
export interface TokenBucket {
  ratePerSecond: number;
  burst: number;
}

export interface TokenTaken {
  /** A token was taken: the request may go on. */
  allowed: boolean;
  /** Whole tokens left after this call. */
  remaining: number;
  /** When refused, ms until one token is there again; 0 when allowed. */
  retryAfterMs: number;
  /** Ms until the bucket is full again. */
  resetMs: number;
}
