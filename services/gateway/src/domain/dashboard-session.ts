import type { Mode } from '@vaultline/core';

/**
 * What a session may do, named after the credential that opened it: `merchant` (a merchant's secret key:
 * the whole merchant API), `dashboard` (a key with the scope dashboard: read-mostly, see
 * dashboard-access.ts) and `operator` (an admin key: the admin API only).
 */
export type SessionRole = 'merchant' | 'dashboard' | 'operator';

/** A merchant key the session holds for one mode: its id (never the key) and what it may do. */
export interface SessionKey {
  key_id: string;
  role: 'merchant' | 'dashboard';
}

/**
 * Whose session it is. A merchant session acts in one mode at a time, with the key it holds for that
 * mode; it holds a key of the other mode only after that key was presented (switchMode), so a test key
 * never opens live data.
 */
export type SessionIdentity =
  { kind: 'operator'; operator_id: string } | { kind: 'merchant'; merchant_id: string; mode: Mode; keys: Partial<Record<Mode, SessionKey>> };

/** A session as stored: under the keyed hash of its id (the id itself is only in the browser's cookie). */
export interface DashboardSession {
  id_hash: string;
  created_at: string;
  /** The absolute end (DASHBOARD_SESSION_MAX_SECONDS after sign-in), whatever the activity. */
  expires_at: string;
  /** The synchronizer token a change through this session must carry in X-CSRF-Token. */
  csrf_token: string;
  identity: SessionIdentity;
}
