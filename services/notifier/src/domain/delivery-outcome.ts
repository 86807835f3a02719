import { parseRetryAfter } from './retry-policy';

/** What came back from one attempt, as the transport reports it (no HTTP library types). */
export type TransportResult =
  | { kind: 'response'; status: number; headers: Record<string, string> }
  | { kind: 'error'; error: 'timeout' | 'unreachable' | 'blocked' | 'response_too_large' | 'error'; detail: string };

export type AttemptOutcome =
  | { kind: 'succeeded'; statusCode: number }
  /** 410 Gone: the receiver asks us to stop; the endpoint is disabled. */
  | { kind: 'gone'; statusCode: number; error: string }
  | { kind: 'failed'; statusCode: number | null; error: string; retryAfterMs: number | null };

const THROTTLING = new Set([429, 503]);

/** 2xx succeeds; 3xx is a failure (redirects are never followed); 410 disables; the rest retries. */
export function classifyAttempt(result: TransportResult, now: Date): AttemptOutcome {
  if (result.kind === 'error') return { kind: 'failed', statusCode: null, error: result.error, retryAfterMs: null };
  const { status } = result;
  if (status >= 200 && status < 300) return { kind: 'succeeded', statusCode: status };
  if (status === 410) return { kind: 'gone', statusCode: status, error: 'http_410_gone' };
  const retryAfterMs = THROTTLING.has(status) ? parseRetryAfter(result.headers['retry-after'], now) : null;
  const error = status >= 300 && status < 400 ? `http_${status}_redirect_not_followed` : `http_${status}`;
  return { kind: 'failed', statusCode: status, error, retryAfterMs };
}
