// The dashboard session (POST/GET/DELETE /dashboard/session): the API key is sent once, in the body of the
// sign-in, and kept nowhere in the browser; the session is an httpOnly cookie the page cannot read, and the
// CSRF token answered here goes with every later request.
import { CSRF_HEADER, VaultlineError, type Mode } from '@vaultline/node';

/** Which pages a session sees: a merchant's (opened with a merchant key) or an operator's. */
export type SessionKind = 'merchant' | 'operator';
/** What the key that opened it may do: `dashboard` keys are read-mostly (capture, cancel, refund, replay, explain). */
export type Role = 'merchant' | 'dashboard' | 'operator';

export interface Session {
  kind: SessionKind;
  role: Role;
  /** The merchant session's mode (an operator's session has none: shown as test). */
  mode: Mode;
  /** The modes the session holds a key of: switching to another asks for that mode's key once. */
  modes: Mode[];
  csrfToken: string;
  /** Who is signed in: the merchant's or the operator's name. */
  name: string | null;
  merchantId: string | null;
  keyId: string | null;
  expiresAt: string | null;
  idleExpiresAt: string | null;
}

const SESSION_PATH = '/dashboard/session';

/** GET/POST /dashboard/session's answer (the gateway's sessionView). */
interface SessionView {
  kind: SessionKind;
  role: Role;
  mode: Mode | null;
  modes: Mode[];
  csrf_token: string;
  merchant_id: string | null;
  merchant_name: string | null;
  operator_name: string | null;
  key_id: string | null;
  expires_at: string | null;
  idle_expires_at: string | null;
}

function sessionOf(view: SessionView): Session {
  return {
    kind: view.kind,
    role: view.role,
    mode: view.mode ?? 'test',
    modes: view.modes,
    csrfToken: view.csrf_token,
    name: view.merchant_name ?? view.operator_name,
    merchantId: view.merchant_id,
    keyId: view.key_id,
    expiresAt: view.expires_at,
    idleExpiresAt: view.idle_expires_at,
  };
}

async function sessionCall(method: string, body?: unknown, csrfToken?: string, subPath = ''): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (csrfToken) headers[CSRF_HEADER] = csrfToken;
  const response = await fetch(`${SESSION_PATH}${subPath}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok && response.status !== 401) throw await VaultlineError.fromResponse(response);
  return response;
}

/** Exchanges an API key (merchant secret key, dashboard key or operator key) for a session. */
export async function signIn(apiKey: string): Promise<Session> {
  const response = await sessionCall('POST', { api_key: apiKey });
  if (response.status === 401) throw await VaultlineError.fromResponse(response);
  return sessionOf((await response.json()) as SessionView);
}

/** The session the cookie holds, or null when there is none (or it expired). */
export async function currentSession(): Promise<Session | null> {
  const response = await sessionCall('GET');
  if (response.status === 401) return null;
  return sessionOf((await response.json()) as SessionView);
}

export async function signOut(session: Session): Promise<void> {
  await sessionCall('DELETE', undefined, session.csrfToken);
}

/**
 * Switches the session between test and live data. A mode the session holds no key of needs that mode's key
 * of the same merchant once (403 mode_key_required without it).
 */
export async function switchMode(session: Session, mode: Mode, apiKey?: string): Promise<Session> {
  const response = await sessionCall('POST', { mode, ...(apiKey ? { api_key: apiKey } : {}) }, session.csrfToken, '/mode');
  if (response.status === 401) throw await VaultlineError.fromResponse(response);
  return sessionOf((await response.json()) as SessionView);
}
