import { VaultlineConnectionError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 2): on connection errors, 409 idempotency_key_in_use, 429 and every 5xx. */
  maxRetries: number;
  /** First backoff in ms (default 500), doubled on each retry, with jitter, capped by maxDelayMs. */
  initialDelayMs: number;
  /** Longest wait between two attempts, Retry-After included (default 20 s). */
  maxDelayMs: number;
  /** Per-attempt timeout in ms (default 60 s). */
  timeoutMs: number;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 20_000, timeoutMs: 60_000 };

/**
 * The codes of a 409 that mean "the first request with this Idempotency-Key is still running": retried with
 * the same key (idempotency_key_in_use is what the API answers; idempotency_key_in_progress is the name the
 * SDKs' issue gave it). Every Vaultline SDK retries alike: sdks/test-vectors/retries.json.
 */
const RETRIED_CONFLICTS = new Set(['idempotency_key_in_use', 'idempotency_key_in_progress']);

/** 429, every 5xx, and a 409 whose code says the same key is still running; never another 4xx. */
async function isRetried(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status !== 409) return false;
  const code = await response
    .clone()
    .json()
    .then((problem: unknown) => (problem as { code?: unknown } | null)?.code)
    .catch(() => undefined);
  return typeof code === 'string' && RETRIED_CONFLICTS.has(code);
}

type Fetch = (request: Request) => Promise<Response>;

/**
 * A fetch that makes POSTs safe to retry and retries what is worth retrying. A POST without an
 * Idempotency-Key gets one (a random UUID) before the first attempt, so every retry carries the same key
 * and the API runs the request at most once. 429 waits as long as Retry-After says; 5xx, 409
 * idempotency_key_in_use and connection errors back off exponentially with jitter.
 */
export function retryingFetch(options: RetryOptions, fetchImpl: Fetch = (request) => globalThis.fetch(request), sleep = defaultSleep): Fetch {
  return async (request) => {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('Idempotency-Key', randomUuid());
    for (let attempt = 0; ; attempt += 1) {
      const retriesLeft = attempt < options.maxRetries;
      let response: Response;
      try {
        response = await fetchImpl(new Request(request.clone(), { signal: AbortSignal.timeout(options.timeoutMs) }));
      } catch (error) {
        if (!retriesLeft)
          throw new VaultlineConnectionError(
            `${request.method} ${new URL(request.url).pathname} failed after ${attempt + 1} attempt(s): ${describe(error)}`,
            error,
          );
        await sleep(backoff(options, attempt));
        continue;
      }
      if (!retriesLeft || !(await isRetried(response))) return response;
      await response.body?.cancel();
      await sleep(Math.min(options.maxDelayMs, retryAfterMs(response.headers.get('retry-after')) ?? backoff(options, attempt)));
    }
  };
}

/**
 * A random UUID (v4). crypto.randomUUID exists in Node and in a browser's secure contexts only; a dashboard
 * served over plain http on a private network builds one from getRandomValues, available everywhere.
 */
export function randomUuid(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function backoff(options: RetryOptions, attempt: number): number {
  const exponential = options.initialDelayMs * 2 ** attempt;
  return Math.min(options.maxDelayMs, exponential / 2 + Math.random() * (exponential / 2));
}

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
