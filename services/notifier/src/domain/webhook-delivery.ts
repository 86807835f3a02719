import { ConcurrentModificationError } from '@vaultline/store';
import type { Clock } from '@vaultline/core';
import { classifyAttempt, type AttemptOutcome } from './delivery-outcome';
import type { QueueEntry } from './delivery-queue';
import { nextAttemptDelay, type RetryPolicy } from './retry-policy';
import { activeSecrets, type WebhookEndpoint } from './webhook-endpoint';
import { appendAttempt, type DeliveryAttempt, type WebhookMessage } from './webhook-message';
import { webhookHeaders } from './webhook-signature';
import type {
  DomainLogger,
  EndpointRepositoryPort,
  MessageRepositoryPort,
  QueueRepositoryPort,
  SecretCipherPort,
  TransactionRunner,
  WebhookTransport,
} from './ports';

export interface WebhookDeliveryDeps {
  endpoints: Pick<EndpointRepositoryPort, 'get' | 'update'>;
  messages: Pick<MessageRepositoryPort, 'get' | 'update'>;
  queue: Pick<QueueRepositoryPort, 'update' | 'delete'>;
  transaction: TransactionRunner;
  cipher: SecretCipherPort;
  transport: WebhookTransport;
  clock: Clock;
  policy: RetryPolicy;
  /**
   * How long a claim lasts. Longer than the request timeout: an entry still claimed after it
   * belongs to a worker that died, and any worker may take it again.
   */
  leaseMs: number;
  logger: DomainLogger;
}

export interface AttemptResult {
  /** The message as stored after the attempt; null when another worker had taken it over. */
  message: WebhookMessage | null;
  /** Epoch ms of the next attempt when one is scheduled. */
  nextAttemptAt: number | null;
}

const SECRET_CACHE_LIMIT = 10_000;

/**
 * One attempt of one message, its state persisted before (the claim) and after (the result) in
 * the store, so a crash anywhere in between leads to another attempt, never to a lost message.
 */
export class WebhookDelivery {
  private readonly openedSecrets = new Map<string, string>();

  constructor(private readonly deps: WebhookDeliveryDeps) {}

  /** Claims due entries for this worker in one commit; falls back to one by one on a conflict. */
  async claim(due: QueueEntry[]): Promise<QueueEntry[]> {
    if (due.length === 0) return [];
    const leaseUntil = this.deps.clock.now().getTime() + this.deps.leaseMs;
    const claimed = (entry: QueueEntry): QueueEntry => ({ ...entry, claimed: true, due_at: leaseUntil });
    try {
      return await this.deps.transaction((uow) => due.map((entry) => this.deps.queue.update(uow, claimed(entry))));
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
    }
    const results: QueueEntry[] = [];
    for (const entry of due) {
      try {
        results.push(await this.deps.transaction((uow) => this.deps.queue.update(uow, claimed(entry))));
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      }
    }
    return results;
  }

  async attempt(entry: QueueEntry): Promise<AttemptResult> {
    const startedAt = this.deps.clock.now();
    const message = await this.deps.messages.get(entry.message_merchant_id, entry.id);
    if (!message || message.status !== 'pending') {
      // Another worker finished it after our claim lapsed (message and entry change together).
      await this.deps.transaction((uow) => this.deps.queue.delete(uow, entry)).catch((error: unknown) => {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      });
      return { message: null, nextAttemptAt: null };
    }
    const endpoint = await this.deps.endpoints.get(message.merchant_id, message.endpoint_id);
    if (!endpoint || !endpoint.enabled) {
      const failure = endpoint ? 'endpoint_disabled' : 'endpoint_deleted';
      return this.save(entry, { ...message, status: 'failed', next_attempt_at: null, failure_reason: failure, updated_at: startedAt.toISOString() });
    }

    const secrets = activeSecrets(endpoint, startedAt).map((s) => this.openSecret(endpoint.id, s.sealed));
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const headers = webhookHeaders({ id: message.id, timestamp, body: message.payload }, secrets);
    const started = performance.now();
    const result = await this.deps.transport.send({ url: endpoint.url, headers, body: message.payload });
    const durationMs = Math.round(performance.now() - started);
    const finishedAt = this.deps.clock.now();
    const outcome = classifyAttempt(result, finishedAt);

    const attempt: DeliveryAttempt = {
      attempted_at: startedAt.toISOString(),
      status_code: outcome.statusCode,
      duration_ms: durationMs,
      error: outcome.kind === 'succeeded' ? null : outcome.error,
      trigger: message.replayed ? 'replay' : 'scheduled',
    };
    const saved = await this.save(entry, this.afterAttempt(message, attempt, outcome, finishedAt));
    if (outcome.kind === 'gone') await this.disableGoneEndpoint(endpoint);
    return saved;
  }

  private afterAttempt(message: WebhookMessage, attempt: DeliveryAttempt, outcome: AttemptOutcome, now: Date): WebhookMessage {
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
    const delay = nextAttemptDelay(this.deps.policy, runAttempts, outcome.retryAfterMs);
    if (delay === null) return { ...base, status: 'failed', next_attempt_at: null, failure_reason: 'retries_exhausted' };
    return { ...base, status: 'pending', next_attempt_at: now.getTime() + delay, failure_reason: null };
  }

  /** The message and its queue entry change in one commit; the entry's version proves our claim still holds. */
  private async save(entry: QueueEntry, next: WebhookMessage): Promise<AttemptResult> {
    try {
      const message = await this.deps.transaction((uow) => {
        if (next.status === 'pending' && next.next_attempt_at !== null) {
          this.deps.queue.update(uow, { ...entry, claimed: false, due_at: next.next_attempt_at });
        } else {
          this.deps.queue.delete(uow, entry);
        }
        return this.deps.messages.update(uow, next);
      });
      return { message, nextAttemptAt: message.status === 'pending' ? message.next_attempt_at : null };
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
      // Our claim lapsed and another worker took the message; its result wins.
      this.deps.logger.warn({ message_id: next.id }, 'webhook message was taken over by another worker');
      return { message: null, nextAttemptAt: null };
    }
  }

  /** 410 Gone: the receiver asked us to stop. Re-read on a conflict (a concurrent PATCH). */
  private async disableGoneEndpoint(seen: WebhookEndpoint): Promise<void> {
    let endpoint: WebhookEndpoint | null = seen;
    for (let tries = 0; endpoint && endpoint.enabled && tries < 3; tries++) {
      const current: WebhookEndpoint = endpoint;
      try {
        await this.deps.transaction((uow) =>
          this.deps.endpoints.update(uow, { ...current, enabled: false, disabled_reason: 'gone', updated_at: this.deps.clock.now().toISOString() }),
        );
        this.deps.logger.info({ endpoint_id: current.id, merchant_id: current.merchant_id }, 'webhook endpoint disabled after 410 Gone');
        return;
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
        endpoint = await this.deps.endpoints.get(current.merchant_id, current.id);
      }
    }
  }

  private openSecret(endpointId: string, sealed: string): string {
    let secret = this.openedSecrets.get(sealed);
    if (secret === undefined) {
      if (this.openedSecrets.size >= SECRET_CACHE_LIMIT) this.openedSecrets.clear();
      secret = this.deps.cipher.open(endpointId, sealed);
      this.openedSecrets.set(sealed, secret);
    }
    return secret;
  }
}
