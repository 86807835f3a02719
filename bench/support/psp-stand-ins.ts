import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AdyenStandInOptions } from '../../test-e2e/support/adyen-stand-in';
import type { CheckoutStandInOptions } from '../../test-e2e/support/checkout-stand-in';

/**
 * A PSP stand-in (test-e2e/support) on a thread of its own. A real processor does its work on its own
 * machines: run on the bench's main thread, where the whole embedded system runs, the stand-in's request
 * parsing and webhook signing would be charged to the real-processor path as if it were ours.
 */
export interface ThreadedStandIn {
  baseUrl: string;
  /** The stand-in posts its signed notifications here (the processor account's notification route). */
  setWebhookUrl(url: string): Promise<void>;
  stop(): Promise<void>;
}

type StandInRequest = { processor: 'adyen'; options: AdyenStandInOptions } | { processor: 'checkout'; options: CheckoutStandInOptions };

export async function startThreadedStandIn(request: StandInRequest): Promise<ThreadedStandIn> {
  const worker = new Worker(join(__dirname, 'psp-stand-in-worker.mjs'), { workerData: request });
  const next = async <T extends { type: string }>(type: T['type']): Promise<T> => {
    for (;;) {
      const [message] = (await once(worker, 'message')) as [T];
      if (message.type === type) return message;
    }
  };
  const { baseUrl } = await next<{ type: 'started'; baseUrl: string }>('started');
  return {
    baseUrl,
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
