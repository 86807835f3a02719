import { randomBytes } from 'node:crypto';
import { SCOPES, apiKeyMode, hashApiKey } from '@vaultline/auth';
import { AppError, ForbiddenError, UnauthorizedError, constantTimeEquals, isAppError, type Clock, type Mode } from '@vaultline/core';
import type { ApiKeys } from './api-keys';
import type { ResolvedKey } from './merchant';
import type { Operator } from './operator';
import type { Operators } from './operators';
import type { DashboardSessionRepository, PepperSource } from './ports';
import type { DashboardSession, SessionIdentity, SessionKey, SessionRole } from './dashboard-session';

export type { DashboardSession, SessionIdentity, SessionKey, SessionRole };

export interface SessionLimits {
  /** A session unused this long ends (DASHBOARD_SESSION_IDLE_SECONDS). */
  idleMs: number;
  /** A session ends this long after sign-in (DASHBOARD_SESSION_MAX_SECONDS). */
  maxMs: number;
}

/** Who acts through a session on this request, the credential checked again just now. */
export type SessionPrincipal =
  { kind: 'operator'; role: 'operator'; operator: Operator } | { kind: 'merchant'; role: 'merchant' | 'dashboard'; key: ResolvedKey };

export interface ActiveSession {
  session: DashboardSession;
  principal: SessionPrincipal;
  /** When the session ends if no other request comes (never after expires_at). */
  idleExpiresAt: string;
}

/**
 * A session that cannot be used: unknown, signed out, idle too long, past its lifetime, or its key or
 * operator revoked since. Every case reads the same; `reason` goes to the log only.
 */
export class SessionExpired extends UnauthorizedError {
  constructor(readonly reason: 'unknown' | 'idle' | 'expired' | 'credential_refused') {
    super('The dashboard session is not valid (signed out, expired or never opened): sign in again.', 'session_expired');
  }
}

export class CsrfTokenInvalid extends AppError {
  constructor() {
    super(
      'csrf_token_invalid',
      403,
      "A change made with the session cookie needs the session's CSRF token in X-CSRF-Token (GET /dashboard/session returns it).",
      { field: 'X-CSRF-Token' },
    );
  }
}

export class ModeKeyRequired extends ForbiddenError {
  constructor(mode: Mode) {
    super(`This session holds no ${mode} key: send a ${mode} key of the same merchant as api_key to switch to ${mode}.`, 'mode_key_required');
  }
}

export class ModeKeyMismatch extends AppError {
  constructor(detail: string) {
    super('mode_key_mismatch', 422, detail, { field: 'api_key' });
  }
}

export class ModeSwitchNotAllowed extends ForbiddenError {
  constructor() {
    super('An operator session has no mode: the admin API spans both.', 'mode_switch_not_allowed');
  }
}

export interface SessionPorts {
  sessions: DashboardSessionRepository;
  apiKeys: Pick<ApiKeys, 'authenticate' | 'resolveById'>;
  operators: Pick<Operators, 'authenticate' | 'resolveById'>;
  clock: Clock;
  pepper: PepperSource;
  limits: SessionLimits;
}

/** 256 bits from the CSPRNG, URL-safe: session ids and CSRF tokens. */
const randomToken = (): string => randomBytes(32).toString('base64url');

/** The keyed hash a session is stored under (HMAC with the API-key pepper): a copy of the store opens no session. */
const hashOf = (ports: Pick<SessionPorts, 'pepper'>, sessionId: string): string => hashApiKey(sessionId, ports.pepper());

/** The first characters of a session's stored hash: names it in the audit log without being usable. */
export const sessionIdPrefix = (session: DashboardSession): string => session.id_hash.slice(0, 12);

function roleOfKey(key: ResolvedKey): SessionKey['role'] {
  if (key.scopes.includes(SCOPES.merchant)) return 'merchant';
  if (key.scopes.includes(SCOPES.dashboard)) return 'dashboard';
  throw new ForbiddenError('This API key cannot open a dashboard session: use a secret key, a dashboard key or an operator key.', 'insufficient_scope');
}

const idleEnd = (ports: SessionPorts, from: Date, session: DashboardSession): string => {
  const idle = new Date(from.getTime() + ports.limits.idleMs).toISOString();
  return idle < session.expires_at ? idle : session.expires_at;
};

const remainingMs = (session: DashboardSession, now: Date): number => Date.parse(session.expires_at) - now.getTime();

/** A merchant secret key (sk_test_/sk_live_, scope merchant), a dashboard key, or an operator's admin key. */
export type OpenSession = (credential: unknown) => Promise<{ sessionId: string; active: ActiveSession }>;

