import { waitFor } from '@vaultline/core';
import { paymentMethodId } from '../dev/provider-a-catalogue';
import { captureTopics } from '../../vault/test/vault-harness';
import { PLATFORM_KEY, startImportFixture, vaultTokens, type ImportFixture } from './support/import-fixture';

type Counts = { total: number; imported: number; updated: number; failed: number; imported_without_security_code: number };
type JobBody = {
  id: string;
  state: string;
  counts: Counts;
  failure_reason: string | null;
  failure_detail: string | null;
  failures: { reason: string; count: number }[];
};

const startImport = async (fixture: ImportFixture) => {
  const answer = await fixture.call('POST', '/tokens/imports', { provider: 'provider_a', provider_a: { api_key: PLATFORM_KEY } });
  expect(answer.status).toBe(201);
  return answer.body as unknown as JobBody;
};

const jobEnds = (fixture: ImportFixture, id: string, timeoutMs = 15_000) =>
  waitFor(async () => {
    const body = (await fixture.call('GET', `/tokens/imports/${id}`)).body as unknown as JobBody;
    return body.state === 'finished' || body.state === 'failed' ? body : null;
  }, timeoutMs);

const outboundPerCard = (fixture: ImportFixture) => [...fixture.simulator.stats.forwardsByPaymentMethod.values()];

describe('importing from a platform that behaves as documented', () => {
  let fixture: ImportFixture;
  afterEach(async () => fixture?.stop());

  it('when the platform has not enabled forwarding to our /cde-import, then the job fails at once with forwarding_not_enabled and says what to ask the platform for', async () => {
    fixture = await startImportFixture({ simulator: { customers: 20, cardsPerCustomer: 3, forwardingDestinations: [] } });
    const events = await captureTopics(fixture.bus, ['importer.imports']);

    const job = await jobEnds(fixture, (await startImport(fixture)).id);

    expect(job).toMatchObject({ state: 'failed', failure_reason: 'forwarding_not_enabled', failures: [] });
    expect(job.failure_detail).toContain(`${fixture.gateway.url}/cde-import`);
    expect(job.failure_detail).toContain('card_number, card_expiry, card_cvc, cardholder_name');
    // Fast: the forwards already in flight when the first refusal came, not the whole account of 60.
    expect(fixture.simulator.stats.forwardRequests).toBeLessThanOrEqual(8);
    await waitFor(() => events.events().some((e) => e.type === 'import.failed'));
    expect(events.events().find((e) => e.type === 'import.failed')).toMatchObject({ data: { reason: 'forwarding_not_enabled' } });
    await events.stop();
  });

  it('when a card must be forwarded a second time, then it arrives without its security code, and the token without one is counted', async () => {
    fixture = await startImportFixture({ simulator: { customers: 2, cardsPerCustomer: 2 }, env: { IMPORTER_CONCURRENCY: '1' } });
    fixture.gateway.disturbCdeImports('unavailable', 1);

    const job = await jobEnds(fixture, (await startImport(fixture)).id);

    expect(job).toMatchObject({ state: 'finished', counts: { total: 4, imported: 4, failed: 0, imported_without_security_code: 1 } });
    const first = paymentMethodId(0, 0);
    expect(fixture.simulator.stats.forwardsByPaymentMethod.get(first)).toBe(2);
    expect(fixture.simulator.stats.forwardsWithCvc.get(first)).toBe(1);
    const tokens = await vaultTokens(fixture);
    expect(tokens.find((t) => t.business_key === first)?.security_code_expires_at).toBeNull();
    expect(tokens.filter((t) => t.security_code_expires_at !== null)).toHaveLength(3);
  });

  it('when the platform stored a card longer than the security code lives, then the card is imported without one and counted', async () => {
    fixture = await startImportFixture({ simulator: { customers: 1, cardsPerCustomer: 3, paymentMethodsWithoutCvc: [paymentMethodId(0, 2)] } });

    const job = await jobEnds(fixture, (await startImport(fixture)).id);

    expect(job).toMatchObject({ state: 'finished', counts: { total: 3, imported: 3, imported_without_security_code: 1 } });
  });

  it('when /cde-import stored the card but its answer was lost, then the card is not forwarded again and keeps its security code', async () => {
    fixture = await startImportFixture({ simulator: { customers: 2, cardsPerCustomer: 2 }, env: { IMPORTER_CONCURRENCY: '1' } });
    fixture.gateway.disturbCdeImports('answer_lost', 1);

    const job = await jobEnds(fixture, (await startImport(fixture)).id);

    expect(job).toMatchObject({ state: 'finished', counts: { total: 4, imported: 4, failed: 0, imported_without_security_code: 0 } });
    expect(outboundPerCard(fixture)).toEqual([1, 1, 1, 1]);
  });

  it('when the platform answers 503 after it accepted a forward, then the retry carries the same Idempotency-Key and no second outbound request is made', async () => {
    fixture = await startImportFixture({ simulator: { customers: 2, cardsPerCustomer: 3 } });
    fixture.simulator.inject({ status: 503, count: 2, pathPrefix: '/v1/forwarding/requests', afterExecution: true });

    const job = await jobEnds(fixture, (await startImport(fixture)).id);

    expect(job).toMatchObject({ state: 'finished', counts: { total: 6, imported: 6, failed: 0, imported_without_security_code: 0 } });
    expect(fixture.simulator.stats.injected).toBe(2);
    expect(fixture.simulator.stats.idempotentReplays).toBe(2);
    expect(fixture.simulator.stats.outboundForwards).toBe(6);
    expect(outboundPerCard(fixture)).toEqual(Array(6).fill(1));
    expect(fixture.simulator.stats.postsWithoutIdempotencyKey).toBe(0);
  });
});
