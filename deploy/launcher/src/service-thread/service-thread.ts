import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { IdempotencyKeys, RuntimeParts, ServiceName } from '@vaultline/runtime';

/** Everything a service thread builds its service from (structured-cloned into the worker). */
export interface ServiceThreadConfig extends Pick<
  RuntimeParts,
  | 'service'
  | 'storeUrl'
  | 'storeOptions'
  | 'busUnhealthyAfterMs'
  | 'busRetry'
  | 'storeUnhealthyAfterMs'
  | 'logLevel'
  | 'privateKeyPem'
  | 'trustedPublicKeys'
  | 'serviceUrls'
  | 'publicBaseUrl'
> {
  /** The Idempotency-Key settings, loaded by the main thread (a key is copied into the thread, a loader could not be). */
  idempotency: IdempotencyKeys;
  /** The loopback port its HTTP server listens on (chosen by the launcher, so every URL is known up front). */
  port: number;
  /** The services' environment, as the launcher resolved it (DATA_DIR, PUBLIC_BASE_URL…). */
  env: Record<string, string>;
  /** An SQLite bus file: the only bus the threads can share. */
  busUrl: string;
  /** The TTL store; `memory://` keeps it in this thread (the service's Idempotency-Key records: every request for it comes here). */
  ttlUrl: string;
}

export type ToServiceThread = { type: 'stop' } | { type: 'heap'; gc: boolean } | { type: 'metrics' };
export type FromServiceThread =
  | { type: 'started' }
  | { type: 'stopped' }
  | { type: 'heap'; used: number }
  /** The thread's metrics (MetricsRegistry.toJson), for the process's /metrics. */
  | { type: 'metrics'; json: unknown[] }
  /** A finished log line (redacted and masked by the thread's logger), for the main thread to write where its own go. */
  | { type: 'log'; line: string };

export interface ServiceThreadHooks {
  /** Writes a log line of the thread's service where the main thread's lines go. */
  writeLogLine: (line: string) => void;
  /** The thread died after it started (an uncaught error in its service). */
  onFailure: (error: Error) => void;
}

export interface ServiceThread {
  service: ServiceName;
  /** Resolves once the service serves on its port; rejects if the thread failed before. */
  started: Promise<void>;
  /** The thread's used heap in bytes (its own V8 heap); after a full gc when asked and --expose-gc is on. */
  heapUsed(options?: { gc?: boolean }): Promise<number>;
  /** The thread's metrics as JSON (empty once it ended). */
  metricsJson(): Promise<unknown[]>;
  /** Stops the service and closes its adapters; the thread then ends. */
  stop(): Promise<void>;
}

const BOOTSTRAP = join(__dirname, 'thread-bootstrap.mjs');
const WORKER = join(__dirname, 'service-thread.worker.ts');
// In the compiled launcher (dist/, see build.config.mjs) the worker is a bundle of its own beside the
// launcher's, run by node as it is; from source, the bootstrap registers tsx and loads WORKER.
const COMPILED_WORKER = join(__dirname, 'service-thread', 'service-thread.worker.js');
const STOP_TIMEOUT_MS = 15_000;

/**
 * Runs one service on a worker thread of this process (embedded profile), so that its work uses the
 * second core. The thread is a small process of its own: it builds the service from `config` with its
 * own connections to its SQLite file, the bus file and the TTL store, serves its HTTP app on its
 * loopback port (the gateway and the other services reach it there, as in the local profile) and
 * sends its log lines here, to be written where the main thread's go. A thread that fails after it
 * started is reported to `onFailure`; before, `started` rejects.
 */
export function startServiceThread(config: ServiceThreadConfig, hooks: ServiceThreadHooks, entry = WORKER): ServiceThread {
  const compiled = entry === WORKER && existsSync(COMPILED_WORKER);
  const worker = new Worker(compiled ? COMPILED_WORKER : BOOTSTRAP, { workerData: { entry, config }, name: `vaultline-${config.service}` });
  let hasStarted = false;
  let stopping = false;
  let exited = false;
  let failure: Error | undefined;
  // Heap answers come in the order asked.
  const heapAnswers: Array<(used: number) => void> = [];
  const metricsAnswers: Array<(json: unknown[]) => void> = [];
  let onStopped: (() => void) | undefined;

  const started = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromServiceThread) => {
      if (message.type === 'log') hooks.writeLogLine(message.line);
      else if (message.type === 'started') {
        hasStarted = true;
        resolve();
      } else if (message.type === 'heap') heapAnswers.shift()?.(message.used);
      else if (message.type === 'metrics') metricsAnswers.shift()?.(message.json);
      else onStopped?.();
    });
    worker.on('error', (error) => (failure = error));
    worker.once('exit', (code) => {
      exited = true;
      for (const answer of heapAnswers.splice(0)) answer(0);
      for (const answer of metricsAnswers.splice(0)) answer([]);
      onStopped?.();
      const error = new Error(`the ${config.service} thread ended (code ${code})${failure ? `: ${failure.message}` : ''}`, { cause: failure });
      if (!hasStarted) reject(error);
      else if (!stopping) hooks.onFailure(error);
    });
  });
  // A failure to start is reported to whoever awaits `started`; none is left unhandled meanwhile.
  started.catch(() => undefined);

  return {
    service: config.service,
    started,
    heapUsed: (options = {}) =>
      new Promise((resolve) => {
        if (exited) return resolve(0);
        heapAnswers.push(resolve);
        worker.postMessage({ type: 'heap', gc: options.gc ?? false } satisfies ToServiceThread);
      }),
    metricsJson: () =>
      new Promise((resolve) => {
        if (exited) return resolve([]);
        metricsAnswers.push(resolve);
        worker.postMessage({ type: 'metrics' } satisfies ToServiceThread);
      }),
    async stop() {
      if (stopping || exited) return;
      stopping = true;
      const stopped = new Promise<void>((resolve) => {
        onStopped = resolve;
        setTimeout(resolve, STOP_TIMEOUT_MS).unref();
      });
      worker.postMessage({ type: 'stop' } satisfies ToServiceThread);
      await stopped;
      await worker.terminate();
    },
  };
}
