import type { CaptureMode } from '../domain/flows/flow';
import type { ProcessorPayment } from '../domain/processor-port/processor-port';

/**
 * A request a real processor's mapper builds (pure). The plugin's client sends it: through the forwarder
 * when `carries_card_data` (the body then holds the forwarder's placeholders, never card data), else
 * through egress to the account's base URL.
 */
export interface ProcessorHttpRequest {
  method: 'POST' | 'GET' | 'PUT';
  /** Appended to the account's base URL. */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  /**
   * How the body is encoded: JSON (the default), form fields (an object of text values, sent
   * application/x-www-form-urlencoded in their order), or multipart/form-data (a MultipartBody: a file
   * upload, such as dispute evidence; never card data).
   */
  format?: ProcessorBodyFormat;
  carries_card_data: boolean;
}

export type ProcessorBodyFormat = 'json' | 'form' | 'multipart';

/** A multipart/form-data body: text fields, then files (each part named, with its file name and content type). */
export interface MultipartBody {
  fields: Record<string, string>;
  files: Array<{ name: string; filename: string; content_type: string; content: Buffer }>;
}

/** A processor's HTTP answer; a timeout or refused connection never becomes one (the client maps those to a retryable error). */
export interface ProcessorHttpResponse {
  status: number;
  body: unknown;
}

/** The forwarder's placeholders: whole values of the card fields each destination declares. */
export const CARD_PLACEHOLDERS = {
  account_number: '{{ account_number }}',
  expiration_month: '{{ expiration_month }}',
  expiration_year: '{{ expiration_year }}',
  security_code: '{{ security_code }}',
} as const;

/** What an authorization mapper needs beyond the engine's view of the payment. */
export interface AuthorizationInput extends ProcessorPayment {
  cardholder_name: string | null;
  capture_mode: CaptureMode;
  /**
   * Whether the vault still holds the security code (15 minutes after entry). Merchant-initiated payments
   * never send one, whatever this says.
   */
  security_code_available: boolean;
  /** Subsequent payments: the processor's reference of the initial authorization (Checkout.com's previous_payment_id). */
  initial_processor_reference: string | null;
}

/**
 * The forwarder's refusals that mean the token has no security code to give (any more): the vault let it
 * go (15 minutes), or none was collected. Nothing was sent; the request may go again without it.
 */
export const SECURITY_CODE_GONE = ['security_code_expired', 'security_code_unavailable'] as const;

/** The template without its `{{ security_code }}` member (pure), or null when it has none. */
export function withoutSecurityCode(body: unknown): unknown {
  let found = false;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== 'object') return value;
    const kept: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      if (member === CARD_PLACEHOLDERS.security_code) found = true;
      else kept[key] = strip(member);
    }
    return kept;
  };
  const stripped = strip(body);
  return found ? stripped : null;
}

/** Merchant-initiated: the consumer is absent, the stored credentials are used. */
export function isMerchantInitiated(useCase: ProcessorPayment['use_case']): boolean {
  return useCase === 'SUBSEQUENT_RECURRING' || useCase === 'SUBSEQUENT_UNSCHEDULED';
}

/**
 * A processor's notification, normalised. `dedupe_key` is the same for every delivery of one event, so a
 * repeated notification changes nothing twice.
 */
export type ProcessorNotificationEvent =
  | { kind: 'authorization_succeeded'; dedupe_key: string; payment_reference: string; processor_reference: string }
  | { kind: 'authorization_failed'; dedupe_key: string; payment_reference: string; processor_reference: string; failure_reason: string }
  | {
      kind: 'capture_succeeded';
      dedupe_key: string;
      payment_reference: string;
      processor_reference: string;
      capture_reference: string | null;
      amount: number | null;
    }
  | {
      kind: 'capture_failed';
      dedupe_key: string;
      payment_reference: string;
      processor_reference: string;
      capture_reference: string | null;
      failure_reason: string;
    }
  /** capture_reference: the refund's reference at the processor (Adyen's pspReference of it, Checkout.com's action_id). */
  | {
      kind: 'refund_succeeded';
      dedupe_key: string;
      payment_reference: string;
      processor_reference: string;
      capture_reference: string | null;
      amount: number | null;
    }
  | {
      kind: 'refund_failed';
      dedupe_key: string;
      payment_reference: string;
      processor_reference: string;
      capture_reference: string | null;
      failure_reason: string;
    }
  /** processor_reference: the authorization voided; capture_reference: the void's own reference. */
  | { kind: 'void_succeeded'; dedupe_key: string; payment_reference: string; processor_reference: string; capture_reference: string | null }
  | {
      kind: 'void_failed';
      dedupe_key: string;
      payment_reference: string;
      processor_reference: string;
      capture_reference: string | null;
      failure_reason: string;
    }
  | { kind: 'ignored'; dedupe_key: string; event_type: string };

/** HTTP answers that are not a processor's verdict on the payment: the same request may go to another account. */
export function transportOutcome(
  status: number,
): { status: 'error'; failure_reason: string } | { status: 'failed'; failure_reason: string; processor_reference: null } | null {
  if (status >= 500 || status === 429 || status === 408)
    return { status: 'error', failure_reason: status === 429 ? 'processor_rate_limited' : 'processor_unavailable' };
  if (status === 401 || status === 403) return { status: 'failed', failure_reason: 'processor_authentication_failed', processor_reference: null };
  if (status >= 400) return { status: 'failed', failure_reason: 'processor_request_rejected', processor_reference: null };
  return null;
}

/** A member of a processor's JSON answer, whatever the answer's shape. */
export function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** A non-empty string, else null. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A notification's raw body as JSON; undefined when it is not JSON. */
export function jsonBody(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
