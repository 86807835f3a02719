import { isIP } from 'node:net';
import { AppError, type Clock } from '@vaultline/core';
import type { TtlStore } from '@vaultline/ttl';
import type { AdminAction } from './admin-audit-entry';
import { adminKeyActor } from './admin-audit-entry';
import type { RecordAdminAction } from './admin-audit';

/**
 * The admin API's answer to guessing: refused admin requests (no key, a wrong key) are counted per client
 * address and minute, and once an address reached ADMIN_REFUSALS_PER_MINUTE every admin request from it is
 * answered 429 with Retry-After until its minute ends, before any key is looked at (so a correct key
 * guessed then is refused too: guessing runs at `limit` keys a minute, not at network speed). The count
 * is in the TTL store, shared by every gateway (Redis), in-process in the embedded profile.
 *
 * Such requests come from nobody the gateway knows, so they are not written one audit row each (a flood
 * would fill the store): AdminRefusalLog gathers them into one entry per address, minute and status,
 * with the number of requests it stands for.
 */
export class TooManyAdminRefusals extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('too_many_refusals', 429, `Too many refused admin requests from this address: retry after ${retryAfterSeconds} s.`, {
      retry_after: retryAfterSeconds,
    });
  }
}

const WINDOW_MS = 60_000;

/**
 * The address a limit and an aggregated entry are kept for: an IPv4 address as it is, an IPv6 address by
 * its /64 (one host usually holds a whole /64: per address, it could use a new one for every guess).
 */
export function refusalAddressOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export interface AdminRefusalLimit {
  ttl: Pick<TtlStore, 'get' | 'increment' | 'remainingMs'>;
  /** ADMIN_REFUSALS_PER_MINUTE. */
  perMinute: number;
}

/** Seconds the address has to wait before its next admin request, 0 when it may send one now. */
export type AdminRetryAfter = (address: string) => Promise<number>;
/** Counts one refused admin request of the address (in its minute's window). */
export type CountAdminRefusal = (address: string) => Promise<void>;

const windowKey = (address: string) => `admin-refusals:${refusalAddressOf(address)}`;

export function adminRetryAfter({ ttl, perMinute }: AdminRefusalLimit): AdminRetryAfter {
  return async (address) => {
    const count = Number((await ttl.get(windowKey(address))) ?? 0);
    if (count < perMinute) return 0;
    return Math.max(1, Math.ceil(((await ttl.remainingMs(windowKey(address))) ?? WINDOW_MS) / 1000));
  };
}

export function countAdminRefusal({ ttl }: Pick<AdminRefusalLimit, 'ttl'>): CountAdminRefusal {
  return async (address) => {
    await ttl.increment(windowKey(address), WINDOW_MS);
  };
}

/** A refused admin request as the audit keeps it: who asked from where, what, and the answer. */
export interface RefusedAdminRequest {
  address: string;
  method: string;
  /** Already truncated (auditedPath). */
  path: string;
  status: number;
  requestId: string;
}

/** Distinct addresses kept per minute; the requests of any further address count under `*`. */
export const MAX_REFUSAL_ADDRESSES_PER_MINUTE = 1_000;

interface Gathered {
  minute: number;
  first: RefusedAdminRequest;
  firstAt: Date;
  count: number;
}

/**
 * Gathers refused admin requests into one audit entry per address (refusalAddressOf), minute and status:
 * the first request's method, path and request id, its time, and `count`. An entry is written once its
 * minute has ended (flush), or at a stop (flush(true)); memory stays bounded by
 * MAX_REFUSAL_ADDRESSES_PER_MINUTE addresses a minute whatever arrives. Several gateways each write their
 * own entry for an address and minute.
 */
export class AdminRefusalLog {
  private readonly gathered = new Map<string, Gathered>();
  private readonly addressesByMinute = new Map<number, Set<string>>();

  constructor(private readonly deps: { record: RecordAdminAction; clock: Clock }) {}

  add(request: RefusedAdminRequest): void {
    const at = this.deps.clock.now();
    const minute = Math.floor(at.getTime() / WINDOW_MS) * WINDOW_MS;
    let addresses = this.addressesByMinute.get(minute);
    if (!addresses) this.addressesByMinute.set(minute, (addresses = new Set()));
    let address = refusalAddressOf(request.address);
    if (!addresses.has(address)) {
      if (addresses.size >= MAX_REFUSAL_ADDRESSES_PER_MINUTE) address = '*';
      addresses.add(address);
    }
    const key = `${minute}|${address}|${request.status}`;
    const entry = this.gathered.get(key);
    if (entry) entry.count++;
    else this.gathered.set(key, { minute, first: { ...request, address }, firstAt: at, count: 1 });
  }

  /** Writes the entries of the minutes that have ended (with `all`, every entry): one record each. */
  async flush(all = false): Promise<void> {
    const current = Math.floor(this.deps.clock.now().getTime() / WINDOW_MS) * WINDOW_MS;
    const due = [...this.gathered].filter(([, entry]) => all || entry.minute < current);
    for (const [key] of due) this.gathered.delete(key);
    for (const minute of [...this.addressesByMinute.keys()]) if (all || minute < current) this.addressesByMinute.delete(minute);
    for (const [, entry] of due) await this.deps.record(refusalAction(entry), entry.firstAt);
  }

  /** Requests gathered and not yet written (tests, the stop). */
  get pending(): number {
    return [...this.gathered.values()].reduce((sum, entry) => sum + entry.count, 0);
  }
}

function refusalAction({ first, count }: Gathered): AdminAction {
  return {
    ...adminKeyActor(undefined),
    method: first.method,
    path: first.path,
    target_ids: [],
    status: first.status,
    request_id: first.requestId,
    client_address: first.address,
    count,
  };
}
