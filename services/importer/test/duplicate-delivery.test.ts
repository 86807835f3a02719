import { openBus } from '@vaultline/bus';
import { endStateOf, RedeliveringBus } from '@vaultline/bus/testing';
import { waitFor } from '@vaultline/core';
import { IMPORT_ITEMS } from '../src/data/import-job.repository';
import { PLATFORM_KEY, startImportFixture } from './support/import-fixture';

type JobBody = { id: string; state: string; counts: Record<string, number>; failure_reason: string | null };

/** One whole import from provider_a on `bus`: the job as the API shows it, its items and what the importer published. */
async function importOn(bus: RedeliveringBus) {
  const fixture = await startImportFixture({ bus, simulator: { customers: 4, cardsPerCustomer: 3 } });
  try {
    const created = await fixture.call('POST', '/tokens/imports', { provider: 'provider_a', provider_a: { api_key: PLATFORM_KEY } });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const job = await waitFor(async () => {
      const body = (await fixture.call('GET', `/tokens/imports/${id}`)).body as unknown as JobBody;
      return body.state === 'finished' || body.state === 'failed' ? body : null;
    }, 15_000);
    await bus.settle({ quiet: async () => (await fixture.importerStore.outbox.pending(1)).length === 0 });
    const fromImporter = bus.published.filter((m) => m.topic === 'importer.imports');
    return {
      job: { state: job.state, counts: job.counts, failure_reason: job.failure_reason },
      ...(await endStateOf(fixture.importerStore, [IMPORT_ITEMS], { published: fromImporter })),
    };
  } finally {
    await fixture.stop();
  }
}

describe("the importer's token.created consumer under duplicate and reordered delivery", () => {
  it('when every token.created of an import arrives two or three times, some after later ones, then the job counts each payment method once, as with single delivery', async () => {
    const seed = Number(process.env.VAULTLINE_REDELIVERY_SEED ?? Date.now() % 1_000_000);
    const single = new RedeliveringBus(await openBus('memory://'), { seed, maxExtraCopies: 0 });
    const duplicating = new RedeliveringBus(await openBus('memory://'), { seed, maxExtraCopies: 2 });

    const once = await importOn(single);
    const duplicated = await importOn(duplicating);
    await single.close();
    await duplicating.close();

    expect(once.job).toMatchObject({ state: 'finished', counts: { total: 12, imported: 12, failed: 0 } });
    expect({ seed, failures: duplicating.failures, endState: duplicated }).toEqual({ seed, failures: [], endState: once });
    expect(duplicating.stats.redelivered).toBeGreaterThanOrEqual(12);
    console.log(
      `duplicate delivery (importer, seed ${seed}): ${duplicating.stats.delivered} deliveries, ${duplicating.stats.redelivered} copies (${duplicating.stats.outOfOrder} out of order, ${duplicating.stats.concurrent} concurrent), end state identical`,
    );
  });
});
