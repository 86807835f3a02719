import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { AppError } from '@vaultline/core';
import type { Logger } from '@vaultline/logger';
import { JSON_BODY_TYPES, bodyParsers, contentTypeGuard, parseInput } from '@vaultline/http';
import { SessionExpired, assertCsrfToken, sessionIdPrefix, type ActiveSession, type DashboardSessions } from '../domain/dashboard-sessions';
import type { AdminAudit } from '../domain/admin-audit';
import type { AuditActor } from '../domain/admin-audit-entry';
import type { Merchants } from '../domain/merchants';
import type { TtlStore } from '@vaultline/ttl';
import { auditOnceAnswered } from './audit-on-answer';
import { clientAddressOf } from './client-address';

/** The header a change made with the session cookie carries the session's CSRF token in. */
export const CSRF_HEADER = 'X-CSRF-Token';
/**
 * The session cookie. Over https it has the `__Host-` prefix: the browser then takes it only with
 * Secure, Path=/ and no Domain, so no other host (a subdomain) can set or shadow it.
 */
export const SESSION_COOKIE = 'vaultline_session';
const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SessionCookieOptions {
  /** The edge is reached over https whatever the request says (TLS on, or PUBLIC_BASE_URL in https behind a proxy). */
  httpsConfigured: boolean;
  /** PUBLIC_BASE_URL: its origin is the dashboard's, besides the request's own. */
  publicBaseUrl: string;
}

