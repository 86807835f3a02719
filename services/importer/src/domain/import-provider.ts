import type { z } from 'zod';

/** One payment method found on the platform, with the provider's cursor to resume after it. */
export interface ProviderPaymentMethod {
  id: string;
  position: Record<string, unknown>;
}

/** What the platform is asked to send to our /cde-import (its card fields filled by the platform). */
export interface ForwardToImport {
  paymentMethodId: string;
  url: string;
  /** The job-scoped key, sent by the platform as X-API-Key. */
  apiKey: string;
  /** JSON body with metadata.business_key and correlation_id; card fields are left for the platform. */
  body: string;
  /**
   * Sent as the platform's Idempotency-Key: derived from the job, the payment method and the attempt,
   * so that a retried or resumed forward is answered from the platform's saved result instead of
   * sending the card (and using up its security code) a second time.
   */
  idempotencyKey: string;
}

/** What /cde-import answered, as relayed by the platform: the status and the problem code, nothing else. */
export interface ImportEndpointAnswer {
  status: number;
  code: string | null;
}

/** One platform account, opened with the merchant's credentials for one job. */
export interface ImportSource {
  /** Streams the account's card payment methods, page by page, after `position` (null = from the start). */
  paymentMethods(position: Record<string, unknown> | null, signal: AbortSignal): AsyncIterable<ProviderPaymentMethod>;
  forward(request: ForwardToImport, signal: AbortSignal): Promise<ImportEndpointAnswer>;
}

export interface ProviderHttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The egress client's shape (libs/egress), so plugins never open sockets themselves. */
export interface ProviderHttp {
  request(request: ProviderHttpRequest): Promise<{ status: number; headers: Record<string, string>; body: Buffer }>;
}

export interface ProviderRetryPolicy {
  /** Attempts for a request that fails with 5xx, timeout or connection error. */
  maxAttempts: number;
  /** First backoff delay; doubles per attempt (with jitter), up to maxBackoffMs. */
  baseDelayMs: number;
  /** Longest backoff delay, before jitter. */
  maxBackoffMs: number;
  /** Longest Retry-After honoured for a 429; longer ones are capped. */
  maxRetryAfterMs: number;
  /** 429 answers tolerated per request before the platform counts as unreachable. */
  maxRateLimitedAttempts: number;
}

export interface ProviderContext {
  http: ProviderHttp;
  /** The provider's base URL from configuration (e.g. PROVIDER_A_BASE_URL), when it has one. */
  baseUrl: string;
  retry: ProviderRetryPolicy;
  /** Resolves after ms, or rejects with ImportInterruptedError when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** A number in [0, 1) for backoff jitter (Math.random; fixed in tests). */
  random(): number;
  pageSize: number;
  /** Payment-method lists fetched ahead, in parallel, while forwards are in flight. */
  lookahead: number;
}

/** A platform the importer can read from. Registered once in providers/registry.ts. */
export interface ImportProviderPlugin<C = unknown> {
  id: string;
  /** The object the merchant posts under the provider's name, e.g. provider_a: { api_key }. */
  credentialsSchema: z.ZodType<C>;
  // Method syntax on purpose: a plugin for specific credentials still fits the registry's plugin type.
  open(credentials: C, context: ProviderContext): ImportSource;
}
