import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isAppError, UnavailableError } from '@vaultline/core';
import type { Logger } from '@vaultline/logger';
import { authOf, requestIdOf } from './request-context';
import { rawBodyOf } from './body-parsing';
import {
  IDEMPOTENCY_KEY_HEADER,
  REPLAYED_HEADER,
  fingerprintOf,
  idempotentRequests,
  parseIdempotencyKey,
  routeNameOf,
  scopeOf,
  type IdempotencyRecordStore,
  type RenderedAnswer,
} from './idempotency';

/** What a route answers, as a value: a status, a JSON body (or the exact bytes, with their Content-Type), headers. */
export interface Answer {
  status: number;
  /** A JSON value, or a Buffer sent as it is (its type in `headers`); absent: no body. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** The answer `status` with `body` (JSON, or a Buffer) and `headers`. */
export function reply(status: number, body?: unknown, headers?: Record<string, string>): Answer {
  return { status, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer's bytes and headers, as they leave (and as a kept answer is replayed). */
export function renderAnswer(answer: Answer): RenderedAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  if (answer.body === undefined) return { status: answer.status, headers, body: Buffer.alloc(0) };
  if (Buffer.isBuffer(answer.body)) return { status: answer.status, headers, body: answer.body };
  headers['content-type'] ??= JSON_TYPE;
  return { status: answer.status, headers, body: Buffer.from(JSON.stringify(answer.body)) };
}

function send(res: Response, answer: RenderedAnswer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('Content-Length', String(answer.body.length));
  res.end(answer.body);
}

/** How a service's answers are kept for Idempotency-Key (serviceHttp builds it from ServiceHttpOptions.idempotency). */
export interface IdempotencySettings {
  /** The TTL store: Redis in the local and production profiles, in-process in the embedded one. */
  store: IdempotencyRecordStore;
  /** The server key of the fingerprints' HMAC (IDEMPOTENCY_FINGERPRINT_KEY, libs/config loadKey). */
  fingerprintKey: Uint8Array;
  /** How long an answer is kept and replayed (IDEMPOTENCY_KEY_TTL). */
  retentionMs: number;
  /** How long a claim lives unless its running request renews it (default 15 s, renewed every third of it): a process that died mid-request frees the key then. */
  leaseMs?: number;
}

/** Runs a route's handler under the service's Idempotency-Key rules, and gives the answer to send. */
export type IdempotencyLayer = (req: Request, res: Response, handler: () => Promise<Answer>) => Promise<RenderedAnswer>;

const DEFAULT_LEASE_MS = 15_000;
const KEPT_ANSWER_LIMIT_BYTES = 1024 * 1024;

/**
 * The Idempotency-Key layer of one service: a merchant's POST with the header (checked: 400
 * invalid_idempotency_key) claims the key for its merchant, mode and route (its name, not its spelling),
 * runs once, and its answer — errors included, as `problemOf` renders them — is kept before it leaves;
 * a repeat with the same request gets it again with Idempotent-Replayed, another request under the key
 * 422 idempotency_key_reused, a repeat while the first runs 409 idempotency_key_in_use. A 503 releases
 * the key. Other methods, public and internal calls (no key mode) and POSTs without the header run as they are.
 */
export function idempotencyLayer(
  settings: IdempotencySettings,
  problemOf: (error: unknown, res: Response) => RenderedAnswer,
  logger: Logger,
): IdempotencyLayer {
  const leaseMs = settings.leaseMs ?? DEFAULT_LEASE_MS;
  const requests = idempotentRequests({ store: settings.store, retentionMs: settings.retentionMs, leaseMs, keptResponseLimitBytes: KEPT_ANSWER_LIMIT_BYTES });
  return async (req, res, handler) => {
    const caller = authOf(req);
    const key = req.method === 'POST' && caller.mode !== null ? parseIdempotencyKey(req.get(IDEMPOTENCY_KEY_HEADER)) : null;
    if (key === null || caller.mode === null) return renderAnswer(await handler());

    const request = {
      merchantId: caller.merchantId,
      mode: caller.mode,
      route: routeNameOf(req),
      params: req.params as Record<string, string>,
      query: queryStringOf(req.originalUrl),
      headers: req.headers,
      body: rawBodyOf(req) ?? (Buffer.isBuffer(req.body) ? req.body : null),
    };
    const scope = scopeOf(request, key);
    const fingerprint = fingerprintOf(request, settings.fingerprintKey);
    const begun = await requests.begin(scope, fingerprint).catch((error: unknown) => {
      // The records cannot be read: refusing (retry) is safer than running unprotected.
      if (isAppError(error)) throw error;
      logger.warn({ err: error, request_id: requestIdOf(req) }, 'idempotency records unavailable');
      throw new UnavailableError('Idempotency-Key cannot be checked right now; retry with the same key.');
    });
    if (begun.kind === 'replay') return { ...begun.response, headers: { ...begun.response.headers, [REPLAYED_HEADER.toLowerCase()]: 'true' } };

    // A slow request keeps its claim: renewed while it runs, so a retry meanwhile answers 409, never runs it twice.
    let renewal: Promise<void> = Promise.resolve();
    const renewing = setInterval(() => {
      renewal = requests
        .renew(scope, fingerprint)
        .catch((error: unknown) => logger.warn({ err: error, request_id: requestIdOf(req) }, 'idempotency claim could not be renewed'));
    }, leaseMs / 3);
    let answer: RenderedAnswer;
    let failure: { error: unknown } | null = null;
    try {
      answer = renderAnswer(await handler());
    } catch (error) {
      // The problem the error handler will send for it is the request's answer, kept like any other.
      failure = { error };
      answer = problemOf(error, res);
    } finally {
      clearInterval(renewing);
    }
    // A renewal still on its way must not land after the answer was kept.
    await renewal;
    await requests.finish(scope, fingerprint, answer).catch((error: unknown) => {
      // The answer still goes out; the key stays claimed until its lease ends, then a retry runs.
      logger.warn({ err: error, request_id: requestIdOf(req) }, 'idempotent response could not be kept');
    });
    if (failure) throw failure.error;
    return answer;
  };
}

function queryStringOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

const layers = new WeakMap<Request, IdempotencyLayer>();

/** Router middleware of a service with Idempotency-Key: the handlers wrapped by answers() find the layer here. */
export function useIdempotencyLayer(layer: IdempotencyLayer): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    layers.set(req, layer);
    next();
  };
}

/**
 * A route handler that returns its answer instead of writing it: what the service's Idempotency-Key
 * layer keeps and replays. `router.post('/tokens', scope, answers(async (req) => reply(201, view)))`.
 */
export function answers(handler: (req: Request) => Promise<Answer>): RequestHandler {
  return async (req: Request, res: Response) => {
    const layer = layers.get(req);
    send(res, layer ? await layer(req, res, () => handler(req)) : renderAnswer(await handler(req)));
  };
}
