import { AppError } from '@vaultline/core';
import { ProviderAuthenticationError, ProviderRequestError, ProviderUnreachableError } from '../domain/import-errors';
import type { ProviderContext, ProviderHttpRequest } from '../domain/import-provider';

export interface PlatformAnswer {
  status: number;
  body: unknown;
}

/**
 * One request to a platform with the retry rules every provider shares:
 * 401 → ProviderAuthenticationError (the job fails); 429 → wait Retry-After (capped) and retry;
 * 5xx, timeouts and connection errors → exponential backoff, then ProviderUnreachableError;
 * other 4xx → ProviderRequestError with the platform's error code. Never logs or echoes the request.
 */
export async function callPlatform(context: ProviderContext, request: ProviderHttpRequest, signal: AbortSignal, errorCodeOf: (body: unknown) => string | null): Promise<PlatformAnswer> {
  const { retry } = context;
  let failures = 0;
  let rateLimited = 0;
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
      await context.sleep(backoff(retry.baseDelayMs, failures), signal);
      continue;
    }
    if (status === 401) throw new ProviderAuthenticationError();
    if (status === 429) {
      rateLimited += 1;
      if (rateLimited > retry.maxRateLimitedAttempts) throw new ProviderUnreachableError('The platform kept answering 429 Too Many Requests.');
      await context.sleep(retryAfterMs(headers['retry-after'], retry.baseDelayMs, retry.maxRetryAfterMs), signal);
      continue;
    }
    if (status >= 500) {
      failures += 1;
      if (failures >= retry.maxAttempts) throw new ProviderUnreachableError(`The platform kept answering HTTP ${status}.`);
      await context.sleep(backoff(retry.baseDelayMs, failures), signal);
      continue;
    }
    const body = parseJson(text);
    if (status >= 400) throw new ProviderRequestError(status, errorCodeOf(body));
    return { status, body };
  }
}

const backoff = (base: number, failures: number): number => base * 2 ** (failures - 1);

/** Retry-After in seconds (or an HTTP date); falls back to the base delay when absent or unreadable. */
export function retryAfterMs(header: string | undefined, fallbackMs: number, maxMs: number): number {
  if (!header) return fallbackMs;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  if (!Number.isFinite(ms) || ms < 0) return fallbackMs;
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
