import { newId, type Clock } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { EndpointDisabledError, TooManyEndpointsError, UnknownEventTypeError, WebhookEndpointNotFoundError } from './errors';
import { activeSecrets, type WebhookEndpoint } from './webhook-endpoint';
import { generateWebhookSecret } from './webhook-signature';
import { isMerchantEventType } from './webhook-payload';
import type { EndpointRepositoryPort, EndpointUrlCheck, SecretCipherPort, TransactionRunner } from './ports';

export interface EndpointManagementDeps {
  endpoints: EndpointRepositoryPort;
  transaction: TransactionRunner;
  cipher: SecretCipherPort;
  clock: Clock;
  checkUrl: EndpointUrlCheck;
  /** How long a replaced secret keeps signing after a rotation. */
  rotationGraceMs: number;
  maxEndpointsPerMerchant: number;
}

export interface CreateEndpointInput {
  url: string;
  events?: string[];
  description?: string | null;
}

export interface UpdateEndpointInput {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** The secret in clear text is returned only here and by rotateSecret; it is stored sealed. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

export interface RotatedSecret extends EndpointWithSecret {
  previousSecretExpiresAt: string | null;
}

/** Secrets kept per endpoint: the current one plus replaced ones still in their grace period. */
const MAX_SECRETS = 5;

export class EndpointManagement {
  constructor(private readonly deps: EndpointManagementDeps) {}

  async create(merchantId: string, input: CreateEndpointInput): Promise<EndpointWithSecret> {
    const events = normaliseEvents(input.events);
    await this.deps.checkUrl(input.url);
    if ((await this.deps.endpoints.count(merchantId)) >= this.deps.maxEndpointsPerMerchant) {
      throw new TooManyEndpointsError(this.deps.maxEndpointsPerMerchant);
    }
    const id = newId();
    const now = this.deps.clock.now().toISOString();
    const secret = generateWebhookSecret();
    const endpoint = await this.deps.transaction((uow) =>
      this.deps.endpoints.insert(uow, {
        id,
        merchant_id: merchantId,
        url: input.url,
        events,
        description: input.description ?? null,
        enabled: true,
        disabled_reason: null,
        secrets: [{ sealed: this.deps.cipher.seal(id, secret), created_at: now, expires_at: null }],
        created_at: now,
        updated_at: now,
      }),
    );
    return { endpoint, secret };
  }

  list(merchantId: string, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.deps.endpoints.list(merchantId, page);
  }

  async get(merchantId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.deps.endpoints.get(merchantId, id);
    if (!endpoint) throw new WebhookEndpointNotFoundError();
    return endpoint;
  }

  async update(merchantId: string, id: string, input: UpdateEndpointInput): Promise<WebhookEndpoint> {
    const current = await this.get(merchantId, id);
    if (input.url !== undefined && input.url !== current.url) await this.deps.checkUrl(input.url);
    const next: WebhookEndpoint = { ...current, updated_at: this.deps.clock.now().toISOString() };
    if (input.url !== undefined) next.url = input.url;
    if (input.events !== undefined) next.events = normaliseEvents(input.events);
    if (input.description !== undefined) next.description = input.description;
    if (input.enabled !== undefined) {
      next.enabled = input.enabled;
      next.disabled_reason = input.enabled ? null : (current.disabled_reason ?? 'manual');
    }
    return this.deps.transaction((uow) => this.deps.endpoints.update(uow, next));
  }

  async delete(merchantId: string, id: string): Promise<void> {
    const current = await this.get(merchantId, id);
    await this.deps.transaction((uow) => this.deps.endpoints.delete(uow, current));
  }

  /**
   * A new secret signs from now on; the ones it replaces keep signing (a second v1 entry in
   * webhook-signature) until the grace period ends, so receivers can switch without losing events.
   */
  async rotateSecret(merchantId: string, id: string, graceMs = this.deps.rotationGraceMs): Promise<RotatedSecret> {
    const current = await this.get(merchantId, id);
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + graceMs).toISOString();
    const secret = generateWebhookSecret();
    const previous =
      graceMs > 0
        ? activeSecrets(current, now)
            .map((s) => ({ ...s, expires_at: s.expires_at === null || s.expires_at > expiresAt ? expiresAt : s.expires_at }))
            .slice(0, MAX_SECRETS - 1)
        : [];
    const endpoint = await this.deps.transaction((uow) =>
      this.deps.endpoints.update(uow, {
        ...current,
        secrets: [{ sealed: this.deps.cipher.seal(id, secret), created_at: now.toISOString(), expires_at: null }, ...previous],
        updated_at: now.toISOString(),
      }),
    );
    return { endpoint, secret, previousSecretExpiresAt: previous.length > 0 ? expiresAt : null };
  }

  /** For replays: the endpoint must exist and be enabled. */
  async requireEnabled(merchantId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.get(merchantId, id);
    if (!endpoint.enabled) throw new EndpointDisabledError();
    return endpoint;
  }
}

function normaliseEvents(events: string[] | undefined): string[] {
  if (!events) return [];
  for (const type of events) if (!isMerchantEventType(type)) throw new UnknownEventTypeError(type);
  return [...new Set(events)];
}
