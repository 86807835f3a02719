import { systemClock, type Clock } from '@vaultline/core';
import type { TokenBucket, TokenTaken, TtlStore } from './ttl.port';
import { InvalidTtlArgumentError, takeFromBucket, validBucket, validKey, validTtlMs } from './ttl-arguments';

interface Entry {
  value: string;
  expiresAt: number;
}

export interface MemoryTtlStoreOptions {
  /** Tests pass a ManualClock to move time. */
  clock?: Clock;
  /** How often expired entries are dropped (default 30 s). Reads never return them either way. */
  sweepIntervalMs?: number;
  /**
   * Most entries held (default 100 000, about 20–50 MB with small values): a new key beyond it evicts
   * the oldest entry. Keys come from requests (one rate-limit counter per client address or session
   * id), so without a cap a flood of distinct keys grows the process until it dies.
   */
  maxEntries?: number;
}

export const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * In-process TTL store (embedded profile, tests). Expiry is checked on every read against the
 * clock; a periodic sweep, on an unref'd timer, frees what nobody reads again; at most `maxEntries`
 * are held, the oldest evicted first.
 */
export class MemoryTtlStore implements TtlStore {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: Clock;
  private readonly sweeper: NodeJS.Timeout;
  private readonly maxEntries: number;

  constructor(options: MemoryTtlStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1) throw new InvalidTtlArgumentError('maxEntries must be a whole number of at least 1');
    this.sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? 30_000);
    this.sweeper.unref();
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    if (typeof value !== 'string') throw new InvalidTtlArgumentError('TTL store values must be strings');
    this.put(validKey(key), { value, expiresAt: this.now() + validTtlMs('ttlMs', ttlMs) });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (typeof value !== 'string') throw new InvalidTtlArgumentError('TTL store values must be strings');
    const ttl = validTtlMs('ttlMs', ttlMs);
    // No await between the check and the write: one turn of the event loop, so atomic in-process.
    if (this.live(validKey(key))) return false;
    this.put(key, { value, expiresAt: this.now() + ttl });
    return true;
  }

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async remainingMs(key: string): Promise<number | null> {
    const entry = this.live(key);
    return entry ? entry.expiresAt - this.now() : null;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async increment(key: string, windowMs: number): Promise<number> {
    const window = validTtlMs('windowMs', windowMs);
    const entry = this.live(validKey(key));
    if (!entry) {
      this.put(key, { value: '1', expiresAt: this.now() + window });
      return 1;
    }
    if (!/^-?\d+$/.test(entry.value)) throw new InvalidTtlArgumentError(`the value at ${key} is not a counter`);
    const count = Number(entry.value) + 1;
    entry.value = String(count);
    return count;
  }

  async takeToken(key: string, bucket: TokenBucket): Promise<TokenTaken> {
    const shape = validBucket(bucket);
    const entry = this.live(validKey(key));
    const now = this.now();
    const [tokens, atMs] = entry ? entry.value.split(':').map(Number) : [];
    const previous = tokens !== undefined && atMs !== undefined && Number.isFinite(tokens) && Number.isFinite(atMs) ? { tokens, atMs } : null;
    if (entry && !previous) throw new InvalidTtlArgumentError(`the value at ${key} is not a token bucket`);
    // No await in between: one turn of the event loop, so atomic in-process.
    const { state, taken } = takeFromBucket(previous, now, shape);
    this.put(key, { value: `${state.tokens}:${state.atMs}`, expiresAt: now + Math.max(1, taken.resetMs) });
    return taken;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  /** Number of entries held, expired or not (tests use it to check the sweep). */
  get size(): number {
    return this.entries.size;
  }

  /** Drops every expired entry. */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  /**
   * Map order is insertion order, so the first key is the oldest: evicting it is O(1). Rewriting a key
   * keeps its place (an entry's age is its first write), which also keeps a counter's window honest.
   */
  private put(key: string, entry: Entry): void {
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, entry);
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
