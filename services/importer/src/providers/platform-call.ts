import { AppError } from '@vaultline/core';
import { ProviderAuthenticationError, ProviderRequestError, ProviderUnreachableError } from '../domain/import-errors';
import type { ProviderContext, ProviderHttpRequest } from '../domain/import-provider';

export interface PlatformAnswer {
  status: number;
  body: unknown;
}

/** What a platform's error body says, for ProviderRequestError. */
export interface PlatformErrorDetail {
  type: string | null;
  code: string | null;
  param: string | null;
}

export interface PlatformCallOptions {
  errorOf(body: unknown): PlatformErrorDetail;
  /** The platform's own verdict on retrying an answer (provider_a: Stripe-Should-Retry), null when it gives none. */
  shouldRetryOf?(headers: Record<string, string>, body: unknown): boolean | null;
}

/**
 * One request to a platform with the retry rules every provider shares:
 * 401 → ProviderAuthenticationError (the job fails); 429 → wait Retry-After (capped) or, without it,
 * back off; 5xx, timeouts and connection errors → back off, then ProviderUnreachableError; other 4xx →
 * ProviderRequestError with the platform's code and param. The platform's own verdict, when it gives
 * one, overrides the status: "retry" retries even a 409, "do not retry" stops even a 503. Backoff is
 * exponential (base × 2^(n-1), capped) with equal jitter (50–100 % of it), so that the forwards in
 * flight do not come back at the platform in step. The request, its headers (Idempotency-Key
 * included) unchanged, is sent again as it was. Never logs or echoes the request.
 */
export async function callPlatform(
  context: ProviderContext,
  request: ProviderHttpRequest,
  signal: AbortSignal,
  options: PlatformCallOptions,
): Promise<PlatformAnswer> {
  const { retry } = context;
  let failures = 0;
  let rateLimited = 0;
  const backoff = (n: number) => jittered(context, n);
  for (;;) {
    let status: number;
    let headers: Record<string, string>;
    let text: string;
    try {
      const response = await context.http.request(request);
      status = response.status;
      headers = response.headers;
      text = response.body.toString('utf8');
    } catch (error) {
      if (!(error instanceof AppError) || !error.retryable) throw new ProviderUnreachableError('The platform could not be reached.');
      failures += 1;
      if (failures >= retry.maxAttempts) throw new ProviderUnreachableError();
      await context.sleep(backoff(failures), signal);
      continue;
    }
    if (status === 401) throw new ProviderAuthenticationError();
    const body = parseJson(text);
    const verdict = status >= 400 ? (options.shouldRetryOf?.(headers, body) ?? null) : null;
    if (status === 429 && verdict !== false) {
      rateLimited += 1;
      if (rateLimited > retry.maxRateLimitedAttempts) throw new ProviderUnreachableError('The platform kept answering 429 Too Many Requests.');
      const after = retryAfterMs(headers['retry-after'], retry.maxRetryAfterMs);
      await context.sleep(after ?? backoff(rateLimited), signal);
      continue;
    }
    if (status >= 400 && (verdict === true || (status >= 500 && verdict === null))) {
      failures += 1;
      if (failures >= retry.maxAttempts) throw new ProviderUnreachableError(`The platform kept answering HTTP ${status}.`);
      await context.sleep(backoff(failures), signal);
      continue;
    }
    if (status === 429 || status >= 500) throw new ProviderUnreachableError(`The platform answered HTTP ${status} and said not to retry.`);
    if (status >= 400) {
      const error = options.errorOf(body);
      throw new ProviderRequestError(status, error.code ?? error.type, error.param, error.type);
    }
    return { status, body };
  }
}

/** The n-th backoff delay: base × 2^(n-1), capped, then 50–100 % of it. */
function jittered({ retry, random }: ProviderContext, n: number): number {
  const full = Math.min(retry.maxBackoffMs, retry.baseDelayMs * 2 ** Math.min(n - 1, 30));
  return Math.round(full / 2 + (full / 2) * random());
}

/** Retry-After in seconds (or an HTTP date), capped; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, maxMs: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  if (!Number.isFinite(ms) || ms < 0) return null;
  return Math.min(ms, maxMs);
}

function parseJson(text: string): unknown {
  if (text.length === 0) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
