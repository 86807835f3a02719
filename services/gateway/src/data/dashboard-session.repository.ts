import type { TtlStore } from '@vaultline/ttl';
import type { DashboardSession } from '../domain/dashboard-session';
import type { DashboardSessionRepository } from '../domain/ports';

const sessionKey = (idHash: string) => `dashboard-session:${idHash}`;
const lastSeenKey = (idHash: string) => `dashboard-session-seen:${idHash}`;

/**
 * Sessions in the runtime's TTL store (Redis in the local and production profiles, so every gateway
 * instance sees a sign-in and a sign-out at once; in-process in the embedded profile). The store drops
 * a session by itself at its absolute end and its last-use record after the idle time; the domain
 * decides expiry with its own clock as well, so a record outliving its time is never accepted.
 */
export class TtlDashboardSessionRepository implements DashboardSessionRepository {
  constructor(private readonly ttl: TtlStore) {}

  async insert(session: DashboardSession, lastSeenAt: string, keep: { lifetimeMs: number; idleMs: number }): Promise<void> {
    await this.ttl.set(sessionKey(session.id_hash), JSON.stringify(session), keep.lifetimeMs);
    await this.ttl.set(lastSeenKey(session.id_hash), lastSeenAt, Math.min(keep.idleMs, keep.lifetimeMs));
  }

  async get(idHash: string): Promise<{ session: DashboardSession; lastSeenAt: string | null } | null> {
    const stored = await this.ttl.get(sessionKey(idHash));
    if (stored === null) return null;
    return { session: JSON.parse(stored) as DashboardSession, lastSeenAt: await this.ttl.get(lastSeenKey(idHash)) };
  }

  async touch(idHash: string, at: string, keepMs: number): Promise<void> {
    if (keepMs > 0) await this.ttl.set(lastSeenKey(idHash), at, keepMs);
  }

  async replace(session: DashboardSession, lifetimeMs: number): Promise<void> {
    if (lifetimeMs > 0) await this.ttl.set(sessionKey(session.id_hash), JSON.stringify(session), lifetimeMs);
  }

  async delete(idHash: string): Promise<void> {
    await this.ttl.delete(sessionKey(idHash));
    await this.ttl.delete(lastSeenKey(idHash));
  }
}
