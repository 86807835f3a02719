import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadThreadedServices } from '../deploy/launcher/src/service-thread/thread-config';
import { startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { FORWARD_CARDS, forwardToAdyen } from './support/forward-scenario';
import { startSystem, type RunningSystem } from './support/merchant-api';

describe('embedded profile: services on threads of their own', () => {
  describe('by default (EMBEDDED_SERVICE_THREADS unset: the importer and the notifier on threads of their own)', () => {
    let running: RunningSystem;
    beforeAll(async () => {
      running = await startSystem({}, 'vaultline-threads-');
    });
    afterAll(() => running?.stop());

    it('when the system runs, then the importer and the notifier are on worker threads and the merchant reaches them through the gateway', async () => {
      expect(Object.keys(running.system.threads).sort()).toEqual(['importer', 'notifier']);
      expect(running.system.services.importer).toBeUndefined();
      expect(running.system.services.notifier).toBeUndefined();
      expect((await running.merchant.call('GET', '/webhook-endpoints')).status).toBe(200);
      expect(running.system.services.vault).toBeDefined();

      const jobs = await running.merchant.call('GET', '/tokens/imports');
      expect(jobs.status).toBe(200);
      const unknownProvider = await running.merchant.call('POST', '/tokens/imports', { json: { provider: 'provider_z' } });
      expect(unknownProvider.status).toBe(422);
    });

    it('when the importer’s own port is called, then its HTTP server on the thread answers and asks for the internal JWT, as in the local profile', async () => {
      const url = running.system.threads.importer?.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      expect((await fetch(`${url}/health`)).status).toBe(200);
      const withoutJwt = await fetch(`${url}/tokens/imports`);
      expect(withoutJwt.status).toBe(401);
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

    it('when a merchant tokenizes a card, then the gateway proxies the request to the vault’s thread over HTTP and the merchant gets the token', async () => {
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

    it('when a token is forwarded, then the forwarder on the main thread gets the card data from the vault’s thread over internal HTTP and the destination receives it', async () => {
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

  it('when a service thread fails, then the embedded process stops with a non-zero code naming the failure', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-thread-fails-'));
    try {
      // The importer's configuration is parsed on its thread: a bad value there makes the thread fail.
      const child = spawn(process.execPath, ['--import', 'tsx', resolve(__dirname, '../deploy/launcher/src/main-embedded.ts')], {
        env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', IMPORTER_CONCURRENCY: 'many' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

      const code = await new Promise<number | null>((exited) => child.once('exit', exited));

      expect(code).toBe(1);
      expect(output).toContain('the importer thread ended');
      expect(output).toContain('IMPORTER_CONCURRENCY');
      expect(output).not.toContain('listening on');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

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

  it.each([['gateway'], ['forwarder'], ['importer,unknown']])(
    'when EMBEDDED_SERVICE_THREADS names %s, then the configuration is refused with the services that can run on a thread',
    (value) => {
      expect(() => loadThreadedServices({ EMBEDDED_SERVICE_THREADS: value })).toThrow(/vault, importer, notifier, payment-orchestrator or none/);
    },
  );

  it('when EMBEDDED_SERVICE_THREADS lists services, then those are the threaded ones; unset, the importer and the notifier have threads of their own', () => {
    expect(loadThreadedServices({})).toEqual(['importer', 'notifier']);
    expect(loadThreadedServices({ EMBEDDED_SERVICE_THREADS: 'importer, notifier' })).toEqual(['importer', 'notifier']);
    expect(loadThreadedServices({ EMBEDDED_SERVICE_THREADS: 'none' })).toEqual([]);
  });
});
