// A service on a thread of its own in the embedded profile (see service-thread.ts).
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { BroadcastWakeSource, openBus } from '@vaultline/bus';
import { openTtlStore } from '@vaultline/ttl';
import { MetricsRegistry } from '@vaultline/metrics';
import { buildRuntime, listen } from '@vaultline/runtime';
import { serviceFactories } from '../service-registry';
import type { FromServiceThread, ServiceThreadConfig, ToServiceThread } from './service-thread';

const { config } = workerData as { config: ServiceThreadConfig };
const send = (message: FromServiceThread): void => parentPort!.postMessage(message);

async function main(): Promise<void> {
  const factory = await serviceFactories[config.service]();
  // The bus file is shared with the main thread: the wake source tells each side of the other's appends.
  const bus = await openBus(config.busUrl, { wakeSource: new BroadcastWakeSource(config.busUrl) });
  const ttl = await openTtlStore(config.ttlUrl);
  // The process metrics (CPU, memory) are the main thread's to report: this registry has the service's only.
  const metrics = new MetricsRegistry();
  const runtime = await buildRuntime({
    ...config,
    bus,
    ttl,
    metrics,
    // Lines (redacted and masked here, by the same logger code) are written by the main thread.
    logDestination: { write: (line: string) => send({ type: 'log', line }) },
  });
  const app = factory(runtime, { ...config.env });
  const server = await listen('127.0.0.1', config.port);
  await app.start();
  server.handle(app.http);

  parentPort!.on('message', (message: ToServiceThread) => {
    if (message.type === 'heap') {
      if (message.gc) global.gc?.();
      send({ type: 'heap', used: getHeapStatistics().used_heap_size });
      return;
    }
    if (message.type === 'metrics') {
      void metrics.toJson().then((json) => send({ type: 'metrics', json }));
      return;
    }
    void (async () => {
      await server.drain();
      await app.stop();
      await runtime.store.close();
      await bus.close();
      await ttl.close();
      send({ type: 'stopped' });
    })();
  });
  send({ type: 'started' });
}

// An error thrown here ends the thread; the launcher hears of it and stops the process.
main().catch((error: unknown) =>
  setImmediate(() => {
    throw error;
  }),
);
