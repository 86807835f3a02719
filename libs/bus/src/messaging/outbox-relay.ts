import { hostname } from 'node:os';
import type { Logger } from '@vaultline/logger';
import {
  LeaseLostError,
  SYSTEM_SCOPE,
  type DocumentStore,
  type Fence,
  type OutboxMessage,
  type PendingOutboxMessage,
  type StoredDocument,
} from '@vaultline/store';
import type { Bus } from '../bus.port';
import { WakeSignal, afterPendingIo } from '../wake-signal';
import { newId, sleepEndingOnAbort } from '@vaultline/core';
import { defaultRetryDelayMs, describeError } from '../retry/deliver-with-retry';
import { METRIC, type ServiceMetrics } from '@vaultline/metrics';
import { DEAD_LETTERS_HELP } from '../metrics/observed-bus';

export interface OutboxRelayOptions {
  store: DocumentStore;
  bus: Bus;
  logger: Logger;
  /** Fallback poll when no commit woke the relay (default 250 ms). */
  pollIntervalMs?: number;
  batchSize?: number;
  /**
   * Failed publishes of the oldest message, while the bus answers ping, before that message is
   * parked in PARKED_OUTBOX_COLLECTION and the relay goes on (default 20: with the backoff, minutes).
   */
  parkAfterAttempts?: number;
  /** How long stop() spends publishing what is committed (default 5 s; 0: stop at once). Skipped while the bus refuses. */
  flushOnStopMs?: number;
  /** vaultline_outbox_backlog (read at scrape time, counted up to OUTBOX_BACKLOG_CAP) and parked messages as dead letters of group "outbox". */
  metrics?: ServiceMetrics;
  /**
   * Called with each batch the bus accepted, once it left the outbox: the state changes they announce
   * are committed (the payment orchestrator counts its payments by status here). Must not throw.
   */
  onPublished?: (messages: OutboxMessage[]) => void;
  /**
   * The relay lease (several replicas of a service share one outbox: one relay publishes at a time).
   * `ttlMs` (default 6 s): how long a holder that stopped renewing (a dead process) keeps it; renewed every
   * third of it. `standbyPollMs` (default 1 s): how often the others try to take it. A takeover therefore
   * happens within ttlMs + standbyPollMs of the holder's last renewal.
   */
  lease?: { name?: string; holder?: string; ttlMs?: number; standbyPollMs?: number };
}

/** The lease every relay of a store competes for. */
export const OUTBOX_RELAY_LEASE = 'outbox-relay';

/** The backlog gauge reads at most this many pending messages per scrape: the value means "at least" once reached. */
export const OUTBOX_BACKLOG_CAP = 1_000;

/** Where the relay parks a message the bus keeps refusing, in the service's own store (SYSTEM_SCOPE). */
export const PARKED_OUTBOX_COLLECTION = 'outbox_parked';

export interface ParkedOutboxMessage extends StoredDocument {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  /** The last publish error (masked, truncated). */
  error: string;
  attempts: number;
  parked_at: string;
}

export interface OutboxRelay {
  /**
   * Publishes what is committed (while the bus takes it, for at most `flushOnStopMs`), then stops after
   * the batch in progress; what is left stays in the outbox for the next relay.
   */
  stop(): Promise<void>;
  /** Resolves once the outbox was seen empty after this call (everything committed before it is published or parked). */
  flush(): Promise<void>;
  /** Messages this relay parked since it started (all of them stay in PARKED_OUTBOX_COLLECTION). */
  parkedCount(): number;
}

