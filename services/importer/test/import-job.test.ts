import { isLuhnValid, waitFor } from '@vaultline/core';
import { validateAgainstOpenApi } from '@vaultline/contracts';
import type { ImportJob } from '../src/domain/import-job/import-job';
import { IMPORT_JOBS } from '../src/data/import-job.repository';
import { paymentMethodId } from '../dev/provider-a-catalogue';
import { captureTopics } from '../../vault/test/vault-harness';
import { MERCHANT, MERCHANT_TEST, PLATFORM_KEY, startImportFixture, vaultTokens, type ImportFixture } from './support/import-fixture';

type JobBody = {
  id: string;
  state: string;
  counts: { total: number; imported: number; updated: number; failed: number };
  failure_reason: string | null;
  failures: { reason: string; count: number }[];
};

const startImport = async (fixture: ImportFixture, apiKey = PLATFORM_KEY) => {
  const answer = await fixture.call('POST', '/tokens/imports', { provider: 'provider_a', provider_a: { api_key: apiKey } });
  expect(answer.status).toBe(201);
  return answer.body as unknown as JobBody;
};

const jobEnds = (fixture: ImportFixture, id: string, timeoutMs = 10_000) =>
  waitFor(async () => {
    const answer = await fixture.call('GET', `/tokens/imports/${id}`);
    const body = answer.body as unknown as JobBody;
    return body.state === 'finished' || body.state === 'failed' ? body : null;
  }, timeoutMs);

const storedJob = (fixture: ImportFixture, id: string) => fixture.importerStore.collection<ImportJob>(IMPORT_JOBS).get(MERCHANT_TEST, id);

