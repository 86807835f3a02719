import { sleep } from '@vaultline/core';
import type { HttpAnswer } from './merchant-api';

interface CallOptions {
  json?: unknown;
  headers?: Record<string, string>;
}

/** How long one request may take before it counts as lost (and is retried). */
const REQUEST_TIMEOUT_MS = 30_000;
/** How long a request is retried while services are down or restarting. */
const RETRY_FOR_MS = 180_000;
const RETRY_PAUSE_MS = 300;

/**
 * A merchant backend that survives crashes the way the merchant API asks it to: a request that got no
 * answer, a 5xx, a 429 or 409 idempotency_key_in_use is sent again, the same request with the same
 * Idempotency-Key, until it gets its answer. Counts the retries and the replays it saw.
 */
export class CrashClient {
  retried = 0;
  replays = 0;

  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** Sends until a final answer, which must have `status`. */
  async expect(status: number, method: string, path: string, options: CallOptions = {}): Promise<HttpAnswer> {
    const answer = await this.send(method, path, options);
    if (answer.status !== status) throw new Error(`${method} ${path} answered ${answer.status}, expected ${status}: ${answer.text}`);
    return answer;
  }

  /** Sends until the answer is final (not a network error, 5xx, 429 or idempotency_key_in_use). */
  async send(method: string, path: string, options: CallOptions = {}, headers: Record<string, string> = { 'X-API-Key': this.apiKey }): Promise<HttpAnswer> {
    const deadline = Date.now() + RETRY_FOR_MS;
    let last = 'no attempt';
    for (;;) {
      try {
        const response = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: { ...headers, ...(options.json !== undefined ? { 'Content-Type': 'application/json' } : {}), ...options.headers },
          ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await response.text();
        const answer: HttpAnswer = { status: response.status, headers: response.headers, text, json: <T>() => JSON.parse(text) as T };
        if (!retryable(answer)) {
          if (answer.headers.get('idempotent-replayed') === 'true') this.replays++;
          return answer;
        }
        last = `${answer.status} ${text.slice(0, 200)}`;
      } catch (error) {
        last = (error as Error).message;
      }
      if (Date.now() > deadline) throw new Error(`${method} ${path}: no final answer in ${RETRY_FOR_MS} ms (last: ${last})`);
      this.retried++;
      await sleep(RETRY_PAUSE_MS);
    }
  }

  /**
   * The consumer's card entry (POST /sessions/{id}/card, public), once the vault knows the session (it
   * arrives by event after the payment was created; the page waits for it the same way, and every
   * POST counts against the session's attempts). A retry after the vault had taken the card is refused
   * because the session is used: the card is in.
   */
  async submitCard(sessionId: string, number: string, cvc: string): Promise<void> {
    await this.waitUntil(
      async () => (await this.send('GET', `/sessions/${sessionId}/status`, {}, {})).status === 200,
      RETRY_FOR_MS,
      `session ${sessionId} known to the vault`,
    );
    const retriedBefore = this.retried;
    const answer = await this.send(
      'POST',
      `/sessions/${sessionId}/card`,
      { json: { card: { number, exp_month: 12, exp_year: 2034, cvc, name: 'Ada Lovelace' } } },
      {},
    );
    if (answer.status === 201) return;
    if (answer.status === 409 && this.retried > retriedBefore && answer.json<{ code?: string }>().code === SESSION_USED) return;
    throw new Error(`POST /sessions/${sessionId}/card answered ${answer.status}: ${answer.text}`);
  }

  /**
   * After a declined card the session opens again for another (payment.attempt_failed); the consumer leaves
   * instead ("Return to the shop"): the payment fails with the card's reason. A repeated leave answers the
   * abandoned session again, so a retry after a lost answer is harmless.
   */
  async leaveAfterFailedCard(sessionId: string, timeoutMs: number): Promise<void> {
    await this.waitUntil(
      async () => {
        const status = await this.send('GET', `/sessions/${sessionId}/status`, {}, {});
        const session = status.json<{ state?: string; last_failed_attempt?: unknown }>();
        return status.status === 200 && ((session.state === 'open' && !!session.last_failed_attempt) || session.state === 'abandoned');
      },
      timeoutMs,
      `session ${sessionId} open again after the declined card`,
    );
    const answer = await this.send('POST', `/sessions/${sessionId}/abandon`, {}, {});
    if (answer.status !== 200) throw new Error(`POST /sessions/${sessionId}/abandon answered ${answer.status}: ${answer.text}`);
  }

  /** Polls the payment until its status is one of `statuses`. */
  async untilStatus(paymentId: string, statuses: string[], timeoutMs: number): Promise<void> {
    await this.waitUntil(
      async () => statuses.includes((await this.expect(200, 'GET', `/payments/${paymentId}`)).json<{ status: string }>().status),
      timeoutMs,
      `payment ${paymentId} ${statuses.join('|')}`,
    );
  }

  async waitUntil(condition: () => Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms`);
      await sleep(200);
    }
  }

  /** Every item of a paginated list (data, has_more, next_cursor). */
  async all<T = { id: string; type: string; data: Record<string, unknown> }>(path: string): Promise<T[]> {
    const items: T[] = [];
    let after: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page: { data: T[]; has_more: boolean; next_cursor?: string | null } = (
        await this.expect(200, 'GET', `${path}${separator}limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`)
      ).json();
      items.push(...page.data);
      after = page.has_more ? (page.next_cursor ?? null) : null;
    } while (after);
    return items;
  }
}

const SESSION_USED = 'checkout_session_already_used';

function retryable(answer: HttpAnswer): boolean {
  if (answer.status >= 500 || answer.status === 429) return true;
  if (answer.status !== 409) return false;
  try {
    return JSON.parse(answer.text).code === 'idempotency_key_in_use';
  } catch {
    return false;
  }
}
