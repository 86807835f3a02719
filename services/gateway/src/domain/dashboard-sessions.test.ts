import { ManualClock, UnauthorizedError } from '@vaultline/core';
import type { ResolvedKey } from './merchant';
import type { Operator } from './operator';
import type { DashboardSessionRepository } from './ports';
import { CsrfTokenInvalid, SessionExpired, assertCsrfToken, dashboardSessions, type DashboardSession } from './dashboard-sessions';

/** A repository that never forgets on its own: whatever expiry holds is the domain's doing. */
class KeepingRepository implements DashboardSessionRepository {
  readonly sessions = new Map<string, DashboardSession>();
  readonly seen = new Map<string, string>();
  async insert(session: DashboardSession, lastSeenAt: string): Promise<void> {
    this.sessions.set(session.id_hash, session);
    this.seen.set(session.id_hash, lastSeenAt);
  }
  async get(idHash: string) {
    const session = this.sessions.get(idHash);
    return session ? { session, lastSeenAt: this.seen.get(idHash) ?? null } : null;
  }
  async touch(idHash: string, at: string): Promise<void> {
    this.seen.set(idHash, at);
  }
  async replace(session: DashboardSession): Promise<void> {
    this.sessions.set(session.id_hash, session);
  }
  async delete(idHash: string): Promise<void> {
    this.sessions.delete(idHash);
    this.seen.delete(idHash);
  }
}

const TEST_KEY = 'sk_test_secretsecretsecretsecret0001';
const LIVE_KEY = 'sk_live_secretsecretsecretsecret0002';
const keys: Record<string, ResolvedKey> = {
  [TEST_KEY]: { merchantId: 'm1', keyId: 'k-test', scopes: ['merchant'], mode: 'test' },
  [LIVE_KEY]: { merchantId: 'm1', keyId: 'k-live', scopes: ['dashboard'], mode: 'live' },
};
const revoked = new Set<string>();

function setUp() {
  const clock = new ManualClock('2026-11-26T10:00:00.000Z');
  const repository = new KeepingRepository();
  const invalid = () => new UnauthorizedError('The API key is not valid.', 'invalid_api_key');
  const sessions = dashboardSessions({
    sessions: repository,
    clock,
    pepper: () => 'pepper-for-tests-0123456789',
    limits: { idleMs: 60_000, maxMs: 300_000 },
    apiKeys: {
      authenticate: async (key) => {
        const found = key ? keys[key] : undefined;
        if (!found) throw invalid();
        return found;
      },
      resolveById: async (merchantId, keyId) => {
        const found = Object.values(keys).find((k) => k.merchantId === merchantId && k.keyId === keyId);
        if (!found || revoked.has(keyId)) throw invalid();
        return found;
      },
    },
    operators: {
      authenticate: async () => {
        throw new UnauthorizedError('The admin key is not valid.', 'invalid_admin_key');
      },
      resolveById: async () => ({ id: 'o1', name: 'ada' }) as Operator,
    },
  });
  return { clock, repository, sessions };
}

describe('dashboard sessions (domain)', () => {
  it('when a session is opened, then the store holds a keyed hash of its id, never the id or the key', async () => {
    const { repository, sessions } = setUp();
    const { sessionId } = await sessions.open(TEST_KEY);
    const stored = JSON.stringify([...repository.sessions.values()]);
    expect(stored).not.toContain(sessionId);
    expect(stored).not.toContain(TEST_KEY);
    expect([...repository.sessions.keys()][0]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('when the store still holds a session past its idle time or its lifetime, then the domain refuses it and removes it', async () => {
    const { clock, repository, sessions } = setUp();
    const idle = await sessions.open(TEST_KEY);
    clock.advance(60_000);
    await expect(sessions.resume(idle.sessionId)).rejects.toMatchObject({ code: 'session_expired', reason: 'idle' });
    expect(repository.sessions.size).toBe(0);

    const busy = await sessions.open(TEST_KEY);
    for (let i = 0; i < 5; i++) {
      clock.advance(59_000);
      await sessions.resume(busy.sessionId);
    }
    clock.advance(5_000);
    await expect(sessions.resume(busy.sessionId)).rejects.toMatchObject({ reason: 'expired' });
  });

  it('when the key behind a session is revoked, then the session ends with it', async () => {
    const { sessions, repository } = setUp();
    const { sessionId } = await sessions.open(TEST_KEY);
    revoked.add('k-test');
    try {
      await expect(sessions.resume(sessionId)).rejects.toBeInstanceOf(SessionExpired);
      expect(repository.sessions.size).toBe(0);
    } finally {
      revoked.delete('k-test');
    }
  });

  it('when a test session is sent the live key, then it holds both and acts with the live key, role and all, in live mode', async () => {
    const { sessions } = setUp();
    const { sessionId, active } = await sessions.open(TEST_KEY);
    await expect(sessions.switchMode(active, 'live')).rejects.toMatchObject({ code: 'mode_key_required' });
    await expect(sessions.switchMode(active, 'live', TEST_KEY)).rejects.toMatchObject({ code: 'mode_key_mismatch' });
    const live = await sessions.switchMode(active, 'live', LIVE_KEY);
    expect(live.principal).toMatchObject({ kind: 'merchant', role: 'dashboard', key: { keyId: 'k-live', mode: 'live' } });
    expect((await sessions.resume(sessionId)).principal).toMatchObject({ role: 'dashboard', key: { mode: 'live' } });
  });

  it('when the CSRF token is missing, different or a prefix of the right one, then it is refused', async () => {
    const { sessions } = setUp();
    const { active } = await sessions.open(TEST_KEY);
    const token = active.session.csrf_token;
    for (const wrong of [undefined, '', token.slice(0, -1), `${token}x`, token.toUpperCase()])
      expect(() => assertCsrfToken(active.session, wrong)).toThrow(CsrfTokenInvalid);
    expect(() => assertCsrfToken(active.session, token)).not.toThrow();
  });
});
