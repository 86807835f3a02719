import type { Mode } from '@vaultline/core';
import type { StoredDocument } from '@vaultline/store';

/** A signing secret as stored: sealed under the notifier key, never in clear text. */
export interface StoredEndpointSecret {
  /** "whsec_…" sealed under the notifier key with endpointSecretContext(endpoint id). */
  sealed: string;
  created_at: string;
  /** Set when a newer secret replaced it; both sign until then (rotation grace period). */
  expires_at: string | null;
}

export type EndpointDisabledReason = 'gone' | 'manual';

export interface WebhookEndpoint extends StoredDocument {
  /** The mode of the key that registered it: it receives only that mode's events. */
  mode: Mode;
  url: string;
  /** Subscribed event types; empty means every merchant-facing type. */
  events: string[];
  description: string | null;
  enabled: boolean;
  /** Why it is disabled: 'gone' after a 410 from the receiver, 'manual' after PATCH enabled=false. */
  disabled_reason: EndpointDisabledReason | null;
  /** Newest first. */
  secrets: StoredEndpointSecret[];
  created_at: string;
  updated_at: string;
}

export function isSubscribedTo(endpoint: Pick<WebhookEndpoint, 'events'>, eventType: string): boolean {
  return endpoint.events.length === 0 || endpoint.events.includes(eventType);
}

/** The secrets that sign right now: the current one and any previous one still in its grace period. */
export function activeSecrets(endpoint: Pick<WebhookEndpoint, 'secrets'>, now: Date): StoredEndpointSecret[] {
  return endpoint.secrets.filter((s) => s.expires_at === null || new Date(s.expires_at).getTime() > now.getTime());
}

/** What a sealed signing secret is bound to: it opens only for its own endpoint. */
export const endpointSecretContext = (endpointId: string): string => `webhook-endpoint:${endpointId}`;
