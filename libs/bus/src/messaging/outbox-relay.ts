import type { Logger } from '@vaultline/logger';
import type { DocumentStore } from '@vaultline/store';
import type { Bus } from '../bus.port';
import { WakeSignal, afterPendingIo } from '../wake-signal';
import { sleepEndingOnAbort } from '@vaultline/core';
import { defaultRetryDelayMs, describeError } from '../retry/deliver-with-retry';

export interface OutboxRelayOptions {
  store: DocumentStore;
  bus: Bus;
  logger: Logger;
  /** Fallback poll when no commit woke the relay (default 250 ms). */
  pollIntervalMs?: number;
  batchSize?: number;
}

export interface OutboxRelay {
  /** Stops after the batch in progress; unpublished messages stay in the outbox. */
  stop(): Promise<void>;
  /** Resolves once the outbox was seen empty after this call (everything committed before it is published). */
  flush(): Promise<void>;
}

/**
 * Moves committed outbox messages to the bus, in commit order. A message is removed only after
 * the bus accepted it, so a crash in between publishes it again (at-least-once; consumers
 * dedupe by event id). A failing bus is retried with backoff, never skipped.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { store, bus, logger } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const batchSize = options.batchSize ?? 100;
  const wake = new WakeSignal();
  const unsubscribe = store.outbox.onCommit(() => wake.notify());
  let stopped = false;
  const flushWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

  const stopping = new AbortController();

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      // Flushes requested before this read are satisfied if it finds the outbox empty.
      const waiters = flushWaiters.splice(0);
      let satisfied = false;
      try {
        const pending = await store.outbox.pending(batchSize);
        if (pending.length === 0) {
          satisfied = true;
          for (const waiter of waiters) waiter.resolve();
          await wake.wait(pollIntervalMs);
          await afterPendingIo();
          continue;
        }
        await bus.publish(pending.map((item) => item.message));
        await store.outbox.remove(pending.map((item) => item.position));
        failures = 0;
        // A short batch emptied the outbox as it was when read; a later commit (or flush) notified
        // the signal, so wait for that instead of reading again only to find nothing.
        if (pending.length < batchSize) {
          await wake.wait(pollIntervalMs);
          await afterPendingIo();
        }
      } catch (error) {
        failures++;
        logger.warn({ failures, error: describeError(error) }, 'outbox relay could not publish; retrying');
        await sleepEndingOnAbort(defaultRetryDelayMs(failures), stopping.signal);
      } finally {
        if (!satisfied) flushWaiters.unshift(...waiters);
      }
    }
  }

  const loop = run();
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      unsubscribe();
      wake.notify();
      await loop;
      for (const waiter of flushWaiters.splice(0)) waiter.reject(new Error('outbox relay stopped'));
    },
    flush() {
      if (stopped) return Promise.reject(new Error('outbox relay stopped'));
      return new Promise<void>((resolve, reject) => {
        flushWaiters.push({ resolve, reject });
        wake.notify();
      });
    },
  };
}
