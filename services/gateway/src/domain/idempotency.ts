import { createHash } from 'node:crypto';
import { AppError, BadRequestError } from '@vaultline/core';
import type { ApiKeyMode } from '@vaultline/auth';
import type { TtlStore } from '@vaultline/ttl';

/**
 * Idempotency-Key on the merchant API's POSTs (Stripe's semantics, IETF draft "The Idempotency-Key
 * HTTP Header Field"): the first request with a key runs, its response is kept, and a repeat gets
 * that response again instead of a second effect. The rules live here; the express glue (reading the
 * body, capturing and replaying responses) in http/idempotency.middleware.ts.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** Up to 255 visible ASCII characters (Stripe's limit); anything else is refused, not truncated. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Response headers a replay carries besides status and body; the rest describe one delivery (date, request id, timing). */
const REPLAYED_RESPONSE_HEADERS = ['content-type', 'location'];
/** Bodies are kept only when they are JSON (the merchant API's answers, problems included) or empty. */
const KEPT_CONTENT_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
/**
 * Request headers that choose what a request does, besides its path and body: a /forward names its
 * token and destination in headers. Credentials, request ids and trace headers are left out — a
 * retry may carry fresh ones and is still the same request.
 */
const FINGERPRINTED_HEADERS = ['content-type', 'x-service-token', 'x-destination-url'];

export class InvalidIdempotencyKey extends BadRequestError {
  constructor() {
    super('Idempotency-Key must be 1 to 255 visible ASCII characters.', 'invalid_idempotency_key', { field: IDEMPOTENCY_KEY_HEADER });
  }
}

/** The first request with this key is still running: retry later with the same key. */
export class IdempotencyKeyInUse extends AppError {
  constructor() {
    super('idempotency_key_in_use', 409, 'A request with this Idempotency-Key is still being processed; retry later.', { field: IDEMPOTENCY_KEY_HEADER }, true);
  }
}

export class IdempotencyKeyReused extends AppError {
  constructor() {
    super('idempotency_key_reused', 422, 'This Idempotency-Key was used with a different request; use a new key for a new request.', { field: IDEMPOTENCY_KEY_HEADER });
  }
}

/**
 * The first request with this key finished, but its response was not kept (not JSON, larger than the
 * limit, or cut off): it is not run a second time, and its answer cannot be replayed.
 */
export class IdempotentResponseNotKept extends AppError {
  constructor(originalStatus: number) {
    super(
      'idempotent_response_not_kept',
      409,
      `The request with this Idempotency-Key already ran (status ${originalStatus}); its response was not kept, so it cannot be replayed, and it is not run again.`,
      { field: IDEMPOTENCY_KEY_HEADER, original_status: originalStatus },
    );
  }
}

/** The merchant's key, null when the header is absent; refuses a malformed one. */
export function parseIdempotencyKey(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!KEY_PATTERN.test(value)) throw new InvalidIdempotencyKey();
  return value;
}

export interface IdempotentRequest {
  merchantId: string;
  /** The mode of the API key that sent it: a merchant's test and live keys never share a key's record. */
  mode: ApiKeyMode;
  method: string;
  /** The path without the query: the scope is merchant + mode + method + route + key. */
  path: string;
  /** Path and query as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array | null;
}

/** Where the key's record lives: one merchant's key in one mode on one method and route, hashed so any key and path fit. */
export function scopeOf(request: IdempotentRequest, key: string): string {
  return `idempotency:${request.merchantId}:${request.mode}:${sha256(JSON.stringify([request.method, request.path, key]))}`;
}

/** What makes two requests the same: method, path and query, the deciding headers and the raw body bytes. */
export function fingerprintOf(request: IdempotentRequest): string {
  const hash = createHash('sha256');
  const headers = FINGERPRINTED_HEADERS.map((name) => [name, request.headers[name] ?? null]);
  hash.update(JSON.stringify([request.method, request.url, headers]));
  hash.update('\n');
  if (request.body) hash.update(request.body);
  return hash.digest('hex');
}

/** A finished response as the gateway saw it leave. */
export interface CapturedResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
  /** False when the body went over the capture limit or the response was cut off. */
  complete: boolean;
}

