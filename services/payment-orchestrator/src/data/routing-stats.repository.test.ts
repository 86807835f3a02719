import { forEachStoreAdapter } from '@vaultline/store/testing';
import type { Segment } from '../domain/routing/segment';
import { orchestratorCollections } from './collections';
import { StoreRoutingStatsRepository } from './routing-stats.repository';

const HOUR_MS = 3_600_000;
const TEST = { merchantId: 'merchant_a', mode: 'test' } as const;
const LIVE = { merchantId: 'merchant_a', mode: 'live' } as const;
const segment: Segment = { scheme: 'VISA', country: 'NL', currency_code: 'EUR', amount_band: '10-100' as Segment['amount_band'] };
const at = new Date('2026-11-29T10:15:00.000Z');

forEachStoreAdapter('routing counts under concurrent payments', (open) => {
  async function repository() {
    const store = await open();
    for (const spec of orchestratorCollections) await store.register(spec);
    return { store, stats: new StoreRoutingStatsRepository(store, HOUR_MS) };
  }

  it('when 200 payments of one merchant record their outcome at once, then every attempt and decision is counted in the bucket', async () => {
    const { stats } = await repository();
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        stats.record(TEST, at, {
          attempts: [{ processor: i % 4 === 0 ? 'acct_b' : 'acct_a', segment, result: i % 10 === 0 ? 'declined' : 'approved' }],
          decisions: [{ processor: 'acct_a', segment, reason: 'best_rate' }],
        }),
      ),
    );
    const rows = await stats.window(TEST, new Date(at.getTime() - HOUR_MS));
    const byProcessor = Object.fromEntries(rows.map((row) => [row.processor, row]));
    expect(byProcessor.acct_a).toMatchObject({ attempts: 150, approved: 140, declined: 10, errors: 0, decisions: { best_rate: 200 } });
    expect(byProcessor.acct_b).toMatchObject({ attempts: 50, approved: 40, declined: 10, errors: 0 });
  });

  it('when counts arrive while a write is under way, then they go out together in the next write, not one write each', async () => {
    const { store, stats } = await repository();
    const transaction = store.transaction.bind(store);
    let writes = 0;
    store.transaction = (work) => {
      writes++;
      return transaction(work);
    };
    const attempt = { attempts: [{ processor: 'acct_a', segment, result: 'approved' as const }], decisions: [] };
    await Promise.all(Array.from({ length: 100 }, () => stats.record(TEST, at, attempt)));
    expect(writes).toBeLessThanOrEqual(2);
    const [row] = await stats.window(TEST, new Date(at.getTime() - HOUR_MS));
    expect(row).toMatchObject({ attempts: 100, approved: 100 });
  });

  it('when a merchant records in both modes at once, then each mode keeps its own counts', async () => {
    const { stats } = await repository();
    const attempt = { attempts: [{ processor: 'acct_a', segment, result: 'approved' as const }], decisions: [] };
    await Promise.all([
      ...Array.from({ length: 30 }, () => stats.record(TEST, at, attempt)),
      ...Array.from({ length: 20 }, () => stats.record(LIVE, at, attempt)),
    ]);
    expect((await stats.window(TEST, new Date(at.getTime() - HOUR_MS)))[0]).toMatchObject({ attempts: 30 });
    expect((await stats.window(LIVE, new Date(at.getTime() - HOUR_MS)))[0]).toMatchObject({ attempts: 20 });
  });

  it('when a write fails, then the callers whose counts it held are told, and counts recorded meanwhile go out in the next write', async () => {
    const { store, stats } = await repository();
    const transaction = store.transaction.bind(store);
    let failNext = true;
    store.transaction = (work) => {
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('disk full'));
      }
      return transaction(work);
    };
    const attempt = { attempts: [{ processor: 'acct_a', segment, result: 'approved' as const }], decisions: [] };
    // The first record starts a write at once; the second arrives while it is under way.
    const outcomes = await Promise.allSettled([stats.record(TEST, at, attempt), stats.record(TEST, at, attempt)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toEqual(new Error('disk full'));
    expect((await stats.window(TEST, new Date(at.getTime() - HOUR_MS)))[0]).toMatchObject({ attempts: 1 });
  });
});
