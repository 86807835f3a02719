import { Readable } from 'node:stream';
import type { Request } from 'express';
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
import type { UpstreamResponse } from './upstream';

/** Sends the request on to its service, by whichever transport serves it, and gives the service's answer. */
export type Dispatch = () => Promise<UpstreamResponse>;

/** Whose Idempotency-Keys a request uses: the merchant and the mode of its API key. */
export interface KeyOwner {
  merchantId: string;
  mode: ApiKeyMode;
}

/**
 * Runs `dispatch` at most once per merchant, mode, method, route and Idempotency-Key, and gives the
 * answer to send: the service's, or the one kept for an earlier request with the key. `owner` null: no
 * idempotency (public routes).
 */
export type IdempotencyGuard = (req: Request, body: Buffer | null, owner: KeyOwner | null, dispatch: Dispatch) => Promise<UpstreamResponse>;

export interface IdempotencyGuardDeps {
  requests: IdempotentRequests;
  logger: Logger;
  /** Responses larger than this are passed on but not kept (a repeat answers idempotent_response_not_kept). */
  keptResponseLimitBytes: number;
}

/**
 * POSTs with an Idempotency-Key: the body (read by the edge; request bodies are never stored) is
 * hashed, the key claimed, the request dispatched, and the service's answer read and kept before it is
 * handed on, so a retry that follows the answer finds it. Other methods, and POSTs without the header,
 * go through untouched.
 */
export function idempotencyGuard(deps: IdempotencyGuardDeps): IdempotencyGuard {
  return async (req, body, owner, dispatch) => {
    const key = owner !== null && req.method === 'POST' ? parseIdempotencyKey(req.get(IDEMPOTENCY_KEY_HEADER)) : null;
    if (owner === null || key === null) return dispatch();

    const request = { merchantId: owner.merchantId, mode: owner.mode, method: req.method, path: req.path, url: req.originalUrl, headers: req.headers, body };
    const scope = scopeOf(request, key);
    const fingerprint = fingerprintOf(request);
    const begun = await deps.requests.begin(scope, fingerprint);
    if (begun.kind === 'replay') return replay(begun.response);

    let response: UpstreamResponse;
    try {
      response = await dispatch();
    } catch (error) {
      // No answer from the service: the gateway's own 503/504 is not the request's answer.
      await deps.requests.abandon(scope, isAppError(error) ? error.status : 500).catch((failure: unknown) => {
        deps.logger.warn({ err: failure, request_id: requestIdOf(req) }, 'idempotency claim could not be released: it lapses with its lease');
      });
      throw error;
    }
    const read = await readUpTo(response.body, deps.keptResponseLimitBytes);
    const captured: CapturedResponse = { status: response.status, headers: response.headers, body: Buffer.concat(read.held), complete: read.complete };
    await deps.requests.finish(scope, fingerprint, captured).catch((error: unknown) => {
      // The answer still goes out; the key stays claimed until its lease ends, then a retry runs.
      deps.logger.warn({ err: error, request_id: requestIdOf(req) }, 'idempotent response could not be kept');
    });
    return { ...response, body: Readable.from(theWholeBody(read)) };
  };
}

function replay(response: Replay): UpstreamResponse {
  return { status: response.status, headers: { ...response.headers, [REPLAYED_HEADER.toLowerCase()]: 'true' }, body: Readable.from([response.body]) };
}

/** The body as far as it was read: all of it (complete), or the first chunks past the limit and the rest still to read, or up to a failure. */
interface ReadBody {
  held: Buffer[];
  complete: boolean;
  rest: AsyncIterator<Buffer> | null;
  failure: unknown;
}

/**
 * Reads a body up to `limitBytes`: a body within it is kept whole; a larger one, or one cut off (the
 * service or the connection broke), is reported incomplete and not kept.
 */
async function readUpTo(body: Readable, limitBytes: number): Promise<ReadBody> {
  const chunks = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) return { held, complete: true, rest: null, failure: null };
      held.push(next.value);
      size += next.value.length;
      if (size > limitBytes) return { held, complete: false, rest: chunks, failure: null };
    }
  } catch (failure) {
    return { held, complete: false, rest: null, failure };
  }
}

/** What was held, then what was not read yet; a body that broke breaks again here, so the merchant's connection ends too. */
async function* theWholeBody(read: ReadBody): AsyncGenerator<Buffer> {
  yield* read.held;
  if (read.rest) {
    for (let next = await read.rest.next(); !next.done; next = await read.rest.next()) yield next.value;
  }
  if (read.failure) throw read.failure;
}
