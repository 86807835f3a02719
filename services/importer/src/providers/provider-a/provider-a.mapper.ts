import { z } from 'zod';
import type { ForwardToImport, ImportEndpointAnswer } from '../../domain/import-provider';
import type { PlatformErrorDetail } from '../platform-call';

/**
 * provider_a's wire format (shaped after Stripe's public API): list objects, payment methods,
 * forwarding requests. Pure functions, unit-tested; the source does the calls.
 */

export const REPLACEMENTS = ['card_number', 'card_expiry', 'card_cvc', 'cardholder_name'] as const;

/**
 * The API version every request pins (Stripe-Version), so that field shapes do not move under us
 * when the account's default version changes. The version the official SDK the contract test runs
 * (stripe 23.1.0) is built for; change both together, after reading the platform's changelog.
 */
export const PROVIDER_A_API_VERSION = '2026-10-28.endive';

const listSchema = z.object({
  object: z.literal('list'),
  has_more: z.boolean(),
  data: z.array(z.object({ id: z.string().min(1), type: z.string().optional() }).loose()),
});

export interface ListPage {
  has_more: boolean;
  data: { id: string; type?: string }[];
}

export function parseListPage(body: unknown): ListPage {
  const parsed = listSchema.safeParse(body);
  if (!parsed.success) throw new MalformedPlatformAnswerError();
  return parsed.data;
}

export class MalformedPlatformAnswerError extends Error {
  constructor() {
    super('the platform answered with an unexpected shape');
    this.name = 'MalformedPlatformAnswerError';
  }
}

/** Where a resumed listing continues: after method `method_index` of the page fetched with `methods_after`. */
export interface ProviderAPosition {
  /** starting_after used to fetch the customers page (null: the first page). */
  customers_after: string | null;
  /** Index of the customer within that page. */
  customer_index: number;
  /** starting_after used to fetch that customer's payment-methods page. */
  methods_after: string | null;
  /** Index of the last payment method done within that page. */
  method_index: number;
}

const positionSchema = z.object({
  customers_after: z.string().nullable(),
  customer_index: z.number().int().nonnegative(),
  methods_after: z.string().nullable(),
  method_index: z.number().int().min(-1),
});

export function parsePosition(position: Record<string, unknown> | null): ProviderAPosition | null {
  if (position === null) return null;
  const parsed = positionSchema.safeParse(position);
  return parsed.success ? parsed.data : null;
}

export function listQuery(limit: number, startingAfter: string | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ limit: String(limit), ...extra });
  if (startingAfter) query.set('starting_after', startingAfter);
  return query.toString();
}

/** POST /v1/forwarding/requests, form-encoded as the platform expects. */
export function forwardingForm(request: ForwardToImport): string {
  const form = new URLSearchParams();
  form.set('payment_method', request.paymentMethodId);
  form.set('url', request.url);
  form.set('request[headers][0][name]', 'X-API-Key');
  form.set('request[headers][0][value]', request.apiKey);
  form.set('request[body]', request.body);
  for (const replacement of REPLACEMENTS) form.append('replacements[]', replacement);
  return form.toString();
}

const forwardingRequestSchema = z.object({
  object: z.literal('forwarding.request'),
  response_details: z.object({ status: z.number().int(), body: z.string().nullable().optional() }).loose().nullable().optional(),
});

/**
 * The destination's answer inside a ForwardingRequest: its status and, for a refusal, the problem
 * code of our vault's application/problem+json body. Nothing else of the body is kept.
 */
export function importAnswerOf(body: unknown): ImportEndpointAnswer {
  const parsed = forwardingRequestSchema.safeParse(body);
  if (!parsed.success || !parsed.data.response_details) return { status: 502, code: null };
  const { status, body: text } = parsed.data.response_details;
  return { status, code: problemCodeOf(text ?? null) };
}

function problemCodeOf(text: string | null): string | null {
  if (!text) return null;
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json === 'object' && json !== null && typeof (json as { code?: unknown }).code === 'string') return (json as { code: string }).code;
  } catch {
    return null;
  }
  return null;
}

/** The platform's error object ({ error: { type, code, param, message } }): type, code and param, never the message. */
export function platformErrorOf(body: unknown): PlatformErrorDetail {
  const error = typeof body === 'object' && body !== null ? (body as { error?: { code?: unknown; type?: unknown; param?: unknown } }).error : undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { type: text(error?.type), code: text(error?.code), param: text(error?.param) };
}

/**
 * Stripe-Should-Retry: the platform's own word on whether a retry can succeed. Without it, a 409
 * idempotency_key_in_use (the same forward still running, e.g. after our timeout) is worth retrying
 * with the same key: the retry then gets the saved answer. null: no verdict, the status decides.
 */
export function shouldRetryOf(headers: Record<string, string>, body: unknown = null): boolean | null {
  const value = headers['stripe-should-retry'];
  if (value === 'true') return true;
  if (value === 'false') return false;
  return platformErrorOf(body).code === 'idempotency_key_in_use' ? true : null;
}
