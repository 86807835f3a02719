import type { Mode } from '@vaultline/core';
import type { CardSource } from '../payment-vocabulary/card-source';
import type { CardAttempt } from '../declines/retry-limits';

/** The authorization that created a credential: which processor, and its reference of the payment. */
export interface InitialAuthorization {
  processor: string;
  reference: string;
}

/**
 * Stored credentials of the newer interface: what merchant-initiated payments need, created with the
 * initial recurring or unscheduled payment and usable once it is authorized or captured.
 */
export interface Credential {
  id: string;
  merchant_id: string;
  /** The mode of the key that made it: a key of the other mode never sees it. */
  mode: Mode;
  version: number;
  kind: 'RECURRING' | 'UNSCHEDULED';
  initial_payment_id: string;
  status: 'pending' | 'active';
  token_id: string | null;
  source: CardSource | null;
  card_scheme: string | null;
  network_transaction_reference: string | null;
  /** The processor account that authorized the initial payment and its reference there (absent on older credentials). */
  initial_authorization?: InitialAuthorization | null;
  recurring_frequency: number | null;
  /** YYYYMMDD, the last day of validity. */
  recurring_expiry: string | null;
  /**
   * Effective time of the latest payment on these credentials that has not failed (the initial
   * payment's at first): the frequency rule counts from it. A subsequent payment that fails gives the
   * previous value back (previous_charge_at), so a failed charge does not block the next one.
   */
  last_charge_at: string;
  last_charge_payment_id: string;
  previous_charge_at: string | null;
  created_at: string;
  /**
   * The card's recent authorization attempts (30 days, the last 64), approved or declined, for the schemes'
   * retry limits on merchant-initiated payments (domain/declines/retry-limits.ts); absent before the first.
   */
  card_attempts?: CardAttempt[];
  /** The card's country of issue once a processor reported it: merchant-initiated payments route by it. */
  card_country?: string | null;
}

const DAY_MS = 86_400_000;

/** YYYYMMDD of a time, in UTC. */
export function calendarDay(at: Date): string {
  return at.toISOString().slice(0, 10).replace(/-/g, '');
}

/** True for a real calendar date written YYYYMMDD (20260229 is not one). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{8}$/.test(value)) return false;
  const date = new Date(`${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && calendarDay(date) === value;
}

/**
 * The first moment a next payment respects the frequency. Days are UTC calendar days: a monthly charge
 * made at 09:00 may follow one made at 10:00 thirty days before (a merchant's billing run is not timed
 * to the millisecond).
 */
export function nextChargeAllowedAt(credential: Pick<Credential, 'last_charge_at' | 'recurring_frequency'>): Date {
  const last = new Date(credential.last_charge_at);
  const lastDay = Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), last.getUTCDate());
  return new Date(lastDay + (credential.recurring_frequency ?? 0) * DAY_MS);
}
