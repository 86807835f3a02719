import type { ApiKeyMode } from '@vaultline/auth';
import type { ApiKeyRecord, Merchant } from './merchant';
import type { Operator } from './operator';
import type { AdminAuditEntry, AdminAuditFilter } from './admin-audit-entry';
import type { RateLimit } from './rate-limit';
import type { DashboardSession } from './dashboard-session';

export interface PageRequest {
  limit: number;
  after?: string;
  order: 'asc' | 'desc';
}

export interface PageOf<T> {
  items: T[];
  has_more: boolean;
  next_cursor?: string;
}

/** Merchants are system-level records (the operator lists them all). */
export interface MerchantRepository {
  get(id: string): Promise<Merchant | null>;
  list(page: PageRequest): Promise<PageOf<Merchant>>;
  /** Replaces the merchant's rate limit (undefined: back to the defaults); null when there is no such merchant. */
  setRateLimit(id: string, rateLimit: RateLimit | undefined): Promise<Merchant | null>;
  /** Creates the merchant and its first key in one commit. */
  createWithKey(merchant: Merchant, key: ApiKeyRecord): Promise<void>;
}

/** API keys belong to their merchant; only the lookup by hash does not know the merchant yet. */
export interface ApiKeyRepository {
  /** Fails with duplicate_key when the hash is taken, by whichever merchant. */
  insert(key: ApiKeyRecord): Promise<void>;
  get(merchantId: string, id: string): Promise<ApiKeyRecord | null>;
  /** Both modes' keys, or with `mode` that mode's only. */
  list(merchantId: string, page: PageRequest, mode?: ApiKeyMode): Promise<PageOf<ApiKeyRecord>>;
  /** The key whose hash this is, whatever its state and merchant; null when none. */
  findByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** Marks the key revoked; returns it as stored. */
  revoke(merchantId: string, id: string, at: string): Promise<ApiKeyRecord>;
  /**
   * A roll: the new key inserted and the old one set to expire at `oldExpiresAt`, in one commit (the old
   * key's version compared: a concurrent roll or revocation of it fails with concurrent_modification).
   */
  roll(merchantId: string, oldId: string, oldExpiresAt: string, next: ApiKeyRecord): Promise<ApiKeyRecord>;
}

/** Operators are system records; a request is resolved by its key's hash. */
export interface OperatorRepository {
  /** Fails with a conflict when the name or the hash is taken. */
  insert(operator: Operator): Promise<void>;
  get(id: string): Promise<Operator | null>;
  findByName(name: string): Promise<Operator | null>;
  findByHash(keyHash: string): Promise<Operator | null>;
  list(page: PageRequest): Promise<PageOf<Operator>>;
  /** Replaces the operator as stored (revocation, a new bootstrap key); returns it. */
  update(operator: Operator): Promise<Operator>;
}

/** Append-only: no update, no delete. */
export interface AdminAuditRepository {
  append(entry: AdminAuditEntry): Promise<void>;
  list(filter: AdminAuditFilter, page: PageRequest): Promise<PageOf<AdminAuditEntry>>;
  /** Deletes at most `limit` entries whose `at` is before `before` (ISO), oldest first; returns how many. */
  deleteBefore(before: string, limit: number): Promise<number>;
}

/** Supplies the API-key pepper once start() has loaded it. */
export type PepperSource = () => string;

/** The gateway's own settings (the generated pepper). */
export interface SettingRepository {
  find(name: string): Promise<string | null>;
  /** Fails with duplicate_key when the name is taken. */
  insert(name: string, value: string): Promise<void>;
}

/**
 * Dashboard sessions, shared by every gateway instance. A session is kept until its absolute end; its
 * last use separately, for the idle time, so that marking activity never overwrites a mode switch.
 */
export interface DashboardSessionRepository {
  insert(session: DashboardSession, lastSeenAt: string, keep: { lifetimeMs: number; idleMs: number }): Promise<void>;
  /** The session under this hash and its last use (null once the idle record lapsed); null when none. */
  get(idHash: string): Promise<{ session: DashboardSession; lastSeenAt: string | null } | null>;
  /** Marks a use; the record of it is kept for `keepMs`. */
  touch(idHash: string, at: string, keepMs: number): Promise<void>;
  /** Stores the changed session (a mode switch) for the rest of its lifetime. */
  replace(session: DashboardSession, lifetimeMs: number): Promise<void>;
  delete(idHash: string): Promise<void>;
}