export function openSession(ports: SessionPorts): OpenSession {
  return async (credential) => {
    if (typeof credential !== 'string' || credential === '')
      throw new UnauthorizedError('api_key is required: a secret key, a dashboard key or an operator key.', 'missing_api_key');
    const now = ports.clock.now();
    let identity: SessionIdentity;
    let principal: SessionPrincipal;
    if (apiKeyMode(credential)) {
      const key = await ports.apiKeys.authenticate(credential);
      const role = roleOfKey(key);
      identity = { kind: 'merchant', merchant_id: key.merchantId, mode: key.mode, keys: { [key.mode]: { key_id: key.keyId, role } } };
      principal = { kind: 'merchant', role, key };
    } else {
      const operator = await ports.operators.authenticate(credential);
      identity = { kind: 'operator', operator_id: operator.id };
      principal = { kind: 'operator', role: 'operator', operator };
    }
    const sessionId = randomToken();
    const session: DashboardSession = {
      id_hash: hashOf(ports, sessionId),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ports.limits.maxMs).toISOString(),
      csrf_token: randomToken(),
      identity,
    };
    await ports.sessions.insert(session, now.toISOString(), { lifetimeMs: ports.limits.maxMs, idleMs: ports.limits.idleMs });
    return { sessionId, active: { session, principal, idleExpiresAt: idleEnd(ports, now, session) } };
  };
}

/** The session behind a cookie, its credential checked again; the request counts as activity (idle timer restarts). */
export type ResumeSession = (sessionId: string) => Promise<ActiveSession>;

export function resumeSession(ports: SessionPorts): ResumeSession {
  return async (sessionId) => {
    const idHash = hashOf(ports, sessionId);
    const found = await ports.sessions.get(idHash);
    if (!found || !constantTimeEquals(found.session.id_hash, idHash)) throw new SessionExpired('unknown');
    const { session, lastSeenAt } = found;
    const now = ports.clock.now();
    const end = async (reason: SessionExpired['reason']) => {
      await ports.sessions.delete(idHash);
      return new SessionExpired(reason);
    };
    if (remainingMs(session, now) <= 0) throw await end('expired');
    if (lastSeenAt === null || now.getTime() - Date.parse(lastSeenAt) >= ports.limits.idleMs) throw await end('idle');
    let principal: SessionPrincipal;
    try {
      principal = await principalOf(ports, session.identity);
    } catch (error) {
      // The key was revoked or expired, or the operator revoked, since sign-in: the session ends with it.
      if (isAppError(error) && error.status === 401) throw await end('credential_refused');
      throw error;
    }
    await ports.sessions.touch(idHash, now.toISOString(), Math.min(ports.limits.idleMs, remainingMs(session, now)));
    return { session, principal, idleExpiresAt: idleEnd(ports, now, session) };
  };
}

async function principalOf(ports: SessionPorts, identity: SessionIdentity): Promise<SessionPrincipal> {
  if (identity.kind === 'operator') return { kind: 'operator', role: 'operator', operator: await ports.operators.resolveById(identity.operator_id) };
  const held = identity.keys[identity.mode];
  if (!held) throw new SessionExpired('unknown');
  return { kind: 'merchant', role: held.role, key: await ports.apiKeys.resolveById(identity.merchant_id, held.key_id) };
}

/** Sign-out: the session is gone for every tab and every gateway instance. */
export type CloseSession = (sessionId: string) => Promise<void>;

export const closeSession =
  (ports: Pick<SessionPorts, 'sessions' | 'pepper'>): CloseSession =>
  (sessionId) =>
    ports.sessions.delete(hashOf(ports, sessionId));

/**
 * The test/live switch. A merchant session switches to a mode it holds a key for; to hold one it is
 * sent that mode's key of the same merchant once (a secret key or a dashboard key). So a test key alone
 * never reaches live data, exactly as in the API.
 */
export type SwitchMode = (active: ActiveSession, mode: Mode, apiKey?: string) => Promise<ActiveSession>;

export function switchMode(ports: SessionPorts): SwitchMode {
  return async (active, mode, apiKey) => {
    const { session } = active;
    if (session.identity.kind === 'operator') throw new ModeSwitchNotAllowed();
    const identity = session.identity;
    let keys = identity.keys;
    if (apiKey !== undefined) {
      const key = await ports.apiKeys.authenticate(apiKey);
      if (key.merchantId !== identity.merchant_id) throw new ModeKeyMismatch('The key belongs to another merchant than the session.');
      if (key.mode !== mode) throw new ModeKeyMismatch(`The key is a ${key.mode} key; switching to ${mode} takes a ${mode} key.`);
      keys = { ...keys, [mode]: { key_id: key.keyId, role: roleOfKey(key) } };
    }
    if (!keys[mode]) throw new ModeKeyRequired(mode);
    const now = ports.clock.now();
    const switched: DashboardSession = { ...session, identity: { ...identity, mode, keys } };
    await ports.sessions.replace(switched, remainingMs(switched, now));
    return { session: switched, principal: await principalOf(ports, switched.identity), idleExpiresAt: active.idleExpiresAt };
  };
}

/** The synchronizer-token check of a change made with the session cookie (constant-time). */
export function assertCsrfToken(session: DashboardSession, token: string | undefined): void {
  if (!token || !constantTimeEquals(token, session.csrf_token)) throw new CsrfTokenInvalid();
}

/** The dashboard-session use cases as the edge and its routes take them (built in app.ts). */
export interface DashboardSessions {
  open: OpenSession;
  resume: ResumeSession;
  close: CloseSession;
  switchMode: SwitchMode;
}

export const dashboardSessions = (ports: SessionPorts): DashboardSessions => ({
  open: openSession(ports),
  resume: resumeSession(ports),
  close: closeSession(ports),
  switchMode: switchMode(ports),
});
