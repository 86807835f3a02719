import { newId, type Clock, type Scope } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { TooManyEndpointsError, UnknownEventTypeError, WebhookEndpointNotFoundError } from './errors';
import { activeSecrets, endpointSecretContext, type WebhookEndpoint } from './webhook-endpoint';
import { generateWebhookSecret } from './webhook-signature';
import { isMerchantEventType } from './webhook-payload';
import type { EndpointRepository, EndpointUrlCheck, SecretSealer, TransactionRunner } from './ports';

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

/** The secret in clear text is returned only here and by rotateEndpointSecret; it is stored sealed. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

export interface RotatedSecret extends EndpointWithSecret {
  previousSecretExpiresAt: string | null;
}

/** Secrets kept per endpoint: the current one plus replaced ones still in their grace period. */
const MAX_SECRETS = 5;

/** POST /webhook-endpoints. */
/** The endpoint belongs to the caller's scope: it receives only that mode's events. */
export type CreateEndpoint = (scope: Scope, input: CreateEndpointInput) => Promise<EndpointWithSecret>;

export interface CreateEndpointPorts {
  endpoints: Pick<EndpointRepository, 'count' | 'insert'>;
  transaction: TransactionRunner;
  sealer: SecretSealer;
  clock: Clock;
  checkUrl: EndpointUrlCheck;
  maxEndpointsPerMerchant: number;
}

export function createEndpoint({ endpoints, transaction, sealer, clock, checkUrl, maxEndpointsPerMerchant }: CreateEndpointPorts): CreateEndpoint {
  return async (scope, input) => {
    const events = normaliseEvents(input.events);
    await checkUrl(input.url, scope.mode);
    if ((await endpoints.count(scope)) >= maxEndpointsPerMerchant) throw new TooManyEndpointsError(maxEndpointsPerMerchant);
    const id = newId();
    const now = clock.now().toISOString();
    const secret = generateWebhookSecret();
    const endpoint = await transaction((uow) =>
      endpoints.insert(uow, {
        id,
        merchant_id: scope.merchantId,
        mode: scope.mode,
        url: input.url,
        events,
        description: input.description ?? null,
        enabled: true,
        disabled_reason: null,
        secrets: [{ sealed: sealer.seal(secret, endpointSecretContext(id)), created_at: now, expires_at: null }],
        created_at: now,
        updated_at: now,
      }),
    );
    return { endpoint, secret };
  };
}

/** GET /webhook-endpoints. */
export type ListEndpoints = (scope: Scope, page: PageRequest) => Promise<Page<WebhookEndpoint>>;

export function listEndpoints({ endpoints }: { endpoints: Pick<EndpointRepository, 'list'> }): ListEndpoints {
  return (scope, page) => endpoints.list(scope, page);
}

/** GET /webhook-endpoints/{id}. */
export type GetEndpoint = (scope: Scope, id: string) => Promise<WebhookEndpoint>;

export function getEndpoint({ endpoints }: { endpoints: Pick<EndpointRepository, 'get'> }): GetEndpoint {
  return (scope, id) => requireEndpoint(endpoints, scope, id);
}

/** PATCH /webhook-endpoints/{id}. */
export type UpdateEndpoint = (scope: Scope, id: string, input: UpdateEndpointInput) => Promise<WebhookEndpoint>;

export interface UpdateEndpointPorts {
  endpoints: Pick<EndpointRepository, 'get' | 'update'>;
  transaction: TransactionRunner;
  clock: Clock;
  checkUrl: EndpointUrlCheck;
}

export function updateEndpoint({ endpoints, transaction, clock, checkUrl }: UpdateEndpointPorts): UpdateEndpoint {
  return async (scope, id, input) => {
    const current = await requireEndpoint(endpoints, scope, id);
    if (input.url !== undefined && input.url !== current.url) await checkUrl(input.url, current.mode);
    const next: WebhookEndpoint = { ...current, updated_at: clock.now().toISOString() };
    if (input.url !== undefined) next.url = input.url;
    if (input.events !== undefined) next.events = normaliseEvents(input.events);
    if (input.description !== undefined) next.description = input.description;
    if (input.enabled !== undefined) {
      next.enabled = input.enabled;
      next.disabled_reason = input.enabled ? null : (current.disabled_reason ?? 'manual');
    }
    return transaction((uow) => endpoints.update(uow, next));
  };
}

/** DELETE /webhook-endpoints/{id}. */
export type DeleteEndpoint = (scope: Scope, id: string) => Promise<void>;

export function deleteEndpoint({
  endpoints,
  transaction,
}: {
  endpoints: Pick<EndpointRepository, 'get' | 'delete'>;
  transaction: TransactionRunner;
}): DeleteEndpoint {
  return async (scope, id) => {
    const current = await requireEndpoint(endpoints, scope, id);
    await transaction((uow) => endpoints.delete(uow, current));
  };
}

/**
 * A new secret signs from now on; the ones it replaces keep signing (a second v1 entry in
 * webhook-signature) until the grace period ends, so receivers can switch without losing events.
 * `graceMs` defaults to the configured rotation grace.
 */
export type RotateEndpointSecret = (scope: Scope, id: string, graceMs?: number) => Promise<RotatedSecret>;

export interface RotateEndpointSecretPorts {
  endpoints: Pick<EndpointRepository, 'get' | 'update'>;
  transaction: TransactionRunner;
  sealer: SecretSealer;
  clock: Clock;
  /** How long a replaced secret keeps signing after a rotation. */
  rotationGraceMs: number;
}

export function rotateEndpointSecret({ endpoints, transaction, sealer, clock, rotationGraceMs }: RotateEndpointSecretPorts): RotateEndpointSecret {
  return async (scope, id, graceMs = rotationGraceMs) => {
    const current = await requireEndpoint(endpoints, scope, id);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + graceMs).toISOString();
    const secret = generateWebhookSecret();
    const previous =
      graceMs > 0
        ? activeSecrets(current, now)
            .map((s) => ({ ...s, expires_at: s.expires_at === null || s.expires_at > expiresAt ? expiresAt : s.expires_at }))
            .slice(0, MAX_SECRETS - 1)
        : [];
    const endpoint = await transaction((uow) =>
      endpoints.update(uow, {
        ...current,
        secrets: [{ sealed: sealer.seal(secret, endpointSecretContext(id)), created_at: now.toISOString(), expires_at: null }, ...previous],
        updated_at: now.toISOString(),
      }),
    );
    return { endpoint, secret, previousSecretExpiresAt: previous.length > 0 ? expiresAt : null };
  };
}

/** The scope's endpoint, or WebhookEndpointNotFoundError (another merchant's or the other mode's is not found either). */
export async function requireEndpoint(endpoints: Pick<EndpointRepository, 'get'>, scope: Scope, id: string): Promise<WebhookEndpoint> {
  const endpoint = await endpoints.get(scope, id);
  if (!endpoint) throw new WebhookEndpointNotFoundError();
  return endpoint;
}

function normaliseEvents(events: string[] | undefined): string[] {
  if (!events) return [];
  for (const type of events) if (!isMerchantEventType(type)) throw new UnknownEventTypeError(type);
  return [...new Set(events)];
}
