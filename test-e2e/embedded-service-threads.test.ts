import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded } from '../deploy/launcher/src/embedded';
import { openServiceThreadsEarly } from '../deploy/launcher/src/service-thread/early-threads';
import { loadThreadedServices } from '../deploy/launcher/src/service-thread/thread-config';
import { startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { FORWARD_CARDS, forwardToAdyen } from './support/forward-scenario';
import { startSystem, type RunningSystem } from './support/merchant-api';

describe('embedded profile: services on threads of their own', () => {
  describe('by default (EMBEDDED_SERVICE_THREADS unset: the importer on its own thread)', () => {
    let running: RunningSystem;
    beforeAll(async () => {
      running = await startSystem({}, 'vaultline-threads-');
    });
    afterAll(() => running?.stop());

    it('when the system runs, then the importer is on a worker thread and the merchant reaches it through the gateway', async () => {
      expect(Object.keys(running.system.threads)).toEqual(['importer']);
      expect(running.system.services.importer).toBeUndefined();
      expect(running.system.services.vault).toBeDefined();

      const jobs = await running.merchant.call('GET', '/tokens/imports');
      expect(jobs.status).toBe(200);
      const unknownProvider = await running.merchant.call('POST', '/tokens/imports', { json: { provider: 'provider_z' } });
      expect(unknownProvider.status).toBe(422);
    });

    it('when the heap of the service threads is asked for, then it is their own V8 heap, measured apart from this one', async () => {
      const used = await running.system.threadHeapUsed({ gc: false });
      expect(used).toBeGreaterThan(1_000_000);
    });
  });

  describe('with EMBEDDED_SERVICE_THREADS=vault', () => {
    let standIns: DestinationStandIns;
    let running: RunningSystem;
    beforeAll(async () => {
      standIns = await startDestinationStandIns();
      running = await startSystem({ ...standIns.forwarderEnv, EMBEDDED_SERVICE_THREADS: 'vault' }, 'vaultline-vault-thread-');
    });
    afterAll(async () => {
      await running?.stop();
      await standIns?.stop();
    });

    it('when a merchant tokenizes a card, then the gateway relays the request to the vault’s thread by message and the merchant gets the token', async () => {
      expect(Object.keys(running.system.threads)).toEqual(['vault']);
      expect(running.system.services.vault).toBeUndefined();

      const token = await running.merchant.createToken(FORWARD_CARDS.visa, 'thread-bk-1');
      const read = await running.merchant.call('GET', `/tokens/${token.id}`);

      expect(read.status).toBe(200);
      expect(read.json()).toMatchObject({ id: token.id, business_key: 'thread-bk-1', masked_account_number: '400005******5556' });
      expect(read.headers.get('x-request-id')).toBeTruthy();
    });

    it('when the vault on its thread refuses a request, then its problem+json reaches the merchant unchanged', async () => {
      const malformed = await running.merchant.call('POST', '/tokens', { body: '{"card":', headers: { 'content-type': 'application/json' } });
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('content-type')).toContain('application/problem+json');
      expect(malformed.json()).toMatchObject({ code: 'malformed_json' });

      const invalid = await running.merchant.call('POST', '/tokens', { json: { card: { number: '4111111111111112', exp_month: '03', exp_year: '2031' } } });
      expect(invalid.status).toBe(422);
      expect(invalid.text).not.toContain('4111111111111112');
    });

    it('when a token is forwarded, then the forwarder on the main thread gets the card data from the vault’s thread and the destination receives it', async () => {
      const token = await running.merchant.createToken(FORWARD_CARDS.visa);

      const answer = await forwardToAdyen(running.merchant, token.id, standIns.adyen.url);

      expect(answer.status).toBe(200);
      const sent = JSON.parse(standIns.adyen.received[standIns.adyen.received.length - 1]!.body) as { paymentMethod: { number: string; cvc: string } };
      expect(sent.paymentMethod).toMatchObject({ number: FORWARD_CARDS.visa.number, cvc: FORWARD_CARDS.visa.cvc });
      expect(answer.text).not.toContain(FORWARD_CARDS.visa.number);
    });

    it('when the gateway checks readiness, then the vault on its thread answers over its loopback port', async () => {
      const ready = await fetch(`${running.system.baseUrl}/ready`);
      expect(ready.status).toBe(200);
    });
  });

  it('when threads were opened early (as main-embedded does), then the system takes those it runs and stops the others', async () => {
    const early = openServiceThreadsEarly({ EMBEDDED_SERVICE_THREADS: 'importer,notifier' });
    const earlyImporter = await early.take('importer');
    const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-early-threads-'));
    const system = await startEmbedded({ dataDir, port: 0, earlyThreads: early, env: { LOG_LEVEL: 'silent', EMBEDDED_SERVICE_THREADS: 'importer' } });
    try {
      expect(Object.keys(system.threads)).toEqual(['importer']);
      expect(system.threads.importer?.url).toBe(earlyImporter?.url);
      expect(system.services.notifier).toBeDefined();
      const jobs = await fetch(`${system.baseUrl}/tokens/imports`, { headers: { 'x-api-key': system.bootstrapApiKey } });
      expect(jobs.status).toBe(200);
    } finally {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when EMBEDDED_SERVICE_THREADS is none, then every service runs on the main thread', async () => {
    const running = await startSystem({ EMBEDDED_SERVICE_THREADS: 'none' }, 'vaultline-threads-none-');
    try {
      expect(running.system.threads).toEqual({});
      expect(running.system.services.importer).toBeDefined();
      expect(await running.system.threadHeapUsed()).toBe(0);
      expect((await running.merchant.call('GET', '/tokens/imports')).status).toBe(200);
    } finally {
      await running.stop();
    }
  });

  it.each([['gateway'], ['forwarder'], ['importer,unknown']])('when EMBEDDED_SERVICE_THREADS names %s, then the configuration is refused with the services that can run on a thread', (value) => {
    expect(() => loadThreadedServices({ EMBEDDED_SERVICE_THREADS: value })).toThrow(/vault, importer, notifier, payment-orchestrator or none/);
  });

  it('when EMBEDDED_SERVICE_THREADS lists services, then those are the threaded ones; unset, the importer has a thread of its own', () => {
    expect(loadThreadedServices({})).toEqual(['importer']);
    expect(loadThreadedServices({ EMBEDDED_SERVICE_THREADS: 'importer, notifier' })).toEqual(['importer', 'notifier']);
    expect(loadThreadedServices({ EMBEDDED_SERVICE_THREADS: 'none' })).toEqual([]);
  });
});
