import { join } from 'node:path';
import { waitFor } from '@vaultline/core';
import { openServiceThread } from '../src/service-thread/service-thread';

const config = { env: {}, storeUrl: 'sqlite::memory:', busUrl: 'sqlite::memory:', ttlUrl: 'memory://', logLevel: 'silent', privateKeyPem: '', trustedPublicKeys: {} };

describe('a service thread', () => {
  it('when its service throws an uncaught error after starting, then the launcher hears of it with the error, and its log lines reached the main thread', async () => {
    const failures: Error[] = [];
    const lines: string[] = [];
    const thread = await openServiceThread('importer', { writeLogLine: (line) => lines.push(line), onFailure: (error) => failures.push(error) }, join(__dirname, 'fixtures/crashing-service-thread.ts'));
    expect(thread.url).toBe('http://127.0.0.1:9');

    await thread.start(config, {} as never, 'http://localhost');

    await waitFor(() => failures.length === 1);
    expect(failures[0]?.message).toMatch(/the importer thread ended \(code 1\): the service broke/);
    expect(lines).toEqual(['{"msg":"started"}\n']);
    await thread.stop();
  });

  it('when the thread is stopped on purpose, then that is no failure', async () => {
    const failures: Error[] = [];
    const thread = await openServiceThread('importer', { writeLogLine: () => undefined, onFailure: (error) => failures.push(error) }, join(__dirname, 'fixtures/crashing-service-thread.ts'));

    await thread.stop();

    expect(failures).toEqual([]);
  });
});
