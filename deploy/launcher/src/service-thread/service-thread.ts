import { join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { ServiceRequestChannel } from '@vaultline/runtime';
import type { InProcessApis, ServiceName } from '@vaultline/runtime';
import { ServiceRequestPort } from './request-port.client';
import type { FromServiceThread, ServiceThreadConfig, ServiceThreadData, ToServiceThread } from './service-thread.protocol';

export interface ServiceThread {
  service: ServiceName;
  /** Where the thread's service listens (loopback), known before it starts. */
  url: string;
  /** Builds and starts the service; resolves once it serves, with what the main thread reaches it by. */
  start(config: ServiceThreadConfig, serviceUrls: Record<ServiceName, string>, publicBaseUrl: string): Promise<{ channel: ServiceRequestChannel; apis: InProcessApis }>;
  /** Stops the service and closes its adapters; the thread then ends. */
  stop(): Promise<void>;
  /** The thread's used heap in bytes (its own V8 heap, not in the main thread's figures); after a full gc when asked and --expose-gc is on. */
  heapUsed(options?: { gc?: boolean }): Promise<number>;
}

const BOOTSTRAP = join(__dirname, 'thread-bootstrap.mjs');
const WORKER = join(__dirname, 'service-thread.worker.ts');
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Runs one service on a worker thread of this process (embedded profile): its background work
 * (consumers, job runners, outgoing HTTP) and the handling of its requests then use the second core
 * instead of the main thread that serves the gateway and the in-process services. The thread has its
 * own connections to the service's SQLite file and to the bus file (appends wake consumers across
 * threads). The gateway relays merchant requests to it by message, the internal JWT included; callers
 * on the main thread reach its in-process APIs the same way; the other services reach it over loopback
 * HTTP, as in the local profile.
 */
export interface ServiceThreadHooks {
  /** Writes a finished log line of the thread's service where the main thread's lines go. */
  writeLogLine: (line: string) => void;
  /** The thread died (an uncaught error, or it ended) while nobody asked it to stop. */
  onFailure: (error: Error) => void;
}

export async function openServiceThread(service: ServiceName, hooks: ServiceThreadHooks, entry = WORKER): Promise<ServiceThread> {
  const data: ServiceThreadData = { service, entry };
  const worker = new Worker(BOOTSTRAP, { workerData: data, name: `vaultline-${service}` });
  let exited = false;
  let stopping = false;
  let lastError: Error | undefined;
  let requests: ServiceRequestPort | undefined;
  worker.on('message', (message: FromServiceThread) => {
    if (message.type === 'log') hooks.writeLogLine(message.line);
  });
  worker.on('error', (error) => (lastError = error));
  worker.once('exit', (code) => {
    exited = true;
    requests?.close(new Error(stopping ? `the ${data.service} thread has stopped` : `the ${data.service} thread ended (code ${code})`));
    if (!stopping) hooks.onFailure(new Error(`the ${data.service} thread ended (code ${code})${lastError ? `: ${lastError.message}` : ''}`));
  });

  const next = (expected: FromServiceThread['type'], timeoutMs: number): Promise<FromServiceThread> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle(new Error(`the ${data.service} thread did not answer '${expected}' within ${timeoutMs} ms`)), timeoutMs);
      const onMessage = (message: FromServiceThread): void => {
        if (message.type === 'failed') settle(Object.assign(new Error(`the ${data.service} thread failed: ${message.message}`), { stack: message.stack }));
        else if (message.type === expected) settle(undefined, message);
      };
      const onError = (error: Error): void => settle(error);
      const onExit = (code: number): void => settle(new Error(`the ${data.service} thread exited (code ${code}) before '${expected}'`));
      function settle(error: Error | undefined, message?: FromServiceThread): void {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (error) reject(error);
        else resolve(message as FromServiceThread);
      }
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
  const post = (message: ToServiceThread): void => worker.postMessage(message);
  // One heap question at a time: answers carry no id, so two in flight could take each other's.
  let heapAsked: Promise<unknown> = Promise.resolve();

  let listening: FromServiceThread;
  try {
    listening = await next('listening', START_TIMEOUT_MS);
  } catch (error) {
    stopping = true;
    await worker.terminate();
    throw error;
  }
  return {
    service: data.service,
    url: (listening as { url: string }).url,
    async start(config, serviceUrls, publicBaseUrl) {
      const started = next('started', START_TIMEOUT_MS);
      const { port1, port2 } = new MessageChannel();
      requests = new ServiceRequestPort(port1);
      worker.postMessage({ type: 'start', config, serviceUrls, publicBaseUrl, requests: port2 } satisfies ToServiceThread, [port2]);
      const { apis } = (await started) as { apis: Record<string, string[]> };
      return { channel: requests.channel, apis: requests.apiProxies(apis) };
    },
    heapUsed(options = {}) {
      const ask = async (): Promise<number> => {
        const answer = next('heap', STOP_TIMEOUT_MS);
        post({ type: 'heap', gc: options.gc ?? false });
        return ((await answer) as { used: number }).used;
      };
      const asked = heapAsked.then(ask, ask);
      heapAsked = asked.catch(() => undefined);
      return asked;
    },
    async stop() {
      stopping = true;
      if (exited) return;
      const stopped = next('stopped', STOP_TIMEOUT_MS);
      post({ type: 'stop' });
      try {
        await stopped;
      } finally {
        await worker.terminate();
        requests?.close(new Error(`the ${data.service} thread has stopped`));
      }
    },
  };
}
