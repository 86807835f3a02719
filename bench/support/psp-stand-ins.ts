import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PROCESSOR_MANIFESTS, paymentsPathOf, type ProcessorManifest } from '@vaultline/contracts';

const PROCESSORS = join(__dirname, '../../services/payment-orchestrator/src/processors');

/** A processor the bench runs its load on: its manifest, and its folder's bench stand-in (`<id>/dev/<id>.bench.ts`). */
export interface BenchProcessor {
  manifest: ProcessorManifest;
  /** Its payments path under the stand-in's base URL (an operator lists it in FORWARD_EXTRA_DESTINATIONS). */
  paymentsPath: string;
  module: string;
}

/** Every processor whose folder gives the bench a stand-in, in the manifests' order. */
export function benchProcessors(): BenchProcessor[] {
  return PROCESSOR_MANIFESTS.flatMap((manifest) => {
    const module = join(PROCESSORS, manifest.id, 'dev', `${manifest.id}.bench.ts`);
    const paymentsPath = paymentsPathOf(manifest);
    return existsSync(module) && paymentsPath ? [{ manifest, paymentsPath, module }] : [];
  });
}

/**
 * A processor's stand-in (its folder's dev/ stand-in) on a thread of its own. A real processor does its
 * work on its own machines: run on the bench's main thread, where the whole embedded system runs, the
 * stand-in's request parsing and webhook signing would be charged to the real-processor path as if it were ours.
 */
export interface ThreadedStandIn {
  baseUrl: string;
  /** The credentials of an account the stand-in accepts. */
  credentials: Record<string, string>;
  /** The stand-in posts its signed notifications here (the processor account's notification route). */
  setWebhookUrl(url: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startThreadedStandIn(processor: BenchProcessor, options: { delayMs?: [number, number] }): Promise<ThreadedStandIn> {
  const worker = new Worker(join(__dirname, 'psp-stand-in-worker.mjs'), { workerData: { module: processor.module, options } });
  const next = async <T extends { type: string }>(type: T['type']): Promise<T> => {
    for (;;) {
      const [message] = (await once(worker, 'message')) as [T];
      if (message.type === type) return message;
    }
  };
  const { baseUrl, credentials } = await next<{ type: 'started'; baseUrl: string; credentials: Record<string, string> }>('started');
  return {
    baseUrl,
    credentials,
    async setWebhookUrl(url) {
      worker.postMessage({ type: 'webhook-url', url });
      await next('webhook-url-set');
    },
    async stop() {
      worker.postMessage({ type: 'stop' });
      await once(worker, 'exit');
    },
  };
}