export interface KeptResponse {
  status: number;
  headers: Record<string, string>;
  /** base64 of the exact bytes; null when the response was not kept. */
  body: string | null;
}

type IdempotencyRecord = { state: 'in_progress'; fingerprint: string } | { state: 'done'; fingerprint: string; response: KeptResponse };

/**
 * What happens to the key after the response:
 * - 503 means "nothing was done, retry" everywhere in the merchant API: the key is released so the
 *   retry runs;
 * - every other answer, errors included, is kept for the retention time and replayed.
 */
export function releasesKey(status: number): boolean {
  return status === 503;
}

/**
 * When the gateway got no answer at all: a service that could not be reached (503) never started,
 * so the key is released; after an upstream timeout (504) the service may still be working, so the
 * in-progress claim stays until its lease ends and a retry meanwhile gets 409.
 */
export function releasesKeyAfterTransportFailure(status: number): boolean {
  return status !== 504;
}

/**
 * The kept form of a response: its body only when complete and JSON (problems included) or empty.
 * The merchant API never answers a card number (tokens show the masked number; the forwarder masks
 * every Luhn-valid run in a destination's answer), so a kept body holds none either.
 */
export function keptResponseOf(response: CapturedResponse): KeptResponse {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_RESPONSE_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  const keepBody = response.complete && (response.body.length === 0 || KEPT_CONTENT_TYPE.test(headers['content-type'] ?? ''));
  return { status: response.status, headers, body: keepBody ? response.body.toString('base64') : null };
}

export interface IdempotencyPorts {
  ttl: Pick<TtlStore, 'setIfAbsent' | 'get' | 'set' | 'delete'>;
  /** How long a finished request's response is kept (IDEMPOTENCY_KEY_TTL, 24 h). */
  retentionMs: number;
  /**
   * How long an in-progress claim lives without an answer: longer than the upstream timeout, so it
   * outlives a request that still runs, and short, so a gateway that died mid-request does not pin the key.
   */
  leaseMs: number;
}

export interface Replay {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type Begun = { kind: 'run' } | { kind: 'replay'; response: Replay };

export interface IdempotentRequests {
  /** Claims the key for this request (run it), or answers what the first request with the key got. */
  begin(scope: string, fingerprint: string): Promise<Begun>;
  /** After a claimed request answered: keeps its response, or releases the key (503). */
  finish(scope: string, fingerprint: string, response: CapturedResponse): Promise<void>;
  /** After a claimed request got no answer (the gateway's own 503 or 504). */
  abandon(scope: string, status: number): Promise<void>;
}

export function idempotentRequests({ ttl, retentionMs, leaseMs }: IdempotencyPorts): IdempotentRequests {
  const write = (record: IdempotencyRecord) => JSON.stringify(record);
  return {
    async begin(scope, fingerprint) {
      const claim = write({ state: 'in_progress', fingerprint });
      for (let attempt = 0; attempt < 2; attempt++) {
        if (await ttl.setIfAbsent(scope, claim, leaseMs)) return { kind: 'run' };
        const stored = await ttl.get(scope);
        if (stored !== null) return answerTo(JSON.parse(stored) as IdempotencyRecord, fingerprint);
        // Released or lapsed between the claim and the read: claim once more.
      }
      throw new IdempotencyKeyInUse();
    },
    async finish(scope, fingerprint, response) {
      if (releasesKey(response.status)) return ttl.delete(scope);
      await ttl.set(scope, write({ state: 'done', fingerprint, response: keptResponseOf(response) }), retentionMs);
    },
    async abandon(scope, status) {
      if (releasesKeyAfterTransportFailure(status)) await ttl.delete(scope);
    },
  };
}

/** A repeat of a claimed key: the same request gets the kept response; another request is refused. */
function answerTo(record: IdempotencyRecord, fingerprint: string): Begun {
  if (record.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
  if (record.state === 'in_progress') throw new IdempotencyKeyInUse();
  if (record.response.body === null) throw new IdempotentResponseNotKept(record.response.status);
  return { kind: 'replay', response: { ...record.response, body: Buffer.from(record.response.body, 'base64') } };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
