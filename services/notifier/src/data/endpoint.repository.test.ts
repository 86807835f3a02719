import { systemClock } from '@vaultline/core';
import { SqliteDocumentStore } from '@vaultline/store';
import { CachedEndpointRepository } from './enabled-endpoints-cache';
import { StoreEndpointRepository } from './endpoint.repository';
import { ENDPOINTS, notifierCollections } from './collections';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';

const MERCHANT = { merchantId: 'merchant_a', mode: 'test' } as const;

function endpoint(id: string, enabled = true): Omit<WebhookEndpoint, 'version'> {
  return { id, merchant_id: MERCHANT.merchantId, mode: MERCHANT.mode, enabled, url: `https://example.com/${id}`, events: ['*'] } as unknown as Omit<
    WebhookEndpoint,
    'version'
  >;
}

describe('EndpointRepository with the enabled-endpoints cache', () => {
  let store: SqliteDocumentStore;
  let repository: CachedEndpointRepository;

  beforeEach(async () => {
    store = await SqliteDocumentStore.open(':memory:');
    for (const spec of notifierCollections) await store.register(spec);
    repository = new CachedEndpointRepository(new StoreEndpointRepository(store), { ttlMs: 60_000, clock: systemClock });
  });

  afterEach(() => store.close());

  const enabledIds = async () => (await repository.listEnabled(MERCHANT, 200)).map((e) => e.id);

  it('when an endpoint is added, disabled or deleted through the repository, then the next read sees it at once despite the cache', async () => {
    expect(await enabledIds()).toEqual([]);

    const added = await store.transaction((uow) => repository.insert(uow, endpoint('we_1')));
    expect(await enabledIds()).toEqual(['we_1']);

    const disabled = await store.transaction((uow) => repository.update(uow, { ...added, enabled: false }));
    expect(await enabledIds()).toEqual([]);

    await store.transaction((uow) => repository.update(uow, { ...disabled, enabled: true }));
    expect(await enabledIds()).toEqual(['we_1']);
    const current = (await repository.get(MERCHANT, 'we_1'))!;
    await store.transaction((uow) => repository.delete(uow, current));
    expect(await enabledIds()).toEqual([]);
  });

  it('when a read runs between a write being buffered and its commit, then the old list it saw is not kept', async () => {
    await store.transaction(async (uow) => {
      repository.insert(uow, endpoint('we_1'));
      // Not committed yet: the read sees no endpoint, and must not be what the cache serves next.
      expect(await enabledIds()).toEqual([]);
    });

    expect(await enabledIds()).toEqual(['we_1']);
  });

  it('when the store changes behind the repository, then the cached list is served until it expires', async () => {
    expect(await enabledIds()).toEqual([]);
    await store.transaction((uow) => uow.insert<WebhookEndpoint>(ENDPOINTS, endpoint('we_elsewhere')));

    expect(await enabledIds()).toEqual([]);
    expect((await new StoreEndpointRepository(store).listEnabled(MERCHANT, 200)).map((e) => e.id)).toEqual(['we_elsewhere']);
  });
});
