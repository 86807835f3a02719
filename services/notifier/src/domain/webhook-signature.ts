import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks secrets: "whsec_" + base64 of the random key bytes. */
export const SECRET_PREFIX = 'whsec_';
export const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function secretKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export interface SignInput {
  /** webhook-id */
  id: string;
  /** webhook-timestamp, Unix seconds */
  timestamp: number;
  /** The exact bytes sent. */
  body: string;
}

/**
 * The webhook-signature header value: one "v1,<base64 HMAC-SHA256 of id.timestamp.body>" per
 * secret, space-separated (several during a rotation grace period).
 */
export function signWebhook(input: SignInput, secrets: string[]): string {
  const content = `${input.id}.${input.timestamp}.${input.body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', secretKeyBytes(secret)).update(content).digest('base64')}`).join(' ');
}

export function webhookHeaders(input: SignInput, secrets: string[]): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Vaultline-Webhooks/1.0',
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signWebhook(input, secrets),
  };
}
