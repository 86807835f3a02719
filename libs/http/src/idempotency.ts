import { createHash, createHmac } from 'node:crypto';
import type { Request } from 'express';
import { AppError, BadRequestError } from '@vaultline/core';

/**
 * Idempotency-Key on the merchant API's POSTs (Stripe's semantics, IETF draft "The Idempotency-Key
 * HTTP Header Field"): the first request with a key runs, its answer is kept, and a repeat gets that
 * answer again instead of a second effect. Applied once, in the service that serves the route, around
 * the handlers that return their answer as a value (answers(), answer.ts); the rules live here.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** Up to 255 visible ASCII characters (Stripe's limit); anything else is refused, not truncated. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Answer headers a replay carries besides status and body; the rest describe one delivery (date, request id, timing). */
const REPLAYED_RESPONSE_HEADERS = ['content-type', 'location'];
/** Bodies are kept only when they are JSON (the merchant API's answers, problems included) or empty. */
const KEPT_CONTENT_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
/**
 * Request headers that choose what a request does, besides its route and body: a /forward names its
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
    super('idempotency_key_reused', 422, 'This Idempotency-Key was used with a different request; use a new key for a new request.', {
      field: IDEMPOTENCY_KEY_HEADER,
    });
  }
}

/**
 * The first request with this key finished, but its answer was not kept (not JSON, or larger than the
 * limit): it is not run a second time, and its answer cannot be replayed.
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

/**
 * A route's name: its method and pattern as the router declares it (`POST /payments/:payment_id/refunds`),
 * never the path as spelled. The router takes `/payments/one-off`, `/payments/one-off/` and
 * `/payments/ONE-OFF` for one route; one key on any of them is one request.
 */
export function routeNameOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern !== 'string') throw new Error('routeNameOf is called in a route handler only');
  return `${req.method} ${req.baseUrl}${pattern}`;
}

/** The route with the values of its parameters as the router parsed them (`POST /payments/0190…/capture`): one resource's route, whatever the spelling. */
export function requestRouteOf(req: Request): string {
  return routeNameOf(req).replace(/:(\w+)/g, (_match, name: string) => String(req.params[name] ?? ''));
}

/** What an idempotent request is, for its key's scope and its fingerprint. */
export interface IdempotentRequest {
  merchantId: string;
  /** The mode of the API key that sent it: a merchant's test and live keys never share a key's record. */
  mode: 'test' | 'live';
  /** The route's name (routeNameOf): the scope is merchant + mode + route + key. */
  route: string;
  /** The route's parameters as parsed, and the query string as sent: part of the request, not of the scope. */
  params: Record<string, string>;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body's exact bytes, as read by the parser. */
  body: Uint8Array | null;
}

/** Where the key's record lives: one merchant's key in one mode on one route, hashed so any key fits. */
export function scopeOf(request: IdempotentRequest, key: string): string {
  return `idempotency:${request.merchantId}:${request.mode}:${createHash('sha256')
    .update(JSON.stringify([request.route, key]))
    .digest('hex')}`;
}

/**
 * What makes two requests the same: route, parameters, query, the deciding headers and the body's bytes,
 * as an HMAC with the server's fingerprint key. Never a plain hash: the body of POST /tokens holds a card
 * number and its security code, and an unkeyed hash of a few thousand likely card numbers is a lookup
 * table away (PCI DSS 3.5.1 asks for a keyed cryptographic hash).
 */
export function fingerprintOf(request: IdempotentRequest, fingerprintKey: Uint8Array): string {
  const hmac = createHmac('sha256', fingerprintKey);
  const headers = FINGERPRINTED_HEADERS.map((name) => [name, request.headers[name] ?? null]);
  const params = Object.keys(request.params)
    .sort()
    .map((name) => [name, request.params[name]]);
  hmac.update(JSON.stringify([request.route, params, request.query, headers]));
  hmac.update('\n');
  if (request.body) hmac.update(request.body);
  return hmac.digest('base64url');
}

