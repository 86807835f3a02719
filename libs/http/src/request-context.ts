import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { context, trace, type SpanContext } from '@opentelemetry/api';
import { getRPCMetadata } from '@opentelemetry/core';
import { ForbiddenError, UnauthorizedError, ValidationError, newId, type Scope } from '@vaultline/core';
import type { InternalTokenVerifier } from '@vaultline/auth';

/**
 * What a service knows of the request it serves, whoever handed it over: the gateway's policy chain in
 * the embedded profile (in this process, no token), or the transport shell of every other profile (the
 * verified internal JWT, X-Request-Id, X-Forwarded-For and the trace headers). Routes read it through
 * authOf, scopeOfRequest, clientAddressOf and requestIdOf, and never learn which transport ran them.
 */
export interface RequestContext {
  /** Who handed the request over: `gateway` for a merchant's, a public or an admin request; the calling service for an internal call. */
  issuer: string;
  merchantId: string;
  scopes: string[];
  /** The mode of the merchant's API key (test or live); null for calls that carry no merchant request. */
  mode: 'test' | 'live' | null;
  /** The id of the merchant's API key; null when the request came without one (public, admin and internal calls). */
  keyId: string | null;
  /** The client's address as the gateway worked it out (TRUST_PROXY). */
  clientAddress: string;
  /** The merchant's name, when the gateway signed it in (merchant requests); null otherwise. */
  merchantName: string | null;
  requestId: string;
  /** The trace the request belongs to: the span that handed it over; null when nothing traces. */
  trace: SpanContext | null;
}

/** Who is calling: the request context under the name the routes have always used. */
export type RequestAuth = RequestContext;

const contexts = new WeakMap<Request, RequestContext>();
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const REQUEST_ID_HEADER = 'x-request-id';
export const REQUEST_ID_ATTRIBUTE = 'vaultline.request_id';

/** The caller's request id when it is well-formed, else a fresh one (whatever the transport). */
export function acceptRequestId(given: string | undefined): string {
  return given && REQUEST_ID_PATTERN.test(given) ? given : newId();
}

/** Takes the caller's X-Request-Id when it is well-formed, else mints one; echoes it; tags the span. */
export function requestIdMiddleware(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const requestId = acceptRequestId(req.get(REQUEST_ID_HEADER));
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    tagServerSpan(REQUEST_ID_ATTRIBUTE, requestId);
    next();
  };
}

export function requestIdOf(req: Request): string {
  const given = contexts.get(req)?.requestId;
  if (given) return given;
  const id = req.res?.locals.requestId;
  return typeof id === 'string' ? id : '';
}

/** Hands a request to a service's routes with what its caller established (the embedded profile's gateway, or the transport shell). */
export function enterRequestContext(req: Request, given: RequestContext): void {
  contexts.set(req, given);
}

/** The internal JWT from `Authorization: Bearer <token>`, unverified. Throws 401 when there is none. */
export function bearerTokenOf(req: Request): string {
  const header = req.get('authorization');
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw new UnauthorizedError('An internal bearer token is required.', 'invalid_internal_token');
  return match[1];
}

/**
 * The transport shell's half of the request context: requires `Authorization: Bearer <internal JWT>`
 * addressed to this service, and makes the request context of its claims, the caller's X-Request-Id,
 * the client's address (X-Forwarded-For) and the trace. A refused token is answered generically; why it
 * was refused (InvalidInternalToken.reason) is logged at warn with the request id by the error handler,
 * as every refused access is.
 */
export function internalAuthMiddleware(verifier: InternalTokenVerifier): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const claims = verifier.verify(bearerTokenOf(req));
    // The request id is the caller's X-Request-Id (set by requestIdMiddleware), not a claim: one
    // internal token serves many requests (see InternalTokenSigner).
    contexts.set(req, {
      issuer: claims.issuer,
      merchantId: claims.merchantId,
      scopes: claims.scopes,
      mode: claims.mode ?? null,
      keyId: claims.keyId ?? null,
      merchantName: claims.merchantName ?? null,
      clientAddress: forwardedClientAddress(req),
      requestId: requestIdOf(req),
      trace: trace.getActiveSpan()?.spanContext() ?? null,
    });
    tagServerSpan('vaultline.merchant_id', claims.merchantId);
    next();
  };
}