/**
 * Moves committed outbox messages to the bus, in commit order. A message is removed only after
 * the bus accepted it, so a crash in between publishes it again (at-least-once; consumers
 * dedupe by event id). A failing bus is retried with backoff, never skipped.
 *
 * Several replicas: each runs a relay, and only the holder of the store's OUTBOX_RELAY_LEASE publishes,
 * so a key's messages go out in commit order and, in steady state, once. The holder renews the lease
 * while it lives; the others try to take it every `standbyPollMs`. When the holder dies mid-batch, the
 * next holder starts again from the oldest unremoved message: what the dead one had sent of its batch
 * goes out twice (duplicates only across a takeover; consumers drop them by event id), nothing is lost,
 * and the first delivery of each message keeps commit order. The removal is fenced by the lease's token:
 * a holder that was paused past its lease and resumes finds it lost, removes nothing, and stands by.
 *
 * One message the bus keeps refusing must not hold back every later one: after a failed batch the
 * oldest message is sent alone until it goes through; once it failed `parkAfterAttempts` times and
 * the bus still answers ping (so the bus works, this message does not), it is parked in
 * PARKED_OUTBOX_COLLECTION with its error, logged, counted, and the relay goes on. Its key's later
 * messages then overtake it; an operator re-publishes it from the parked record. While the bus is
 * down nothing is parked.
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

  let parked = 0;
  let publishing = true;
  const parkedMetric = options.metrics?.counter(METRIC.busDeadLetters, DEAD_LETTERS_HELP, ['group', 'topic']);
  const stopBacklogGauge = options.metrics?.gauge(METRIC.outboxBacklog, 'Committed outbox messages not yet published to the bus.', [], async () => [
    { value: (await store.outbox.pending(OUTBOX_BACKLOG_CAP)).length },
  ]);
  const parkAfterAttempts = Math.max(1, options.parkAfterAttempts ?? 20);
  const leaseName = options.lease?.name ?? OUTBOX_RELAY_LEASE;
  const holder = options.lease?.holder ?? `${hostname()}:${process.pid}:${newId()}`;
  const leaseTtlMs = options.lease?.ttlMs ?? 6_000;
  const standbyPollMs = options.lease?.standbyPollMs ?? 1_000;
  let fence: Fence | null = null;
  let renewedAt = 0;

  /**
   * Takes or renews the lease; null while another relay holds it. Logged when it changes hands here. A
   * lease renewed less than a third of its TTL ago is not asked for again (no store write per batch): a
   * holder that lost it meanwhile learns so from the fenced removal.
   */
  async function holdLease(renew = false): Promise<Fence | null> {
    if (fence && !renew && Date.now() - renewedAt < leaseTtlMs / 3) return fence;
    const askedAt = Date.now();
    const token = await store.leases.acquire(leaseName, holder, leaseTtlMs);
    if (token === null) {
      if (fence) logger.warn({ lease: leaseName, holder, token: fence.token }, 'outbox relay lost its lease to another replica; standing by');
      fence = null;
    } else {
      if (fence?.token !== token) logger.info({ lease: leaseName, holder, token }, 'outbox relay took the lease: this replica publishes the outbox');
      fence = { lease: leaseName, token };
      renewedAt = askedAt;
    }
    return fence;
  }
  // Renewed on a timer as well as by the loop: a batch the bus takes long to accept must not cost the lease.
  const renewal = setInterval(
    () => {
      if (fence && !stopped)
        void holdLease(true).catch((error: unknown) => logger.warn({ error: describeError(error) }, 'outbox relay could not renew its lease'));
    },
    Math.max(10, Math.floor(leaseTtlMs / 3)),
  );
  renewal.unref();

  async function park(item: PendingOutboxMessage, error: unknown, attempts: number, held: Fence): Promise<void> {
    const description = describeError(error);
    await store.transaction((uow) =>
      uow.insert<ParkedOutboxMessage>(PARKED_OUTBOX_COLLECTION, {
        id: newId(),
        merchant_id: SYSTEM_SCOPE,
        ...item.message,
        error: description,
        attempts,
        parked_at: new Date().toISOString(),
      }),
    );
    await store.outbox.remove([item.position], held);
    parked++;
    parkedMetric?.inc({ group: 'outbox', topic: item.message.topic });
    logger.error(
      { topic: item.message.topic, key: item.message.key, attempts, error: description, parked_total: parked },
      `outbox message parked in ${PARKED_OUTBOX_COLLECTION}: the bus keeps refusing it`,
    );
  }

  async function run(): Promise<void> {
    let failures = 0;
    // After a failed batch: the oldest message alone, so one refused message is told from a bus outage.
    let isolating = false;
    let oldest: { position: string; failures: number } | undefined;
    let registered = false;
    while (!stopped) {
      // Flushes requested before this read are satisfied if it finds the outbox empty.
      const waiters = flushWaiters.splice(0);
      let satisfied = false;
      try {
        if (!registered) {
          await store.register({ name: PARKED_OUTBOX_COLLECTION });
          registered = true;
        }
        const held = await holdLease();
        if (!held) {
          // Standing by: a flush is satisfied once the holder emptied the outbox.
          if ((await store.outbox.pending(1)).length === 0) {
            satisfied = true;
            for (const waiter of waiters) waiter.resolve();
          }
          await sleepEndingOnAbort(standbyPollMs, stopping.signal);
          continue;
        }
        const pending = await store.outbox.pending(isolating ? 1 : batchSize);
        if (pending.length === 0) {
          satisfied = true;
          isolating = false;
          for (const waiter of waiters) waiter.resolve();
          await wake.wait(pollIntervalMs);
          await afterPendingIo();
          continue;
        }
        try {
          await bus.publish(pending.map((item) => item.message));
        } catch (error) {
          const head = pending[0] as PendingOutboxMessage;
          oldest = oldest?.position === head.position ? { position: head.position, failures: oldest.failures + 1 } : { position: head.position, failures: 1 };
          if (pending.length === 1 && oldest.failures >= parkAfterAttempts && (await answers(bus))) {
            await park(head, error, oldest.failures, held);
            oldest = undefined;
            isolating = false;
            failures = 0;
            continue;
          }
          isolating = true;
          throw error;
        }
        await store.outbox.remove(
          pending.map((item) => item.position),
          held,
        );
        options.onPublished?.(pending.map((item) => item.message));
        publishing = true;
        failures = 0;
        isolating = false;
        oldest = undefined;
        // A short batch emptied the outbox as it was when read; a later commit (or flush) notified
        // the signal, so wait for that instead of reading again only to find nothing.
        if (pending.length < batchSize) {
          await wake.wait(pollIntervalMs);
          await afterPendingIo();
        }
      } catch (error) {
        if (error instanceof LeaseLostError) {
          // Paused past the lease: another replica holds it and republishes what this one did not remove.
          logger.warn({ lease: leaseName, holder, error: error.message }, 'outbox relay lost its lease during a batch; standing by');
          fence = null;
          isolating = false;
          oldest = undefined;
          continue;
        }
        failures++;
        publishing = false;
        logger.warn({ failures, error: describeError(error) }, 'outbox relay could not publish; retrying');
        await sleepEndingOnAbort(defaultRetryDelayMs(failures), stopping.signal);
      } finally {
        if (!satisfied) flushWaiters.unshift(...waiters);
      }
    }
  }

  const loop = run();
  const flush = () => {
    if (stopped) return Promise.reject(new Error('outbox relay stopped'));
    return new Promise<void>((resolve, reject) => {
      flushWaiters.push({ resolve, reject });
      wake.notify();
    });
  };
  const flushOnStopMs = options.flushOnStopMs ?? 5_000;
  return {
    async stop() {
      if (stopped) return;
      // SIGTERM drain: what the requests just answered committed reaches the bus before the process ends.
      if (fence && publishing && flushOnStopMs > 0) await Promise.race([flush().catch(() => undefined), sleepEndingOnAbort(flushOnStopMs, stopping.signal)]);
      stopped = true;
      stopBacklogGauge?.();
      stopping.abort();
      unsubscribe();
      wake.notify();
      await loop;
      clearInterval(renewal);
      // Handed over at once: a standby relay takes it within standbyPollMs instead of waiting for it to run out.
      if (fence) await store.leases.release(leaseName, holder).catch(() => undefined);
      fence = null;
      for (const waiter of flushWaiters.splice(0)) waiter.reject(new Error('outbox relay stopped'));
    },
    parkedCount: () => parked,
    flush,
  };
}

async function answers(bus: Bus): Promise<boolean> {
  try {
    await bus.ping();
    return true;
  } catch {
    return false;
  }
}
