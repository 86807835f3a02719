import { loadThreadedServices } from '../deploy/launcher/src/service-thread/thread-config';
import { startSystem, type RunningSystem } from './support/merchant-api';

describe('embedded profile: services on threads of their own', () => {
  describe('with EMBEDDED_SERVICE_THREADS=importer', () => {
    let running: RunningSystem;
    beforeAll(async () => {
      running = await startSystem({ EMBEDDED_SERVICE_THREADS: 'importer' }, 'vaultline-threads-');
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

  it.each([['none'], ['unset']])('when EMBEDDED_SERVICE_THREADS is %s, then every service runs on the main thread', async (value) => {
    const running = await startSystem(value === 'unset' ? {} : { EMBEDDED_SERVICE_THREADS: value }, 'vaultline-threads-none-');
    try {
      expect(running.system.threads).toEqual({});
      expect(running.system.services.importer).toBeDefined();
      expect(await running.system.threadHeapUsed()).toBe(0);
      expect((await running.merchant.call('GET', '/tokens/imports')).status).toBe(200);
    } finally {
      await running.stop();
    }
  });

  it.each([['vault'], ['gateway'], ['forwarder'], ['importer,unknown']])('when EMBEDDED_SERVICE_THREADS names %s, then the configuration is refused with the services that can run on a thread', (value) => {
    expect(() => loadThreadedServices({ EMBEDDED_SERVICE_THREADS: value })).toThrow(/importer, notifier, payment-orchestrator or none/);
  });

  it('when EMBEDDED_SERVICE_THREADS lists services, then those are the threaded ones', () => {
    expect(loadThreadedServices({})).toEqual([]);
    expect(loadThreadedServices({ EMBEDDED_SERVICE_THREADS: 'importer, notifier' })).toEqual(['importer', 'notifier']);
    expect(loadThreadedServices({ EMBEDDED_SERVICE_THREADS: 'none' })).toEqual([]);
  });
});
