import { ConcurrentModificationError } from '@vaultline/store';
import { scopeOfDocument, type Clock } from '@vaultline/core';
import { classifyAttempt, type AttemptOutcome } from './delivery-outcome';
import type { QueueEntry } from './delivery-queue';
import { nextAttemptDelay, type RetryPolicy } from './retry-policy';
import { activeSecrets, endpointSecretContext, type WebhookEndpoint } from './webhook-endpoint';
import { appendAttempt, type DeliveryAttempt, type WebhookMessage } from './webhook-message';
import { webhookHeaders } from './webhook-signature';
import type { DomainLogger, EndpointRepository, MessageRepository, QueueRepository, SecretSealer, TransactionRunner, WebhookTransport } from './ports';

export interface AttemptResult {
  /** The message as stored after the attempt; null when another worker had taken it over. */
  message: WebhookMessage | null;
  /** Epoch ms of the next attempt when one is scheduled. */
  nextAttemptAt: number | null;
}

/** Claims due entries for this worker in one commit; falls back to one by one on a conflict. */
export type ClaimDeliveries = (due: QueueEntry[]) => Promise<QueueEntry[]>;

export interface ClaimDeliveriesPorts {
  queue: Pick<QueueRepository, 'update'>;
  transaction: TransactionRunner;
  clock: Clock;
  /**
   * How long a claim lasts. Longer than the request timeout: an entry still claimed after it
   * belongs to a worker that died, and any worker may take it again.
   */
  leaseMs: number;
}

export function claimDeliveries({ queue, transaction, clock, leaseMs }: ClaimDeliveriesPorts): ClaimDeliveries {
  return async (due) => {
    if (due.length === 0) return [];
    const leaseUntil = clock.now().getTime() + leaseMs;
    const claimed = (entry: QueueEntry): QueueEntry => ({ ...entry, claimed: true, due_at: leaseUntil });
    try {
      return await transaction((uow) => due.map((entry) => queue.update(uow, claimed(entry))));
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
    }
    const results: QueueEntry[] = [];
    for (const entry of due) {
      try {
        results.push(await transaction((uow) => queue.update(uow, claimed(entry))));
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      }
    }
    return results;
  };
}

/**
 * One attempt of one claimed message, its state persisted before (the claim) and after (the
 * result) in the store, so a crash anywhere in between leads to another attempt, never to a lost message.
 */
export type AttemptDelivery = (entry: QueueEntry) => Promise<AttemptResult>;

export interface AttemptDeliveryPorts {
  endpoints: Pick<EndpointRepository, 'get' | 'update'>;
  messages: Pick<MessageRepository, 'get' | 'update'>;
  queue: Pick<QueueRepository, 'update' | 'delete'>;
  transaction: TransactionRunner;
  sealer: SecretSealer;
  transport: WebhookTransport;
  clock: Clock;
  policy: RetryPolicy;
  logger: DomainLogger;
}

export function attemptDelivery(ports: AttemptDeliveryPorts): AttemptDelivery {
  const { endpoints, messages, queue, transaction, sealer, transport, clock, policy, logger } = ports;

  async function attempt(entry: QueueEntry): Promise<AttemptResult> {
    const startedAt = clock.now();
    const message = await messages.get(scopeOfDocument(entry), entry.id);
    if (!message || message.status !== 'pending') {
      // Another worker finished it after our claim lapsed (message and entry change together).
      await transaction((uow) => queue.delete(uow, entry)).catch((error: unknown) => {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      });
      return { message: null, nextAttemptAt: null };
    }
    const endpoint = await endpoints.get(scopeOfDocument(message), message.endpoint_id);
    if (!endpoint || !endpoint.enabled) {
      const failure = endpoint ? 'endpoint_disabled' : 'endpoint_deleted';
      return save(entry, { ...message, status: 'failed', next_attempt_at: null, failure_reason: failure, updated_at: startedAt.toISOString() });
    }

    const secrets = activeSecrets(endpoint, startedAt).map((s) => sealer.open(s.sealed, endpointSecretContext(endpoint.id)));
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const headers = webhookHeaders({ id: message.id, timestamp, body: message.payload }, secrets);
    const started = performance.now();
    const result = await transport.send({ url: endpoint.url, mode: endpoint.mode, headers, body: message.payload });
    const durationMs = Math.round(performance.now() - started);
    const finishedAt = clock.now();
    const outcome = classifyAttempt(result, finishedAt);

    const attempt: DeliveryAttempt = {
      attempted_at: startedAt.toISOString(),
      status_code: outcome.statusCode,
      duration_ms: durationMs,
      error: outcome.kind === 'succeeded' ? null : outcome.error,
      trigger: message.replayed ? 'replay' : 'scheduled',
    };
    const saved = await save(entry, afterAttempt(message, attempt, outcome, finishedAt));
    if (outcome.kind === 'gone') await disableGoneEndpoint(endpoint);
    return saved;
  }

  function afterAttempt(message: WebhookMessage, attempt: DeliveryAttempt, outcome: AttemptOutcome, now: Date): WebhookMessage {
    const runAttempts = message.run_attempts + 1;
    const base: WebhookMessage = {
      ...message,
      run_attempts: runAttempts,
      attempt_count: message.attempt_count + 1,
      replayed: false,
      last_attempt_at: attempt.attempted_at,
      attempts: appendAttempt(message.attempts, attempt),
      updated_at: now.toISOString(),
    };
    if (outcome.kind === 'succeeded') return { ...base, status: 'succeeded', next_attempt_at: null, failure_reason: null };
    if (outcome.kind === 'gone') return { ...base, status: 'failed', next_attempt_at: null, failure_reason: 'endpoint_gone' };
    const delay = nextAttemptDelay(policy, runAttempts, outcome.retryAfterMs);
    if (delay === null) return { ...base, status: 'failed', next_attempt_at: null, failure_reason: 'retries_exhausted' };
    return { ...base, status: 'pending', next_attempt_at: now.getTime() + delay, failure_reason: null };
  }

  /** The message and its queue entry change in one commit; the entry's version proves our claim still holds. */
  async function save(entry: QueueEntry, next: WebhookMessage): Promise<AttemptResult> {
    try {
      const message = await transaction((uow) => {
        if (next.status === 'pending' && next.next_attempt_at !== null) {
          queue.update(uow, { ...entry, claimed: false, due_at: next.next_attempt_at });
        } else {
          queue.delete(uow, entry);
        }
        return messages.update(uow, next);
      });
      return { message, nextAttemptAt: message.status === 'pending' ? message.next_attempt_at : null };
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
      // Our claim lapsed and another worker took the message; its result wins.
      logger.warn({ message_id: next.id }, 'webhook message was taken over by another worker');
      return { message: null, nextAttemptAt: null };
    }
  }

  /** 410 Gone: the receiver asked us to stop. Re-read on a conflict (a concurrent PATCH). */
  async function disableGoneEndpoint(seen: WebhookEndpoint): Promise<void> {
    let endpoint: WebhookEndpoint | null = seen;
    for (let tries = 0; endpoint && endpoint.enabled && tries < 3; tries++) {
      const current: WebhookEndpoint = endpoint;
      try {
        await transaction((uow) => endpoints.update(uow, { ...current, enabled: false, disabled_reason: 'gone', updated_at: clock.now().toISOString() }));
        logger.info({ endpoint_id: current.id, merchant_id: current.merchant_id }, 'webhook endpoint disabled after 410 Gone');
        return;
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
        endpoint = await endpoints.get(scopeOfDocument(current), current.id);
      }
    }
  }

  return attempt;
}
