import { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { isAppError } from '@vaultline/core';
import type { ApiKeyMode } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { requestIdOf } from '@vaultline/http';
import {
  IDEMPOTENCY_KEY_HEADER,
  REPLAYED_HEADER,
  fingerprintOf,
  parseIdempotencyKey,
  scopeOf,
  type CapturedResponse,
  type IdempotentRequests,
  type Replay,
} from '../domain/idempotency';
import { readRawBody } from './read-body';

/**
 * Sends the request on to its service. Its body is unread, as any upstream expects: when the guard
 * has read it (to hash it), `req` is a copy whose body reads the same bytes again.
 */
export type Dispatch = (req: Request) => Promise<void>;

/** Whose Idempotency-Keys a request uses: the merchant and the mode of its API key. */
export interface KeyOwner {
  merchantId: string;
  mode: ApiKeyMode;
}

/** Runs `dispatch` at most once per merchant, mode, method, route and Idempotency-Key; `owner` null: no idempotency (public routes). */
export type IdempotencyGuard = (req: Request, res: Response, owner: KeyOwner | null, dispatch: Dispatch) => Promise<void>;

export interface IdempotencyGuardDeps {
  requests: IdempotentRequests;
  logger: Logger;
  /** The edge's request body limit (the body is read here to be hashed). */
  bodyLimitBytes: number;
  /** Responses larger than this are passed on but not kept (a repeat answers idempotent_response_not_kept). */
  keptResponseLimitBytes: number;
}

/**
 * POSTs with an Idempotency-Key: the body is read (to hash it; request bodies are never stored), the
 * key claimed, the request dispatched by whichever transport serves the service, and the response
 * captured on its way out — whatever writes it (a proxied stream, a relayed answer, a service's
 * express app in this process) — and kept before its last byte leaves, so a retry that follows the
 * answer finds it. Other methods, and POSTs without the header, go through untouched.
 */
export function idempotencyGuard(deps: IdempotencyGuardDeps): IdempotencyGuard {
  return async (req, res, owner, dispatch) => {
    const key = owner !== null && req.method === 'POST' ? parseIdempotencyKey(req.get(IDEMPOTENCY_KEY_HEADER)) : null;
    if (owner === null || key === null) return dispatch(req);

    const body = await readRawBody(req, deps.bodyLimitBytes);
    const request = { merchantId: owner.merchantId, mode: owner.mode, method: req.method, path: req.path, url: req.originalUrl, headers: req.headers, body };
    const scope = scopeOf(request, key);
    const fingerprint = fingerprintOf(request);
    const begun = await deps.requests.begin(scope, fingerprint);
    if (begun.kind === 'replay') return replay(res, begun.response);

    const keepResponse = (response: CapturedResponse) =>
      deps.requests.finish(scope, fingerprint, response).catch((error: unknown) => {
        // The answer still goes out; the key stays claimed until its lease ends, then a retry runs.
        deps.logger.warn({ err: error, request_id: requestIdOf(req) }, 'idempotent response could not be kept');
      });
    const capture = captureResponse(res, deps.keptResponseLimitBytes, keepResponse);
    try {
      await dispatch(body ? requestWithBody(req, body) : req);
    } catch (error) {
      // No answer from the service: the gateway's own 503/504 is not the request's answer.
      capture.stop();
      await deps.requests.abandon(scope, isAppError(error) ? error.status : 500).catch((failure: unknown) => {
        deps.logger.warn({ err: failure, request_id: requestIdOf(req) }, 'idempotency claim could not be released: it lapses with its lease');
      });
      throw error;
    }
  };
}

function replay(res: Response, response: Replay): void {
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.setHeader(REPLAYED_HEADER, 'true');
  res.end(response.body);
}

type Write = (chunk: unknown, encodingOrCallback?: unknown, callback?: unknown) => boolean;
type End = (chunk?: unknown, encodingOrCallback?: unknown, callback?: unknown) => Response;

/**
 * Wraps res.write and res.end (own properties: they survive the prototype swap of an express app the
 * response is handed to). Up to `limitBytes` the body is held back and leaves with the end, after
 * `onEnd` has kept it: a client cannot see a whole answer whose record is not stored yet and retry
 * into an in-progress claim. A larger body is let through from there on, and not kept. A response cut
 * off after the service began to answer (the connection or the upstream broke) is reported
 * incomplete; one whose client left before any answer keeps waiting for the service's end, which a
 * service in this process still calls.
 */
function captureResponse(res: Response, limitBytes: number, onEnd: (response: CapturedResponse) => Promise<void>): { stop(): void } {
  const held: Buffer[] = [];
  let size = 0;
  let overflow = false;
  let answered = false;
  let active = true;
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as End;
  /** Holds the chunk; false once the body is over the limit, after letting out what was held. */
  const hold = (chunk: unknown, encoding: unknown): boolean => {
    answered = true;
    if (overflow) return false;
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return true;
    const bytes = Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk) : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    size += bytes.length;
    if (size <= limitBytes) {
      // A copy: a writer may reuse its buffer once write returns.
      held.push(bytes);
      return true;
    }
    overflow = true;
    if (held.length > 0) write(Buffer.concat(held.splice(0)));
    return false;
  };
  const captured = (complete: boolean): CapturedResponse => ({ status: res.statusCode, headers: res.getHeaders(), body: Buffer.concat(held), complete: complete && !overflow });

  const own = res as unknown as { write: Write; end: End };
  own.write = (chunk, encodingOrCallback, callback) => {
    if (!active || !hold(chunk, encodingOrCallback)) return write(chunk, encodingOrCallback, callback);
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  };
  own.end = (chunk, encodingOrCallback, callback) => {
    if (!active) return end(chunk, encodingOrCallback, callback);
    active = false;
    const heldBack = hold(chunk, encodingOrCallback);
    const done = [chunk, encodingOrCallback, callback].find((argument) => typeof argument === 'function');
    void onEnd(captured(true)).finally(() => (heldBack ? end(Buffer.concat(held), done) : end(chunk, encodingOrCallback, callback)));
    return res;
  };
  res.once('close', () => {
    if (!active || !answered) return;
    active = false;
    void onEnd(captured(false));
  });
  return {
    stop: () => {
      active = false;
    },
  };
}

/**
 * The request again, its body readable once more with the bytes read here: whatever serves the route
 * reads the body from the request itself (a service in this process with its own parser). Same
 * socket, head and express prototype; the length is the body's (it may have come chunked).
 */
function requestWithBody(req: Request, body: Buffer): Request {
  const copy = new IncomingMessage(req.socket) as Request;
  Object.setPrototypeOf(copy, Object.getPrototypeOf(req) as object);
  const headers = { ...req.headers, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  Object.assign(copy, {
    method: req.method,
    url: req.url,
    originalUrl: req.originalUrl,
    httpVersion: req.httpVersion,
    httpVersionMajor: req.httpVersionMajor,
    httpVersionMinor: req.httpVersionMinor,
    headers,
    rawHeaders: Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, String(value)])),
    res: req.res,
  });
  copy.push(body);
  copy.push(null);
  copy.complete = true;
  return copy;
}
