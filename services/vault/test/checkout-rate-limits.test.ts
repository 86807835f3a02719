import { ManualClock, newId } from '@vaultline/core';
import { MemoryTtlStore } from '@vaultline/ttl';
import { aCard, PUBLIC, startVault, type VaultHarness } from './vault-harness';
import { openSession } from './checkout-helpers';

/** Card submissions on the hosted checkout are limited per client address first, then per session. */
describe('checkout attempt limits', () => {
  let vault: VaultHarness;
  let ttl: MemoryTtlStore;
  const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
  beforeAll(async () => {
    ttl = new MemoryTtlStore({ clock });
    vault = await startVault({ clock, ttl, env: { VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS: '3', VAULT_CHECKOUT_ATTEMPTS_PER_SESSION: '2' } });
  });
  afterAll(() => vault.stop());

  const submit = (sessionId: string, address: string) =>
    vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard({ number: '4242424242424241' }) }, { 'x-forwarded-for': address });

  it('when an address is over its limit, then submissions with ever new session ids answer 429 and add nothing to the TTL store', async () => {
    for (let i = 0; i < 3; i++) expect((await submit(newId(), '203.0.113.7')).status).toBe(404);
    const held = ttl.size;

    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await submit(newId(), '203.0.113.7')).status);

    expect(new Set(statuses)).toEqual(new Set([429]));
    expect(ttl.size).toBe(held);
  });

  it('when one session is over its limit, then it answers 429 while another session is still served', async () => {
    const { sessionId } = await openSession(vault);
    const other = await openSession(vault);

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await submit(sessionId, '198.51.100.20')).status);

    expect(statuses).toEqual([422, 422, 429]);
    expect((await submit(other.sessionId, '198.51.100.21')).status).toBe(422);
  });
});