describe('automatic import from provider_a', () => {
  let fixture: ImportFixture;
  afterEach(async () => fixture?.stop());

  it('when the merchant starts an import, then every card payment method becomes a token with its payment-method id as business_key, the job finishes and import.completed is published', async () => {
    fixture = await startImportFixture({ simulator: { customers: 5, cardsPerCustomer: 4 } });
    const events = await captureTopics(fixture.bus, ['importer.imports']);

    const created = await startImport(fixture);
    expect(created).toMatchObject({ state: 'preparing', object: 'token_import', provider: 'provider_a' });
    const job = await jobEnds(fixture, created.id);

    expect(job).toMatchObject({ state: 'finished', counts: { total: 20, imported: 20, updated: 0, failed: 0 }, failure_reason: null });
    const tokens = await vaultTokens(fixture);
    expect(tokens.map((t) => t.business_key).sort()).toEqual(
      Array.from({ length: 5 }, (_, c) => Array.from({ length: 4 }, (_, m) => paymentMethodId(c, m)))
        .flat()
        .sort(),
    );
    await waitFor(() => events.events().some((e) => e.type === 'import.completed'));
    const types = events.events().map((e) => e.type);
    expect(types).toEqual(['import.started', 'import.completed']);
    expect(events.events()[1]).toMatchObject({
      merchant_id: MERCHANT,
      data: { import_id: created.id, state: 'finished', counts: { total: 20, imported: 20 } },
    });
    await events.stop();
  });

  it('when the job ends, then its job-scoped key is revoked and the platform key is erased from the stored job', async () => {
    fixture = await startImportFixture({ simulator: { customers: 2, cardsPerCustomer: 2 } });
    const created = await startImport(fixture);
    await jobEnds(fixture, created.id);

    const minted = [...fixture.gateway.keys.values()];
    expect(minted).toHaveLength(1);
    expect(minted[0]).toMatchObject({ merchantId: MERCHANT, scopes: ['cde_import'] });
    await waitFor(() => minted[0]!.revoked);
    // The job notes the revocation once the gateway has answered, a moment after the key is revoked.
    const stored = await waitFor(async () => {
      const job = await storedJob(fixture, created.id);
      return job?.import_key_revoked ? job : null;
    });
    expect(stored).not.toHaveProperty('sealed_credentials');
    expect(stored).not.toHaveProperty('sealed_import_key');
    expect(stored?.import_key_revoked).toBe(true);
  });

  it('while the job runs, then the platform key is held only encrypted, and no log line, response or event carries it or a card number', async () => {
    fixture = await startImportFixture({ simulator: { customers: 3, cardsPerCustomer: 3 } });
    const events = await captureTopics(fixture.bus, ['importer.imports', 'vault.tokens']);
    fixture.simulator.pauseForwarding();
    const created = await startImport(fixture);
    const running = await waitFor(async () => {
      const job = await storedJob(fixture, created.id);
      return job?.sealed_import_key ? job : null;
    });
    expect(JSON.stringify(running)).not.toContain(PLATFORM_KEY);
    expect(running.sealed_credentials).toMatch(/^sb1\./);
    fixture.simulator.releaseForwarding();
    const job = await jobEnds(fixture, created.id);

    const everything = [JSON.stringify(created), JSON.stringify(job), ...fixture.logLines, ...events.values].join('\n');
    expect(everything).not.toContain(PLATFORM_KEY);
    const pans = everything.match(/\d{13,19}/g) ?? [];
    expect(pans.filter((digits) => isLuhnValid(digits))).toEqual([]);
    expect(fixture.logLines.some((line) => line.includes('import finished'))).toBe(true);
    await events.stop();
  });

  it("when /cde-import refuses some cards, then they are counted as failed with the vault's reason code and the job still finishes", async () => {
    const refused = [paymentMethodId(0, 1), paymentMethodId(2, 0)];
    fixture = await startImportFixture({ simulator: { customers: 3, cardsPerCustomer: 2, invalidPaymentMethods: refused } });
    const created = await startImport(fixture);
    const job = await jobEnds(fixture, created.id);

    expect(job).toMatchObject({ state: 'finished', counts: { total: 6, imported: 4, updated: 0, failed: 2 } });
    expect(job.failures).toEqual([{ reason: 'invalid_card_number', count: 2 }]);
    expect((await vaultTokens(fixture)).map((t) => t.business_key)).not.toEqual(expect.arrayContaining(refused));
  });

  it('when the same account is imported twice, then the second job updates the existing tokens instead of creating duplicates', async () => {
    fixture = await startImportFixture({ simulator: { customers: 2, cardsPerCustomer: 3 } });
    await jobEnds(fixture, (await startImport(fixture)).id);
    const second = await jobEnds(fixture, (await startImport(fixture)).id);

    expect(second).toMatchObject({ state: 'finished', counts: { total: 6, imported: 0, updated: 6, failed: 0 } });
    expect(await vaultTokens(fixture)).toHaveLength(6);
  });

  it('when the platform rejects the key with 401, then the job fails with provider_authentication_failed and import.failed is published', async () => {
    fixture = await startImportFixture();
    const events = await captureTopics(fixture.bus, ['importer.imports']);
    const created = await startImport(fixture, 'sk_test_wrong');
    const job = await jobEnds(fixture, created.id);

    expect(job).toMatchObject({ state: 'failed', failure_reason: 'provider_authentication_failed', counts: { total: 0, imported: 0 } });
    await waitFor(() => events.events().some((e) => e.type === 'import.failed'));
    expect(events.events().find((e) => e.type === 'import.failed')).toMatchObject({ data: { reason: 'provider_authentication_failed', state: 'failed' } });
    await waitFor(() => [...fixture.gateway.keys.values()].every((k) => k.revoked));
    await events.stop();
  });

  it('when the platform answers 429 with Retry-After, then the importer waits that long and still imports everything', async () => {
    fixture = await startImportFixture({ simulator: { customers: 2, cardsPerCustomer: 2 } });
    fixture.simulator.inject({ status: 429, count: 1, retryAfterSeconds: 1, pathPrefix: '/v1/customers' });
    const started = Date.now();
    const job = await jobEnds(fixture, (await startImport(fixture)).id);

    expect(job).toMatchObject({ state: 'finished', counts: { total: 4, imported: 4 } });
    expect(fixture.simulator.stats.injected).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('when the platform keeps answering 503, then after the retries the job fails with provider_unreachable', async () => {
    fixture = await startImportFixture({ env: { IMPORTER_RETRY_ATTEMPTS: '3' } });
    fixture.simulator.inject({ status: 503, count: 100 });
    const job = await jobEnds(fixture, (await startImport(fixture)).id);

    expect(job).toMatchObject({ state: 'failed', failure_reason: 'provider_unreachable' });
    expect(fixture.simulator.stats.injected).toBe(3);
  });
});

describe('the import jobs API', () => {
  let fixture: ImportFixture;
  beforeAll(async () => {
    fixture = await startImportFixture({ simulator: { customers: 1, cardsPerCustomer: 1 } });
  });
  afterAll(async () => fixture.stop());

  it('when the provider is unknown, then it answers 422 naming the provider field', async () => {
    const answer = await fixture.call('POST', '/tokens/imports', { provider: 'provider_z', provider_z: { api_key: 'x' } });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'unknown_provider', field: 'provider' });
  });

  it('when the platform key is missing, then it answers 422 naming provider_a.api_key', async () => {
    const missingObject = await fixture.call('POST', '/tokens/imports', { provider: 'provider_a' });
    expect(missingObject.status).toBe(422);
    expect(missingObject.body).toMatchObject({ field: 'provider_a' });
    const missingKey = await fixture.call('POST', '/tokens/imports', { provider: 'provider_a', provider_a: {} });
    expect(missingKey.status).toBe(422);
    expect(missingKey.body).toMatchObject({ field: 'provider_a.api_key' });
  });

  it('when a merchant lists or reads jobs, then it sees only its own, and an unknown id answers 404', async () => {
    const created = await startImport(fixture);
    await jobEnds(fixture, created.id);

    const list = await fixture.call('GET', '/tokens/imports');
    expect(list.status).toBe(200);
    expect((list.body.data as JobBody[]).map((j) => j.id)).toContain(created.id);
    expect((await fixture.call('GET', '/tokens/imports', undefined, 'merchant_other')).body.data).toEqual([]);
    expect((await fixture.call('GET', `/tokens/imports/${created.id}`, undefined, 'merchant_other')).status).toBe(404);
    expect((await fixture.call('GET', '/tokens/imports/not-an-id')).body).toMatchObject({ code: 'import_not_found' });
  });

  it('when the API answers, then every answer matches the documented OpenAPI schema', async () => {
    const created = await fixture.call('POST', '/tokens/imports', { provider: 'provider_a', provider_a: { api_key: PLATFORM_KEY } });
    const id = String(created.body.id);
    const ended = await jobEnds(fixture, id);
    const checks = [
      validateAgainstOpenApi('POST', '/tokens/imports', created.status, created.body),
      validateAgainstOpenApi('GET', '/tokens/imports/{import_id}', 200, ended),
      validateAgainstOpenApi('GET', '/tokens/imports', 200, (await fixture.call('GET', '/tokens/imports?limit=2')).body),
      validateAgainstOpenApi(
        'GET',
        '/tokens/imports/{import_id}',
        404,
        (await fixture.call('GET', '/tokens/imports/00000000-0000-7000-8000-000000000000')).body,
      ),
      validateAgainstOpenApi('POST', '/tokens/imports', 422, (await fixture.call('POST', '/tokens/imports', { provider: 'nope' })).body),
    ];
    expect(checks.flatMap((c) => c.errors)).toEqual([]);
  });
});