/** An answer as it leaves: status, the headers that describe its body, the body's bytes. */
export interface RenderedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface KeptResponse {
  status: number;
  headers: Record<string, string>;
  /** base64 of the exact bytes; null when the answer was not kept. */
  body: string | null;
}

type IdempotencyRecord = { state: 'in_progress'; fingerprint: string } | { state: 'done'; fingerprint: string; response: KeptResponse };

/**
 * What happens to the key after the answer:
 * - 503 means "nothing was done, retry" everywhere in the merchant API: the key is released so the
 *   retry runs;
 * - every other answer, errors included, is kept for the retention time and replayed.
 */
export function releasesKey(status: number): boolean {
  return status === 503;
}

/**
 * The kept form of an answer: its body only when JSON (problems included) or empty, and within the
 * limit. The merchant API never answers a card number (tokens show the masked number; the forwarder
 * masks every Luhn-valid run in a destination's answer), so a kept body holds none either.
 */
export function keptResponseOf(answer: RenderedAnswer, limitBytes: number): KeptResponse {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_RESPONSE_HEADERS) {
    const value = answer.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  const keepBody = answer.body.length <= limitBytes && (answer.body.length === 0 || KEPT_CONTENT_TYPE.test(headers['content-type'] ?? ''));
  return { status: answer.status, headers, body: keepBody ? answer.body.toString('base64') : null };
}

/** The TTL store's part the records need (libs/ttl's TtlStore: Redis, or in-process). */
export interface IdempotencyRecordStore {
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface IdempotencyPorts {
  store: IdempotencyRecordStore;
  /** How long a finished request's answer is kept (IDEMPOTENCY_KEY_TTL, 24 h). */
  retentionMs: number;
  /**
   * How long an in-progress claim lives without being renewed: the request that holds it renews it while it
   * runs, so it outlives a slow request, and a process that died mid-request frees the key within a lease.
   */
  leaseMs: number;
  /** Answers larger than this are sent but not kept (a repeat answers idempotent_response_not_kept). */
  keptResponseLimitBytes: number;
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
  /** Extends a claim whose request still runs by another lease. */
  renew(scope: string, fingerprint: string): Promise<void>;
  /** After a claimed request answered: keeps its answer, or releases the key (503). */
  finish(scope: string, fingerprint: string, answer: RenderedAnswer): Promise<void>;
}

export function idempotentRequests({ store, retentionMs, leaseMs, keptResponseLimitBytes }: IdempotencyPorts): IdempotentRequests {
  const write = (record: IdempotencyRecord) => JSON.stringify(record);
  return {
    async begin(scope, fingerprint) {
      const claim = write({ state: 'in_progress', fingerprint });
      for (let attempt = 0; attempt < 2; attempt++) {
        if (await store.setIfAbsent(scope, claim, leaseMs)) return { kind: 'run' };
        const stored = await store.get(scope);
        if (stored !== null) return answerTo(JSON.parse(stored) as IdempotencyRecord, fingerprint);
        // Released or lapsed between the claim and the read: claim once more.
      }
      throw new IdempotencyKeyInUse();
    },
    async renew(scope, fingerprint) {
      await store.set(scope, write({ state: 'in_progress', fingerprint }), leaseMs);
    },
    async finish(scope, fingerprint, answer) {
      if (releasesKey(answer.status)) return store.delete(scope);
      await store.set(scope, write({ state: 'done', fingerprint, response: keptResponseOf(answer, keptResponseLimitBytes) }), retentionMs);
    },
  };
}

/** A repeat of a claimed key: the same request gets the kept answer; another request is refused. */
function answerTo(record: IdempotencyRecord, fingerprint: string): Begun {
  if (record.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
  if (record.state === 'in_progress') throw new IdempotencyKeyInUse();
  if (record.response.body === null) throw new IdempotentResponseNotKept(record.response.status);
  return { kind: 'replay', response: { ...record.response, body: Buffer.from(record.response.body, 'base64') } };
}