/** The request context of an authenticated route. Throws when nobody established one (the route was not authenticated). */
export function authOf(req: Request): RequestContext {
  const given = contexts.get(req);
  if (!given) throw new UnauthorizedError('An internal bearer token is required.', 'invalid_internal_token');
  return given;
}

/**
 * The merchant and mode a merchant request acts in: the key's merchant and the key's mode, both from
 * the verified internal token. Every repository query of a merchant route takes it, so a test key never
 * reaches a live resource. A call that carries no merchant key (no mode) is refused here rather than
 * guessed into a mode.
 */
export function scopeOfRequest(req: Request): Scope {
  const auth = authOf(req);
  if (auth.mode === null) throw new ForbiddenError('This operation acts for a merchant key: the internal token must carry its mode.', 'mode_required');
  return { merchantId: auth.merchantId, mode: auth.mode };
}

export const TEST_CLOCK_HEADER = 'x-test-now';

/**
 * The test clock of a merchant request: `X-Test-Now` (ISO 8601 time) sent with a test-mode key makes
 * that time the request's effective time. The gateway refuses the header with a live key before
 * anything else (422 test_clock_not_allowed), so a service sees it only in test mode; it is ignored
 * here for any other caller all the same. Null when absent.
 */
export function testClockOf(req: Request): Date | null {
  const given = req.get(TEST_CLOCK_HEADER);
  if (given === undefined || authOf(req).mode !== 'test') return null;
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(given) ? new Date(given) : null;
  if (!at || Number.isNaN(at.getTime())) {
    throw new ValidationError('X-Test-Now', 'X-Test-Now must be an ISO 8601 time with a zone, such as 2026-12-23T10:00:00Z.', 'invalid_test_clock');
  }
  return at;
}

/** Lets the request through when the token carries at least one of `scopes`. */
export function requireScope(...scopes: string[]): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const auth = authOf(req);
    if (!scopes.some((scope) => auth.scopes.includes(scope))) {
      throw new ForbiddenError(`This operation requires the scope ${scopes.join(' or ')}.`, 'insufficient_scope');
    }
    next();
  };
}

/** Lets the request through only when the token was issued by one of `issuers`. */
export function requireIssuer(...issuers: string[]): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const auth = authOf(req);
    if (!issuers.includes(auth.issuer)) {
      throw new ForbiddenError(`This operation is reserved for the ${issuers.join(' or ')} service.`, 'forbidden_issuer');
    }
    next();
  };
}

/**
 * Sets an attribute on the HTTP server span (found through the RPC metadata the http
 * instrumentation stores) and on the active span, which may be an express middleware span.
 */
export function tagServerSpan(key: string, value: string): void {
  getRPCMetadata(context.active())?.span?.setAttribute(key, value);
  trace.getActiveSpan()?.setAttribute(key, value);
}

/**
 * The client's address behind the gateway, for per-address limits on public routes (checkout, processor
 * notifications): the request context's (the gateway's TRUST_PROXY rule, services/gateway/src/http/client-address.ts).
 */
export function clientAddressOf(req: Request): string {
  return contexts.get(req)?.clientAddress ?? forwardedClientAddress(req);
}

/**
 * The client's address as the transport carries it. Contract with the gateway: it replaces any
 * X-Forwarded-For with one entry, the client's address; the first entry is read so that a proxy between
 * the gateway and the service appending its own does not change the answer.
 */
function forwardedClientAddress(req: Request): string {
  const forwarded = req.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || req.socket.remoteAddress || 'unknown';
}
