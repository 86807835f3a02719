import type { Mode } from '@vaultline/core';
import type { SessionRole } from './dashboard-session';
import type { Operator } from './operator';
/**
 * One audited request: who (the operator, null when the key was refused; or, for a change made through
 * a dashboard session, the session's merchant, mode, key and role), what (method, path and the ids it
 * names or created), when, and the outcome (HTTP status). Never a request body: an admin body can carry
 * a merchant's name or a forwarding credential, and the log is kept for a long time.
 *
 * Every /admin request is here: one entry each once the caller is known (an operator's key or session);
 * the refused ones of unknown callers (no key, a wrong key, answered 429 after too many) gathered into
 * one entry per client address, minute and status with `count` (admin-refusals.ts). Of the merchant API,
 * the changes (every method but GET and HEAD) made through a dashboard session, and the session's
 * sign-in, mode switch and sign-out. Entries are never changed; they are deleted after
 * AUDIT_RETENTION_DAYS (400 by default: PCI DSS 10.5.1 asks for 12 months).
 */
export interface AdminAuditEntry {
  id: string;
  at: string;
  operator_id: string | null;
  operator_name: string | null;
  /** The merchant a merchant session acted for; null for operators. */
  merchant_id: string | null;
  /** The mode the merchant session acted in; null for operators. */
  mode: Mode | null;
  /** How the caller signed the request: an admin key in X-Admin-Key, a dashboard session's cookie, or a merchant's secret key (its own API keys' changes). */
  via: AuditVia;
  /** The first 12 hex characters of the session's stored hash: ties a session's entries together. */
  session_id_prefix: string | null;
  /** The merchant API key the session acts with (merchant sessions). */
  key_id: string | null;
  role: SessionRole | null;
  method: string;
  path: string;
  target_ids: string[];
  status: number;
  request_id: string;
  /** The client's address as the edge worked it out (TRUST_PROXY); an IPv6 one by its /64 in a gathered entry. Null in entries written before it was kept. */
  client_address: string | null;
  /** How many requests the entry stands for: 1, or the refused requests of one address in one minute. */
  count: number;
}

export type AuditVia = 'admin_key' | 'dashboard_session' | 'api_key';

/** Who an entry names: the fields a request's credential decides. */
export type AuditActor = Pick<AdminAuditEntry, 'operator_id' | 'operator_name' | 'merchant_id' | 'mode' | 'via' | 'session_id_prefix' | 'key_id' | 'role'>;

/** An admin-key request's actor (the operator, or nobody when the key was refused). */
export const adminKeyActor = (operator: Pick<Operator, 'id' | 'name'> | undefined): AuditActor => ({
  operator_id: operator?.id ?? null,
  operator_name: operator?.name ?? null,
  merchant_id: null,
  mode: null,
  via: 'admin_key',
  session_id_prefix: null,
  key_id: null,
  role: null,
});

export type AdminAction = Omit<AdminAuditEntry, 'id' | 'at' | 'client_address' | 'count'> & Partial<Pick<AdminAuditEntry, 'client_address' | 'count'>>;

/** Equality filters of GET /admin/audit, all optional, combined with AND. */
export interface AdminAuditFilter {
  operatorId?: string;
  merchantId?: string;
  via?: AuditVia;
  sessionIdPrefix?: string;
  keyId?: string;
  role?: SessionRole;
}
