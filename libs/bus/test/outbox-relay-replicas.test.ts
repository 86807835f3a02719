import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep, waitFor } from '@vaultline/core';
import { createLogger } from '@vaultline/logger';
import { MemoryDocumentStore, SqliteDocumentStore, type DocumentStore } from '@vaultline/store';
import { describeWithMongo, withMongoDatabase } from '@vaultline/testing';
import { randomUUID } from 'node:crypto';
import { openBus, startOutboxRelay, type Bus, type BusMessage, type OutboxRelay } from '../src';

/**
 * Several replicas of a service, each with its outbox relay on the one store (memory: the same object;
 * SQLite: a connection each to the same file, as separate processes would have). A relay "dies" as a
 * process does: from that moment none of its calls to the store or the bus ever completes, its lease is
 * no longer renewed, and nothing is released. A "paused" relay (a stalled process) resumes later.
 */
type Life = 'alive' | 'paused' | 'dead';

interface Replica {
  name: string;
  relay: OutboxRelay;
  life: Life;
  resume(): void;
  /** Batches this replica's relay handed to the bus (before the bus accepted them). */
  batches: BusMessage[][];
}

const KEYS = ['k0', 'k1', 'k2', 'k3', 'k4'];
const LEASE_TTL_MS = 400;
const STANDBY_POLL_MS = 50;

/** A view of `target` whose calls hang for ever once its replica is dead, and wait while it is paused. */
function mortal<T extends object>(target: T, replica: () => Replica): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          const { life } = replica();
          if (life === 'dead') return new Promise(() => undefined);
          if (life === 'paused') return waitUntilAlive(replica).then(() => (value as (...a: unknown[]) => unknown).apply(object, args));
          return (value as (...a: unknown[]) => unknown).apply(object, args);
        };
      }
      if (value !== null && typeof value === 'object') return mortal(value, replica);
      return value;
    },
  });
}

async function waitUntilAlive(replica: () => Replica): Promise<void> {
  while (replica().life === 'paused') await sleep(10);
  if (replica().life === 'dead') await new Promise(() => undefined);
}

interface Published {
  by: string;
  message: BusMessage;
  at: number;
}

const adapters: Array<[string, () => Promise<{ open: () => Promise<DocumentStore>; cleanup: () => void }>]> = [
  [
    'memory store',
    async () => {
      const shared = new MemoryDocumentStore();
      return { open: async () => shared, cleanup: () => undefined };
    },
  ],
  [
    'sqlite store',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'vaultline-relays-'));
      return { open: () => SqliteDocumentStore.open(join(dir, 'service.db')), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
];

for (const [name, adapter] of adapters) describe(`outbox relays of several replicas on the ${name}`, () => relayReplicasSuite(adapter));

// The same on MongoDB (a connection per replica to one database, the lease on the server's clock): run
// wherever MONGO_URL names a replica set, skipped with one line otherwise.
describeWithMongo('outbox relays of several replicas on the mongodb store', 'Outbox relay replicas on MongoDB', (mongoUrl) =>
  relayReplicasSuite(async () => {
    const url = withMongoDatabase(mongoUrl(), `vaultline_test_${randomUUID().replace(/-/g, '')}`);
    const { MongoDocumentStore, dropMongoDatabase } = await import('@vaultline/store/mongo');
    return { open: () => MongoDocumentStore.connect(url), cleanup: () => void dropMongoDatabase(url) };
  }),
);

