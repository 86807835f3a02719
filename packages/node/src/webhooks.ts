import { Webhook, WebhookVerificationError as StandardWebhookError } from 'standardwebhooks';
import { WebhookVerificationError } from './errors.js';
import type { components } from './generated/merchant.js';

/** The event a webhook delivers: the envelope of GET /events. */
export type WebhookEvent = components['schemas']['Event'];

/** Request headers as node:http (IncomingHttpHeaders), express or the fetch API (Headers) give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * Checks a delivery's Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature)
 * with the endpoint's `whsec_…` secret and returns the event. Pass the raw body exactly as received:
 * a body parsed and serialized again does not verify. A timestamp more than five minutes away from now is
 * refused (replays). Throws WebhookVerificationError.
 */
export function verify(body: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const picked: Record<string, string> = {};
  for (const name of SIGNATURE_HEADERS) {
    const value = headers instanceof Headers ? headers.get(name) : headerValue(headers, name);
    if (!value) throw new WebhookVerificationError(`The ${name} header is missing.`);
    picked[name] = value;
  }
  // A Buffer is a Uint8Array: the bytes as received, decoded as UTF-8 (no Node type needed, so browsers type-check it too).
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  try {
    return new Webhook(secret).verify(payload, picked) as WebhookEvent;
  } catch (error) {
    if (error instanceof StandardWebhookError) throw new WebhookVerificationError(error.message);
    throw new WebhookVerificationError(`The webhook could not be verified: ${(error as Error).message}`);
  }
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

export const webhooks = { verify };
