import { createEgressClient, type EgressClient } from '@vaultline/egress';
import { startProviderASimulator, type ProviderASimulator } from '../../../dev/provider-a-simulator';
import { pauseImport, ProviderAuthenticationError } from '../../domain/import-errors';
import type { ProviderContext, ProviderPaymentMethod } from '../../domain/import-provider';
import { PROVIDER_A_API_VERSION } from './provider-a.mapper';
import { ProviderASource } from './provider-a.source';

describe('provider_a source against the simulator', () => {
  let simulator: ProviderASimulator;
  let egress: EgressClient;
  const context = (): ProviderContext => ({
    http: egress,
    baseUrl: simulator.baseUrl,
    retry: { maxAttempts: 3, baseDelayMs: 5, maxBackoffMs: 50, maxRetryAfterMs: 1_000, maxRateLimitedAttempts: 5 },
    sleep: pauseImport,
    random: () => 0.5,
    pageSize: 3,
    lookahead: 2,
  });
  const collect = async (source: ProviderASource, position: Record<string, unknown> | null) => {
    const items: ProviderPaymentMethod[] = [];
    for await (const item of source.paymentMethods(position, new AbortController().signal)) items.push(item);
    return items;
  };

  beforeAll(async () => {
    simulator = await startProviderASimulator({ apiKey: 'sk_test_a', customers: 7, cardsPerCustomer: 5 });
    egress = createEgressClient({ allowPrivate: true, httpsOnly: false, connectTimeoutMs: 1_000, totalTimeoutMs: 5_000, maxResponseBytes: 1 << 20 });
  });
  afterAll(async () => {
    await egress.close();
    await simulator.stop();
  });

  it('when the account is listed, then every card payment method comes once, in order, across customer and method pages', async () => {
    const items = await collect(new ProviderASource('sk_test_a', context()), null);
    expect(items).toHaveLength(35);
    expect(new Set(items.map((i) => i.id)).size).toBe(35);
    expect(items[0]!.id).toBe('pm_sim000000x000');
    expect(items[34]!.id).toBe('pm_sim000006x004');
  });

  it('when the listing resumes from any position, then it yields exactly the payment methods after it', async () => {
    const source = new ProviderASource('sk_test_a', context());
    const all = await collect(source, null);
    for (const k of [0, 2, 3, 4, 5, 17, 33, 34]) {
      const rest = await collect(source, all[k]!.position);
      expect(rest.map((i) => i.id)).toEqual(all.slice(k + 1).map((i) => i.id));
    }
  });

  it('when it lists and forwards, then every request pins the Stripe-Version and the forward carries the Idempotency-Key it was given', async () => {
    const source = new ProviderASource('sk_test_a', context());
    await collect(source, null);
    const answer = await source
      .forward(
        {
          paymentMethodId: 'pm_sim000000x000',
          url: 'https://vault.example/cde-import',
          apiKey: 'vk',
          body: '{}',
          idempotencyKey: 'import_job_pm_sim000000x000',
        },
        new AbortController().signal,
      )
      .catch((error: unknown) => error);

    // The simulator's account has no forwarding destination: refused before anything is sent, naming url.
    expect(answer).toMatchObject({ httpStatus: 400, param: 'url' });
    expect([...simulator.stats.stripeVersions.keys()]).toEqual([PROVIDER_A_API_VERSION]);
    expect(simulator.stats.postsWithoutIdempotencyKey).toBe(0);
    expect(simulator.stats.forwardRequests).toBe(1);
  });

  it('when the key is wrong, then listing throws ProviderAuthenticationError', async () => {
    await expect(collect(new ProviderASource('sk_test_wrong', context()), null)).rejects.toBeInstanceOf(ProviderAuthenticationError);
  });
});