const isHttps = (req: Request, options: SessionCookieOptions): boolean => options.httpsConfigured || req.secure;
const cookieName = (req: Request, options: SessionCookieOptions): string => (isHttps(req, options) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/** The session id in the request's cookie (the name this scheme uses), or undefined. */
function sessionIdOf(req: Request, options: SessionCookieOptions): string | undefined {
  const name = cookieName(req, options);
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

function setSessionCookie(req: Request, res: Response, options: SessionCookieOptions, value: string, maxAgeSeconds: number): void {
  const secure = isHttps(req, options) ? '; Secure' : '';
  res.append('Set-Cookie', `${cookieName(req, options)}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`);
}

export class CrossOriginRequest extends AppError {
  constructor() {
    super('cross_origin_request', 403, "A change made with the session cookie must come from the dashboard's own origin.", { field: 'Origin' });
  }
}

/**
 * A change with the cookie comes from the dashboard's own pages: the browser's Origin (when sent) is the
 * gateway's own or PUBLIC_BASE_URL's, and Sec-Fetch-Site (when sent) says same-origin. The CSRF token is
 * the check that holds without them; this one refuses a cross-site request even before.
 */
function assertSameOrigin(req: Request, options: SessionCookieOptions): void {
  const site = req.get('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw new CrossOriginRequest();
  const origin = req.get('origin');
  if (origin === undefined) return;
  const own = [new URL(options.publicBaseUrl).origin, `${req.protocol}://${req.get('host') ?? ''}`];
  if (!own.includes(origin)) throw new CrossOriginRequest();
}

/** The CSRF checks of a request that changes something with the session cookie. */
function assertChangeAllowed(req: Request, options: SessionCookieOptions, active: ActiveSession): void {
  if (SAFE_METHODS.has(req.method)) return;
  assertSameOrigin(req, options);
  assertCsrfToken(active.session, req.get(CSRF_HEADER));
}

export type SessionOfRequest = (req: Request) => Promise<ActiveSession | null>;

/**
 * The dashboard session a request without an API key is signed with: null without the cookie; a
 * refusal when the session ended (401 session_expired) or a change lacks the CSRF checks (403).
 * Requests with X-API-Key or X-Admin-Key never get here: the key decides, the cookie is ignored.
 */
export function sessionOfRequest(sessions: DashboardSessions, options: SessionCookieOptions): SessionOfRequest {
  return async (req) => {
    const sessionId = sessionIdOf(req, options);
    if (sessionId === undefined) return null;
    const active = await sessions.resume(sessionId);
    assertChangeAllowed(req, options, active);
    return active;
  };
}

/** A session's identity in the audit log. */
export function sessionActor(active: ActiveSession): AuditActor {
  const { principal, session } = active;
  const common = { via: 'dashboard_session' as const, session_id_prefix: sessionIdPrefix(session), role: principal.role };
  if (principal.kind === 'operator')
    return { ...common, operator_id: principal.operator.id, operator_name: principal.operator.name, merchant_id: null, mode: null, key_id: null };
  return { ...common, operator_id: null, operator_name: null, merchant_id: principal.key.merchantId, mode: principal.key.mode, key_id: principal.key.keyId };
}

/** The JSON of GET/POST /dashboard/session: who is signed in, until when, and the CSRF token. */
export function sessionView(active: ActiveSession, merchantName: string | null) {
  const { session, principal } = active;
  const identity = session.identity;
  return {
    object: 'dashboard_session',
    kind: identity.kind,
    role: principal.role,
    merchant_id: principal.kind === 'merchant' ? principal.key.merchantId : null,
    merchant_name: merchantName,
    mode: identity.kind === 'merchant' ? identity.mode : null,
    modes: identity.kind === 'merchant' ? (['test', 'live'] as const).filter((mode) => identity.keys[mode]) : [],
    key_id: principal.kind === 'merchant' ? principal.key.keyId : null,
    operator_id: principal.kind === 'operator' ? principal.operator.id : null,
    operator_name: principal.kind === 'operator' ? principal.operator.name : null,
    created_at: session.created_at,
    expires_at: session.expires_at,
    idle_expires_at: active.idleExpiresAt,
    csrf_token: session.csrf_token,
  };
}

const openSchema = z.strictObject({ api_key: z.string().min(1).max(300) });
const modeSchema = z.strictObject({ mode: z.enum(['test', 'live']), api_key: z.string().min(1).max(300).optional() });

export class TooManySignIns extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('too_many_sign_ins', 429, `Too many dashboard sign-ins from this address: retry after ${retryAfterSeconds} s.`, { retry_after: retryAfterSeconds });
  }
}

/**
 * Sign-ins per client address and minute (DASHBOARD_SIGN_INS_PER_MINUTE): a key is not guessable, but
 * every attempt costs a lookup, and every sign-in a stored session.
 */
async function limitSignIns(req: Request, res: Response, limit: SignInLimit): Promise<void> {
  const key = `dashboard-sign-in:${clientAddressOf(req)}`;
  if ((await limit.ttl.increment(key, 60_000)) <= limit.perMinute) return;
  const retryAfter = Math.max(1, Math.ceil(((await limit.ttl.remainingMs(key)) ?? 60_000) / 1000));
  res.setHeader('Retry-After', String(retryAfter));
  throw new TooManySignIns(retryAfter);
}

export interface SignInLimit {
  ttl: Pick<TtlStore, 'increment' | 'remainingMs'>;
  perMinute: number;
}

export interface DashboardSessionRouteDeps {
  sessions: DashboardSessions;
  sessionOf: SessionOfRequest;
  cookies: SessionCookieOptions;
  merchants: Pick<Merchants, 'get'>;
  /** DASHBOARD_SESSION_MAX_SECONDS: the cookie's Max-Age. */
  maxAgeSeconds: number;
  signIns: SignInLimit;
  audit: AdminAudit;
  logger: Logger;
}

/**
 * /dashboard/session: sign in with a key (POST), who am I (GET), the test/live switch (POST /mode),
 * sign out (DELETE). The key is sent once, in the body, and never stored: the session holds its id.
 * Sign-in, the switch and sign-out are in the audit log with the session's identity.
 */
export function dashboardSessionRoutes(deps: DashboardSessionRouteDeps): express.Router {
  const router = express.Router();
  const withMerchantName = async (active: ActiveSession) => {
    const merchant = active.principal.kind === 'merchant' ? await deps.merchants.get(active.principal.key.merchantId).catch(() => null) : null;
    return sessionView(active, merchant?.name ?? null);
  };
  // Recorded once answered, with the identity the handler settled on (none: nothing to record).
  const audited = (req: Request, res: Response) => auditOnceAnswered(req, res, deps, () => (res.locals.sessionActor as AuditActor | undefined) ?? null);
  const withAudit = (req: Request, res: Response, next: NextFunction) => {
    audited(req, res);
    next();
  };

  router.post('/', contentTypeGuard(JSON_BODY_TYPES), ...bodyParsers('16kb'), async (req: Request, res: Response) => {
    assertSameOrigin(req, deps.cookies);
    await limitSignIns(req, res, deps.signIns);
    const input = parseInput(openSchema, req.body ?? {});
    // A refused key is not stored in the audit (a flood of guesses must not fill the store): it is logged as "access refused".
    const { sessionId, active } = await deps.sessions.open(input.api_key);
    // A session already in this browser ends: one browser, one session (and no session chosen by another).
    const previous = sessionIdOf(req, deps.cookies);
    if (previous !== undefined) await deps.sessions.close(previous);
    res.locals.sessionActor = sessionActor(active);
    audited(req, res);
    setSessionCookie(req, res, deps.cookies, sessionId, deps.maxAgeSeconds);
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json(await withMerchantName(active));
  });

  router.get('/', async (req: Request, res: Response) => {
    const active = await deps.sessionOf(req);
    if (!active) throw new NoSession();
    res.setHeader('Cache-Control', 'no-store');
    res.json(await withMerchantName(active));
  });

  router.post('/mode', contentTypeGuard(JSON_BODY_TYPES), ...bodyParsers('16kb'), withAudit, async (req: Request, res: Response) => {
    const active = await deps.sessionOf(req);
    if (!active) throw new NoSession();
    res.locals.sessionActor = sessionActor(active);
    const input = parseInput(modeSchema, req.body ?? {});
    const switched = await deps.sessions.switchMode(active, input.mode, input.api_key);
    res.locals.sessionActor = sessionActor(switched);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await withMerchantName(switched));
  });

  router.delete('/', withAudit, async (req: Request, res: Response) => {
    const sessionId = sessionIdOf(req, deps.cookies);
    if (sessionId !== undefined) {
      // An ended session signs out quietly; a live one only with its CSRF token (403 otherwise).
      const active = await deps.sessionOf(req).catch((error: unknown) => {
        if (error instanceof SessionExpired) return null;
        throw error;
      });
      if (active) res.locals.sessionActor = sessionActor(active);
      await deps.sessions.close(sessionId);
    }
    setSessionCookie(req, res, deps.cookies, '', 0);
    res.status(204).end();
  });

  return router;
}

export class NoSession extends AppError {
  constructor() {
    super('session_expired', 401, 'No dashboard session: sign in with POST /dashboard/session.');
  }
}
