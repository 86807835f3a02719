// A service running on a thread of its own in the embedded profile (see service-thread.ts).
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { openBus } from '@vaultline/bus';
import { openTtlStore } from '@vaultline/ttl';
import type { ServiceApp, ServiceRuntime } from '@vaultline/runtime';
import { buildRuntime, listen } from '@vaultline/runtime';
import { threadFactories } from './thread-factories';
import { exposedApiMethods, serveRequestPort } from './request-port.server';
import type { FromServiceThread, ServiceThreadData, ToServiceThread } from './service-thread.protocol';

const data = workerData as ServiceThreadData;
const port = parentPort!;
const send = (message: FromServiceThread): void => port.postMessage(message);
const fail = (error: unknown): void => send({ type: 'failed', message: error instanceof Error ? error.message : String(error), ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) });

async function main(): Promise<void> {
  // Loaded while the main thread starts the other services.
  const factoryLoading = threadFactories[data.service as keyof typeof threadFactories]();
  factoryLoading.catch(() => undefined);
  const server = await listen('127.0.0.1', 0);
  send({ type: 'listening', url: server.url });
  let app: ServiceApp | undefined;
  let runtime: ServiceRuntime | undefined;
  port.on('message', (message: ToServiceThread) => {
    if (message.type === 'heap') {
      if (message.gc) global.gc?.();
      send({ type: 'heap', used: getHeapStatistics().used_heap_size });
      return;
    }
    if (message.type === 'start') {
      void (async () => {
        // Its own connections to the service's store and to the bus file, and its own connection to the
        // TTL store (in-process, the TTL store lives in this thread: only the vault keeps anything there).
        const { config } = message;
        const bus = await openBus(config.busUrl);
        const ttl = await openTtlStore(config.ttlUrl);
        runtime = await buildRuntime({
          service: data.service,
          storeUrl: config.storeUrl,
          bus,
          ttl,
          logLevel: config.logLevel,
          privateKeyPem: config.privateKeyPem,
          trustedPublicKeys: config.trustedPublicKeys,
          serviceUrls: message.serviceUrls,
          publicBaseUrl: message.publicBaseUrl,
          // Lines (redacted and masked here, by the same logger code) are written by the main thread.
          logDestination: { write: (line: string) => send({ type: 'log', line }) },
        });
        const factory = await factoryLoading;
        app = factory(runtime, { ...config.env });
        await app.start();
        server.handle(app.http);
        const apis = app.exposedApis ?? {};
        serveRequestPort(message.requests, app.http, apis);
        send({ type: 'started', apis: exposedApiMethods(apis) });
      })().catch(fail);
      return;
    }
    void (async () => {
      await server.close();
      await app?.stop();
      await runtime?.store.close();
      await runtime?.bus.close();
      await runtime?.ttl.close();
      send({ type: 'stopped' });
      port.close();
    })().catch(fail);
  });
}

main().catch(fail);
