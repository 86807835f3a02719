import Redis from 'ioredis';
import { UnavailableError } from '@vaultline/core';
import type { TokenBucket, TokenTaken, TtlStore } from './ttl.port';
import { InvalidTtlArgumentError, validBucket, validKey, validTtlMs } from './ttl-arguments';

export interface RedisTtlStoreOptions {
  /** Prepended to every key (ioredis keyPrefix), so several stores can share one Redis. */
  keyPrefix?: string;
  /** Connection errors (reconnects are automatic); commands fail with UnavailableError meanwhile. */
  onError?: (error: Error) => void;
  /** rediss://: the CA that signed the server's certificate (PEM), when not a public one. */
  tlsCa?: Buffer;
}

/**
 * INCR, and PEXPIRE only when the key has no expiry yet: the window starts at the first increment
 * and later increments never extend it. One script, so a crash between the two cannot leave an
 * immortal counter.
 */
const INCREMENT_IN_WINDOW = `
local count = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count
`;

/**
 * The token bucket of ttl-arguments.ts takeFromBucket, in one script so concurrent gateways never share a
 * token. Time is Redis's own (TIME), so gateways with skewed clocks agree. The state is "tokens:atMs";
 * the key expires when the bucket would be full again, which forgets idle clients.
 * Returns {allowed 0|1, remaining, retryAfterMs, resetMs}.
 */
const TAKE_TOKEN = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local tokens = burst
local state = redis.call('GET', KEYS[1])
if state then
  local sep = string.find(state, ':', 1, true)
  if not sep then return redis.error_reply('the value at the key is not a token bucket') end
  local previous = tonumber(string.sub(state, 1, sep - 1))
  local at = tonumber(string.sub(state, sep + 1))
  if previous == nil or at == nil then return redis.error_reply('the value at the key is not a token bucket') end
  tokens = math.min(burst, previous + math.max(0, now - at) * rate / 1000)
end
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) * 1000 / rate)
end
local reset = math.ceil((burst - tokens) * 1000 / rate)
redis.call('SET', KEYS[1], string.format('%.6f', tokens) .. ':' .. now, 'PX', math.max(1, reset))
return {allowed, math.floor(tokens), retry, reset}
`;

interface WithScripts {
  vaultlineIncrementInWindow(key: string, windowMs: string): Promise<number>;
  vaultlineTakeToken(key: string, ratePerSecond: string, burst: string): Promise<[number, number, number, number]>;
}

/** Redis adapter: SET PX (NX for claims) / GET / PTTL / DEL, and a Lua counter for rate windows. Nothing is persisted by us beyond Redis's own settings. */
export class RedisTtlStore implements TtlStore {
  private readonly client: Redis;

  constructor(url: string, options: RedisTtlStoreOptions = {}) {
    this.client = new Redis(url, {
      keyPrefix: options.keyPrefix,
      // rediss:// turns TLS on; a private CA is trusted through `ca` (ioredis passes tls to tls.connect).
      ...(options.tlsCa ? { tls: { ca: [options.tlsCa] } } : {}),
      maxRetriesPerRequest: 2,
      enableAutoPipelining: true,
      // ioredis arms this timer even when the socket is already closed (disconnect while reconnecting),
      // which keeps the process alive for its whole length; a short one is plenty for a TTL store.
      disconnectTimeout: 200,
    });
    this.client.on('error', (error: Error) => options.onError?.(error));
    this.client.defineCommand('vaultlineIncrementInWindow', { numberOfKeys: 1, lua: INCREMENT_IN_WINDOW });
    this.client.defineCommand('vaultlineTakeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    if (typeof value !== 'string') throw new InvalidTtlArgumentError('TTL store values must be strings');
    const ttl = validTtlMs('ttlMs', ttlMs);
    await this.call(() => this.client.set(validKey(key), value, 'PX', ttl));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (typeof value !== 'string') throw new InvalidTtlArgumentError('TTL store values must be strings');
    const ttl = validTtlMs('ttlMs', ttlMs);
    // SET NX PX: one command, so Redis decides the race; it answers OK or null.
    return (await this.call(() => this.client.set(validKey(key), value, 'PX', ttl, 'NX'))) === 'OK';
  }

  async get(key: string): Promise<string | null> {
    return this.call(() => this.client.get(validKey(key)));
  }

  async remainingMs(key: string): Promise<number | null> {
    const ttl = await this.call(() => this.client.pttl(validKey(key)));
    // -2: no such key; -1: a key without expiry, which this store never writes.
    return ttl < 0 ? null : ttl;
  }

  async delete(key: string): Promise<void> {
    await this.call(() => this.client.del(validKey(key)));
  }

  async increment(key: string, windowMs: number): Promise<number> {
    const window = validTtlMs('windowMs', windowMs);
    const scripted = this.client as unknown as WithScripts;
    return this.call(() => scripted.vaultlineIncrementInWindow(validKey(key), String(window)));
  }

  async takeToken(key: string, bucket: TokenBucket): Promise<TokenTaken> {
    const { ratePerSecond, burst } = validBucket(bucket);
    const scripted = this.client as unknown as WithScripts;
    const [allowed, remaining, retryAfterMs, resetMs] = await this.call(() => scripted.vaultlineTakeToken(validKey(key), String(ratePerSecond), String(burst)));
    return { allowed: allowed === 1, remaining, retryAfterMs, resetMs };
  }

  async ping(): Promise<void> {
    await this.call(() => this.client.ping());
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    if (this.client.status !== 'ready') {
      // Not connected (yet, or any more): QUIT would wait for a connection that may never come.
      this.client.disconnect();
      return;
    }
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /** Connection failures become UnavailableError (503, retryable); Redis replies (wrong type…) pass as they are. */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      if (error instanceof Error && error.name === 'ReplyError') throw error;
      if (error instanceof InvalidTtlArgumentError) throw error;
      throw new UnavailableError(`TTL store unavailable: ${error instanceof Error ? error.message : String(error)}`, 'ttl_store_unavailable');
    }
  }
}
