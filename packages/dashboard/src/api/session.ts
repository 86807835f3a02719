// The dashboard session (POST/GET/DELETE /dashboard/session): the API key is sent once, in the body of the
// sign-in, and kept nowhere in the browser; the session is an httpOnly cookie the page cannot read, and the
// CSRF token answered here goes with every later request.
import { CSRF_HEADER, VaultlineError, type Mode } from '@vaultline/node';

export type Role = 'merchant' | 'operator';

export interface Session {
  role: Role;
  mode: Mode;
  csrfToken: string;
  /** Who is signed in, as the session names them (merchant name or operator name). */
  name: string | null;
  merchantId: string | null;
  /** The key's scopes: a `dashboard` key is read-mostly. */
  scopes: string[];
  expiresAt: string | null;
}

const SESSION_PATH = '/dashboard/session';

interface SessionView {
  role?: string;
  kind?: string;
  mode?: string;
  csrf_token?: string;
  name?: string | null;
  merchant_id?: string | null;
  merchant_name?: string | null;
  operator_name?: string | null;
  scopes?: string[];
  expires_at?: string | null;
  absolute_expires_at?: string | null;
}

function sessionOf(view: SessionView): Session {
  const role = (view.role ?? view.kind) === 'operator' ? 'operator' : 'merchant';
  return {
    role,
    mode: view.mode === 'live' ? 'live' : 'test',
    csrfToken: view.csrf_token ?? '',
    name: view.name ?? view.merchant_name ?? view.operator_name ?? null,
    merchantId: view.merchant_id ?? null,
    scopes: view.scopes ?? [],
    expiresAt: view.expires_at ?? view.absolute_expires_at ?? null,
  };
}

async function sessionCall(method: string, body?: unknown, csrfToken?: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (csrfToken) headers[CSRF_HEADER] = csrfToken;
  const response = await fetch(SESSION_PATH, { method, headers, credentials: 'same-origin', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
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

/** Switches the session between test and live data: the same key's other world. */
export async function switchMode(session: Session, mode: Mode): Promise<Session> {
  const response = await sessionCall('PATCH', { mode }, session.csrfToken);
  if (response.status === 401) throw await VaultlineError.fromResponse(response);
  return sessionOf((await response.json()) as SessionView);
}
