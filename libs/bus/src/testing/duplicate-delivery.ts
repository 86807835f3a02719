import type { DocumentStore, StoredDocument } from '@vaultline/store';
import type { Bus, BusMessage } from '../bus.port';
import { openBus } from '../open-bus';
import { RedeliveringBus, type RedeliveryStats } from './redelivering-bus';

/** A consumer under test, started fresh (its own empty state) on the bus it is given. */
export interface ConsumerRun {
  /** The consumer's end state: its store documents and what it published (see endStateOf). */
  endState(published: BusMessage[]): Promise<unknown>;
  /** What must hold before the end state is read, besides every message being handled (an outbox drained…). */
  quiet?(): Promise<boolean>;
  stop(): Promise<void>;
}

export interface DuplicateDeliveryCase {
  /** The messages the consumer would get, in publish order. The same objects are sent in every run. */
  messages: BusMessage[];
  /** Starts the consumer under test (with fresh state) on `bus`. */
  start(bus: Bus): Promise<ConsumerRun>;
  /** Runs with duplicates, one per seed (default: 3 seeds from VAULTLINE_REDELIVERY_SEED or the time). */
  seeds?: number[];
}

export interface DuplicateDeliveryReport {
  seeds: number[];
  messages: number;
  stats: RedeliveryStats;
  /** One line for the test's output: seeds and counts. */
  summary: string;
}

/**
 * Runs the consumer once with each message delivered once, then once per seed with every message
 * delivered two or three times, partly concurrently and partly after later messages of the same key
 * (RedeliveringBus), and expects the same end state each time. The report's summary names the seeds and
 * counts (tests print it); a failing seed is replayed with VAULTLINE_REDELIVERY_SEED=<seed>.
 */
export async function expectSameEndStateUnderRedelivery(testCase: DuplicateDeliveryCase): Promise<DuplicateDeliveryReport> {
  const seeds = testCase.seeds ?? defaultSeeds();
  const once = await runOnce(testCase, { seed: 0, maxExtraCopies: 0 });
  expect(once.failures).toEqual([]);
  const stats: RedeliveryStats = { delivered: 0, redelivered: 0, outOfOrder: 0, concurrent: 0 };
  for (const seed of seeds) {
    const duplicated = await runOnce(testCase, { seed, maxExtraCopies: 2 });
    expect({ seed, failures: duplicated.failures }).toEqual({ seed, failures: [] });
    expect({ seed, endState: duplicated.endState }).toEqual({ seed, endState: once.endState });
    for (const key of Object.keys(stats) as Array<keyof RedeliveryStats>) stats[key] += duplicated.stats[key];
  }
  const summary = `${testCase.messages.length} messages, seeds ${seeds.join(',')}: ${stats.delivered} first deliveries, ${stats.redelivered} copies (${stats.outOfOrder} out of order, ${stats.concurrent} concurrent), end state identical`;
  return { seeds, messages: testCase.messages.length, stats, summary };
}

async function runOnce(testCase: DuplicateDeliveryCase, options: { seed: number; maxExtraCopies: number }) {
  const bus = new RedeliveringBus(await openBus('memory://'), options);
  const run = await testCase.start(bus);
  try {
    await bus.publish(testCase.messages);
    await bus.settle(run.quiet ? { quiet: () => run.quiet!() } : {});
    return { endState: await run.endState(bus.published), failures: bus.failures, stats: { ...bus.stats } };
  } finally {
    await run.stop();
    await bus.close();
  }
}

function defaultSeeds(): number[] {
  const fixed = process.env.VAULTLINE_REDELIVERY_SEED;
  if (fixed) return [Number(fixed)];
  const base = Date.now() % 1_000_000;
  return [base, base + 1, base + 2];
}

export interface EndStateOptions {
  /** What the run published (RedeliveringBus.published); the given messages are left out. */
  published?: BusMessage[];
  /** The messages the run was given: their ids are kept, and they are not counted as published. */
  given?: BusMessage[];
  /** Fields that measure the run rather than state its outcome (a duration): left out. `version` always is. */
  ignoreFields?: string[];
}

/**
 * A comparable end state: every document of `collections` (all merchants) and every message published,
 * minus what differs between two correct runs — ids and times generated during the run become
 * placeholders, store versions are left out — each list sorted. Ids the run was given are kept.
 */
export async function endStateOf(store: DocumentStore, collections: string[], options: EndStateOptions = {}): Promise<Record<string, string[]>> {
  const given = options.given ?? [];
  const normalize = normalizer(given, options.ignoreFields ?? []);
  const state: Record<string, string[]> = {};
  for (const name of collections) {
    const documents: StoredDocument[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await store.collection(name).listAcrossMerchants({}, { limit: 500, ...(after ? { after } : {}) });
      documents.push(...page.items);
      if (!page.has_more || !page.next_cursor) break;
      after = page.next_cursor;
    }
    state[name] = documents.map(normalize).sort();
  }
  const own = new Set(given.map((m) => m.value));
  state['published'] = (options.published ?? [])
    .filter((m) => !own.has(m.value))
    .map((m) => normalize({ topic: m.topic, key: m.key, value: JSON.parse(m.value) as unknown }))
    .sort();
  return state;
}

/** JSON with generated ids and times as placeholders (ids in `given` kept) and `ignoreFields` dropped: for comparing runs. */
export function normalizer(given: BusMessage[], ignoreFields: string[] = []): (value: unknown) => string {
  const ids = new Set(given.flatMap((m) => m.value.match(UUID) ?? []));
  const ignored = new Set(['version', ...ignoreFields]);
  return (value) =>
    JSON.stringify(value, (key, v: unknown) => (ignored.has(key) ? undefined : v))
      .replace(UUID, (id) => (ids.has(id) ? id : '<id>'))
      .replace(ISO_TIME, '<time>');
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;
