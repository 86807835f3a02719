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
  ping(): Promise<void>;
  close(): Promise<void>;
}
