import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAppError } from '@vaultline/core';
import { MemoryDocumentStore, SqliteDocumentStore } from '@vaultline/store';
import { MemoryTtlStore, RedisTtlStore } from '@vaultline/ttl';
import { startRedisServer, type RunningRedis } from '@vaultline/testing';
import { LogBus, MemoryLogStorage } from '@vaultline/bus';
import { SERVICE_NAMES, buildRuntime, generateServiceKeys, withPingGrace, type Pingable, type ServiceName } from '../src';

const GRACE_MS = 30_000;

/** A clock the test moves: the grace is measured on it, the ping's own wait is real time. */
function testClock(): { now: () => number; advance(ms: number): void } {
  let at = Date.parse('2026-11-28T10:00:00.000Z');
  return { now: () => at, advance: (ms) => void (at += ms) };
}

async function pingOutcome(store: Pingable): Promise<'ready' | string> {
  try {
    await store.ping();
    return 'ready';
  } catch (error) {
    return isAppError(error) ? `${error.status} ${error.code}: ${error.message}` : String(error);
  }
}

/** Polls until the condition holds (a reconnect takes what it takes on a loaded machine). */
async function eventually(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('readiness with grace (STORE_UNHEALTHY_AFTER_SECONDS) on the real Redis TTL store', () => {
  let redis: RunningRedis;
  let ttl: RedisTtlStore;
  beforeAll(async () => {
    redis = await startRedisServer();
    ttl = new RedisTtlStore(redis.url, { keyPrefix: 'grace:' });
  });
  afterAll(async () => {
    await ttl.close();
    await redis.stop();
  });

  it('when redis-server is killed, then ping() still says ready within the grace, fails after it naming since when, and is ready again once the server is back', async () => {
    const clock = testClock();
    const graced = withPingGrace(ttl, { name: 'TTL store', graceMs: GRACE_MS, now: clock.now });
    expect(await pingOutcome(graced)).toBe('ready');

    await redis.stop();
    const outageBegan = new Date(clock.now()).toISOString();
    const answeredAt = Date.now();
    expect(await pingOutcome(graced)).toBe('ready');
    // A ping that cannot reach Redis answers from the grace within its wait (1 s), not after a client's retries.
    expect(Date.now() - answeredAt).toBeLessThan(5_000);
    clock.advance(GRACE_MS - 1_000);
    expect(await pingOutcome(graced)).toBe('ready');

    clock.advance(2_000);
    const refused = await pingOutcome(graced);
    expect(refused).toMatch(/^503 not_ready: Not ready: the TTL store has not answered since /);
    expect(refused).toContain(outageBegan);

    redis = await startRedisServer({ port: redis.port });
    await eventually(async () => (await pingOutcome(graced)) === 'ready', 'the TTL store answers again after the restart');

    // The outage ended with the answer: the next one has its own grace.
    await redis.stop();
    expect(await pingOutcome(graced)).toBe('ready');
    redis = await startRedisServer({ port: redis.port });
    await eventually(async () => (await pingOutcome(graced)) === 'ready', 'the TTL store answers after the second restart');
  });

  it('when the grace is 0, then the TTL store is returned as it is: a failed ping fails /ready at once', () => {
    expect(withPingGrace(ttl, { name: 'TTL store', graceMs: 0 })).toBe(ttl);
  });
});

describe('readiness with grace on the SQLite and memory stores', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'vaultline-grace-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("when the SQLite store answers, then ping() is ready and every other method is the store's own", async () => {
    const store = await SqliteDocumentStore.open(join(dir, 'answers.db'));
    try {
      const graced = withPingGrace(store, { name: 'store', graceMs: GRACE_MS });
      expect(await pingOutcome(graced)).toBe('ready');
      await graced.register({ name: 'things' });
      await graced.transaction((uow) => uow.insert('things', { id: 't1', merchant_id: 'm1', mode: 'test' }));
      expect(await store.collection('things').get({ merchantId: 'm1', mode: 'test' }, 't1')).toMatchObject({ id: 't1', version: 1 });
    } finally {
      await store.close();
    }
  });

  it("when the SQLite store cannot be used (its connection closed), then ping() is ready for the grace and fails after it with the database's error", async () => {
    const store = await SqliteDocumentStore.open(join(dir, 'closed.db'));
    const clock = testClock();
    const graced = withPingGrace(store, { name: 'store', graceMs: GRACE_MS, now: clock.now });
    await store.close();

    expect(await pingOutcome(graced)).toBe('ready');
    clock.advance(GRACE_MS);
    expect(await pingOutcome(graced)).toMatch(/^503 not_ready: Not ready: the store has not answered since 2026-11-28T10:00:00.000Z \(.*not open.*\)\.$/);
  });

  it('when the memory stores answer, then ping() is ready', async () => {
    expect(await pingOutcome(withPingGrace(new MemoryDocumentStore(), { name: 'store', graceMs: GRACE_MS }))).toBe('ready');
    const ttl = new MemoryTtlStore();
    expect(await pingOutcome(withPingGrace(ttl, { name: 'TTL store', graceMs: GRACE_MS }))).toBe('ready');
    await ttl.close();
  });
});

describe('the runtime a service is built from', () => {
  it("when STORE_UNHEALTHY_AFTER_SECONDS is given, then the runtime's store and TTL store carry the grace: a TTL store that stopped answering keeps /ready up", async () => {
    const redis = await startRedisServer();
    const ttl = new RedisTtlStore(redis.url);
    const keys = generateServiceKeys();
    const runtime = await buildRuntime({
      service: 'vault',
      storeUrl: 'memory://',
      storeUnhealthyAfterMs: GRACE_MS,
      idempotency: { fingerprintKey: new Uint8Array(32), retentionMs: 60_000 },
      bus: new LogBus(new MemoryLogStorage()),
      ttl,
      logLevel: 'silent',
      privateKeyPem: keys.privateKeys.vault,
      trustedPublicKeys: keys.publicKeys,
      serviceUrls: Object.fromEntries(SERVICE_NAMES.map((name) => [name, 'http://127.0.0.1:1'])) as Record<ServiceName, string>,
      publicBaseUrl: 'http://127.0.0.1:1',
    });
    try {
      await redis.stop();
      expect(await pingOutcome(runtime.ttl)).toBe('ready');
      await expect(ttl.ping()).rejects.toThrow(/TTL store unavailable/);
      expect(await pingOutcome(runtime.store)).toBe('ready');
    } finally {
      await runtime.store.close();
      await ttl.close();
    }
  });
});