function relayReplicasSuite(adapter: () => Promise<{ open: () => Promise<DocumentStore>; cleanup: () => void }>): void {
  let cleanup: () => void;
  let open: () => Promise<DocumentStore>;
  let writer: DocumentStore;
  let bus: Bus;
  let replicas: Replica[];
  let published: Published[];
  const stores: DocumentStore[] = [];
  let logLines: string[];

  beforeEach(async () => {
    ({ open, cleanup } = await adapter());
    writer = await open();
    stores.push(writer);
    bus = await openBus('memory://');
    replicas = [];
    published = [];
    logLines = [];
  });

  afterEach(async () => {
    for (const replica of replicas.filter((r) => r.life !== 'dead')) await replica.relay.stop();
    for (const store of new Set(stores.splice(0))) await store.close();
    await bus.close();
    cleanup();
  });

  /** Starts a replica's relay; `onBatch` may kill or pause it in the middle of a batch (after part of it reached the bus). */
  async function startReplica(name: string, onBatch: (replica: Replica, batch: BusMessage[]) => Promise<void> = async () => undefined): Promise<Replica> {
    const own = await open();
    stores.push(own);
    const replica: Replica = { name, life: 'alive', batches: [], relay: undefined as unknown as OutboxRelay, resume: () => void (replica.life = 'alive') };
    const replicaBus: Bus = {
      ...bus,
      ensureTopics: (topics) => bus.ensureTopics(topics),
      ping: () => bus.ping(),
      publish: async (messages) => {
        replica.batches.push(messages);
        await onBatch(replica, messages);
        await bus.publish(messages);
        for (const message of messages) published.push({ by: name, message, at: Date.now() });
      },
    };
    const lines = logLines;
    const logger = createLogger({ service: name, level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    replica.relay = startOutboxRelay({
      store: mortal(own, () => replica),
      bus: mortal(replicaBus, () => replica),
      logger,
      pollIntervalMs: 20,
      batchSize: 10,
      flushOnStopMs: 0,
      lease: { holder: name, ttlMs: LEASE_TTL_MS, standbyPollMs: STANDBY_POLL_MS },
    });
    replicas.push(replica);
    return replica;
  }

  /** Commits `count` messages, round-robin over KEYS, each numbered within its key; a commit every few ms. */
  async function commitMessages(count: number): Promise<string[]> {
    const ids: string[] = [];
    const next: Record<string, number> = {};
    for (let i = 0; i < count; i++) {
      const key = KEYS[i % KEYS.length]!;
      next[key] = (next[key] ?? 0) + 1;
      const id = `${key}#${next[key]}`;
      ids.push(id);
      await writer.transaction((uow) => uow.publish({ topic: 'replicas.v1', key, value: JSON.stringify({ id, n: next[key] }), headers: { 'event-id': id } }));
      if (i % 5 === 0) await sleep(2);
    }
    return ids;
  }

  const idOf = (message: BusMessage) => message.headers['event-id']!;

  /** What the bus received, checked: every committed message at least once, each key's first deliveries in commit order. */
  function check(committed: string[]) {
    const firstSeen = new Map<string, number>();
    published.forEach(({ message }, index) => {
      if (!firstSeen.has(idOf(message))) firstSeen.set(idOf(message), index);
    });
    const lost = committed.filter((id) => !firstSeen.has(id));
    const outOfOrder = KEYS.filter((key) => {
      const firsts = [...firstSeen.keys()].filter((id) => id.startsWith(`${key}#`)).map((id) => Number(id.split('#')[1]));
      return firsts.some((n, index) => n !== index + 1);
    });
    const counts = new Map<string, number>();
    for (const { message } of published) counts.set(idOf(message), (counts.get(idOf(message)) ?? 0) + 1);
    const duplicated = [...counts].filter(([, count]) => count > 1).map(([id]) => id);
    return { lost, outOfOrder, duplicated };
  }

  /** Kills the replica in its first batch of two or more messages from its batch number `batchNumber` (from 1) on, after the first half of that batch reached the bus. */
  const dieInBatch = (batchNumber: number, killedAt: Map<string, number>) => async (replica: Replica, batch: BusMessage[]) => {
    // The last replica standing is left alive to finish the work.
    if (replica.batches.length < batchNumber || batch.length < 2 || replicas.filter((other) => other.life === 'alive').length <= 1) return;
    const half = batch.slice(0, Math.ceil(batch.length / 2));
    await bus.publish(half);
    for (const message of half) published.push({ by: replica.name, message, at: Date.now() });
    replica.life = 'dead';
    killedAt.set(replica.name, Date.now());
    await new Promise(() => undefined);
  };

  it.each([2, 3])(
    'when %i relays run and each holder in turn is killed in the middle of a batch, then nothing is lost, each key keeps commit order, duplicates are only what a killed holder sent, and another relay takes over within seconds',
    async (relays) => {
      const killedAt = new Map<string, number>();
      for (let r = 0; r < relays; r++) await startReplica(`replica-${r}`, dieInBatch(3, killedAt));

      const committed = await commitMessages(300);
      await waitFor(() => check(committed).lost.length === 0, 20_000, 20);

      const { lost, outOfOrder, duplicated } = check(committed);
      const killed = replicas.filter((replica) => replica.life === 'dead');
      const sentByTheKilled = new Set(killed.flatMap((replica) => replica.batches.flat().map(idOf)));
      expect(killed.length).toBe(relays - 1);
      expect(lost).toEqual([]);
      expect(outOfOrder).toEqual([]);
      expect(duplicated.length).toBeGreaterThan(0);
      expect(duplicated.filter((id) => !sentByTheKilled.has(id))).toEqual([]);
      // Takeover: after each kill another replica publishes within the lease's TTL plus a standby poll (and scheduling slack).
      for (const [name, at] of killedAt) {
        const next = published.find((entry) => entry.by !== name && entry.at >= at);
        expect({ killed: name, takeoverMs: next ? Math.min(next.at - at, LEASE_TTL_MS + STANDBY_POLL_MS + 1_000) : 'none' }).toEqual({
          killed: name,
          takeoverMs: expect.any(Number),
        });
        expect(next!.at - at).toBeLessThan(LEASE_TTL_MS + STANDBY_POLL_MS + 1_000);
      }
      expect(new Set(published.map((entry) => entry.by)).size).toBe(relays);
    },
    30_000,
  );

  it('when the holder is stalled past its lease in the middle of a batch and then resumes, then its late removal is refused by the fencing token, it stands by, and the others carry on in commit order', async () => {
    let stalled: Replica | undefined;
    let stalledBatch = new Set<string>();
    let resumedAt = Infinity;
    // The first batch of two messages or more after a replica's first (under load the batches come out
    // larger or smaller than on a quiet machine: the second batch alone could be a single message).
    const stallOnce = async (replica: Replica, batch: BusMessage[]) => {
      if (stalled || replica.batches.length < 2 || batch.length < 2) return;
      stalled = replica;
      stalledBatch = new Set(batch.map(idOf));
      replica.life = 'paused';
      const stalledAt = Date.now();
      await sleep(LEASE_TTL_MS * 3);
      // Stalled until another replica holds the lease and publishes (on a loaded machine its standby poll may
      // come later than three lease lengths): a resume before that would find its lease still free and keep it.
      await waitFor(() => published.some((entry) => entry.by !== replica.name && entry.at >= stalledAt), 15_000, 10);
      resumedAt = Date.now();
      replica.resume();
    };
    for (let r = 0; r < 2; r++) await startReplica(`replica-${r}`, stallOnce);

    const committed = await commitMessages(200);
    await waitFor(() => check(committed).lost.length === 0, 20_000, 20);
    expect(stalled).toBeDefined();
    await waitFor(() => logLines.some((line) => line.includes('lost its lease')), 10_000, 20);
    await writer.transaction((uow) => uow.publish({ topic: 'replicas.v1', key: 'k0', value: '{}', headers: { 'event-id': 'after' } }));
    await waitFor(() => published.some(({ message }) => idOf(message) === 'after'), 5_000, 20);

    const { lost, outOfOrder, duplicated } = check([...committed, 'after']);
    expect(stalled).toBeDefined();
    expect(lost).toEqual([]);
    expect(outOfOrder).toEqual([]);
    expect(duplicated.filter((id) => !stalledBatch.has(id))).toEqual([]);
    // Once resumed, the stalled replica sent only the batch it was in the middle of: the other holds the lease.
    expect(published.filter(({ by, at, message }) => by === stalled!.name && at >= resumedAt && !stalledBatch.has(idOf(message)))).toEqual([]);
    expect(resumedAt).toBeLessThan(Infinity);
  }, 30_000);

  it('when the holder stops cleanly (a rolling update), then it hands the lease over and a standby relay publishes the next message at once, without duplicates', async () => {
    const first = await startReplica('replica-0');
    await sleep(100);
    await startReplica('replica-1');
    const before = await commitMessages(20);
    await waitFor(() => check(before).lost.length === 0, 5_000, 20);

    await first.relay.stop();
    first.life = 'dead';
    const stoppedAt = Date.now();
    await writer.transaction((uow) => uow.publish({ topic: 'replicas.v1', key: 'k0', value: '{}', headers: { 'event-id': 'after-stop' } }));
    await waitFor(() => published.some(({ message }) => idOf(message) === 'after-stop'), 5_000, 10);

    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_TTL_MS);
    expect(published.find(({ message }) => idOf(message) === 'after-stop')!.by).toBe('replica-1');
    expect(check([...before, 'after-stop']).duplicated).toEqual([]);
    expect(new Set(published.filter(({ message }) => before.includes(idOf(message))).map(({ by }) => by))).toEqual(new Set(['replica-0']));
  }, 30_000);
}
