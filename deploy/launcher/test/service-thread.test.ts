import { join } from 'node:path';
import { waitFor } from '@vaultline/core';
import { startServiceThread, type ServiceThreadConfig } from '../src/service-thread/service-thread';

const STAND_IN = join(__dirname, 'fixtures/stand-in-service-thread.ts');

const configWith = (behaviour: string): ServiceThreadConfig => ({
  service: 'importer',
  port: 0,
  env: { STAND_IN: behaviour },
  storeUrl: 'memory://',
  busUrl: 'sqlite::memory:',
  ttlUrl: 'memory://',
  logLevel: 'silent',
  privateKeyPem: '',
  trustedPublicKeys: {},
  serviceUrls: {} as ServiceThreadConfig['serviceUrls'],
  publicBaseUrl: 'http://localhost',
});

const recording = (failures: Error[]) => ({ writeLogLine: () => undefined, onFailure: (error: Error) => failures.push(error) });

describe('a service thread', () => {
  it('when its service throws an uncaught error after starting, then the launcher hears of it with the error, and its log lines reached the main thread', async () => {
    const failures: Error[] = [];
    const lines: string[] = [];
    const thread = startServiceThread(
      configWith('crashes'),
      { writeLogLine: (line) => lines.push(line), onFailure: (error) => failures.push(error) },
      STAND_IN,
    );

    await thread.started;

    await waitFor(() => failures.length === 1);
    expect(failures[0]?.message).toMatch(/the importer thread ended \(code 1\): the service broke/);
    expect(lines).toEqual(['{"msg":"started"}\n']);
    await thread.stop();
  });

  it('when its service fails to start, then started rejects with the error and nothing is reported as a later failure', async () => {
    const failures: Error[] = [];
    const thread = startServiceThread(configWith('fails-to-start'), recording(failures), STAND_IN);

    await expect(thread.started).rejects.toThrow(/the importer thread ended \(code 1\): the service could not start/);
    expect(failures).toEqual([]);
  });

  it('when the thread is stopped on purpose, then that is no failure', async () => {
    const failures: Error[] = [];
    const thread = startServiceThread(configWith('serves'), recording(failures), STAND_IN);
    await thread.started;

    await thread.stop();

    expect(failures).toEqual([]);
  });

  it('when its heap is asked for, then the thread answers with its own figure', async () => {
    const thread = startServiceThread(configWith('serves'), recording([]), STAND_IN);
    await thread.started;

    await expect(Promise.all([thread.heapUsed(), thread.heapUsed({ gc: true })])).resolves.toEqual([12_345, 12_345]);
    await thread.stop();
  });
});
